package conformance

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/scheduler"
)

// Every call the stream, first-decision and command benchmarks make to
// schedkit's API is in this file (scheduler.New, Schedule, Assume,
// RemovePod, cluster.NewSnapshot, AddObjects), so that a rename touches
// it alone.

// skStream is schedkit's side of a stream: a scheduler over the
// workload's snapshot; each pod is Schedule then Assume.
type skStream struct {
	s *scheduler.Scheduler
}

// skProfile is the profile of streamPluginNames with the default
// profile's weights.
func skProfile() framework.ProfileConfig {
	cfg := framework.ProfileConfig{Disabled: []string{"*"}}
	for _, name := range streamPluginNames() {
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: config.PrioritySortName}, framework.PluginRef{Name: config.DefaultBinderName})
	return cfg
}

// newSkStream builds the snapshot (nodes, bound pods, objects) and the
// scheduler, scoring pct percent of the nodes (0: adaptive).
func newSkStream(nodes []*api.Node, pods []*api.Pod, objects []any, pct int32, parallelism int) (*skStream, error) {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		return nil, err
	}
	if len(objects) > 0 {
		if err := snap.AddObjects(objects...); err != nil {
			return nil, err
		}
	}
	s, err := scheduler.New(snap, scheduler.WithProfiles(skProfile()), scheduler.WithParallelism(parallelism),
		scheduler.WithPercentageOfNodesToScore(pct), scheduler.WithSeed(1))
	if err != nil {
		return nil, err
	}
	return &skStream{s: s}, nil
}

// Close releases the scheduler's helpers.
func (k *skStream) Close() { k.s.Close() }

// decide is one cycle without assuming (a first decision).
func (k *skStream) decide(ctx context.Context, pod *api.Pod) (string, error) {
	res, err := k.s.Schedule(ctx, pod)
	return res.Node, err
}

// place schedules pod and assumes it; a pod that fits nowhere and for
// which preemption nominated a node has its victims removed (as the API
// server deletes them), then its next cycle at once, on the nominated
// node first. It returns "" (and no error) for a pod that fits nowhere
// even by preempting.
func (k *skStream) place(ctx context.Context, pod *api.Pod) (string, error) {
	res, err := k.s.Schedule(ctx, pod)
	var fe *scheduler.FitError
	if errors.As(err, &fe) {
		pf := res.PostFilterResult
		if pf == nil || pf.NominatedNodeName == "" {
			return "", nil
		}
		for _, v := range pf.Victims {
			if err := k.s.RemovePod(v); err != nil {
				return "", err
			}
		}
		p := *pod
		p.Status.NominatedNodeName = pf.NominatedNodeName
		pod = &p
		res, err = k.s.Schedule(ctx, pod)
	}
	if err != nil {
		return "", err
	}
	if err := k.s.Assume(pod, res.Node); err != nil {
		return "", fmt.Errorf("assume %s/%s on %s: %w", pod.Namespace, pod.Name, res.Node, err)
	}
	return res.Node, nil
}

// skGangs is schedkit's side of a gang stream: a scheduler with
// GenericWorkload on and GangScheduling in its profile; each gang is
// its PodGroup added to the snapshot, then Simulate of its pods (one
// PodGroup cycle, the placed pods assumed).
type skGangs struct {
	s *scheduler.Scheduler
}

// newSkGangs is newSkStream with GangScheduling and GenericWorkload on.
func newSkGangs(nodes []*api.Node, pods []*api.Pod, objects []any, pct int32, parallelism int) (*skGangs, error) {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		return nil, err
	}
	if len(objects) > 0 {
		if err := snap.AddObjects(objects...); err != nil {
			return nil, err
		}
	}
	prof := skProfile()
	prof.Plugins = append(prof.Plugins, framework.PluginRef{Name: config.GangSchedulingName})
	s, err := scheduler.New(snap, scheduler.WithProfiles(prof), scheduler.WithParallelism(parallelism),
		scheduler.WithPercentageOfNodesToScore(pct), scheduler.WithSeed(1),
		scheduler.WithFeatureGates(features.MustParse("GenericWorkload=true")))
	if err != nil {
		return nil, err
	}
	return &skGangs{s: s}, nil
}

// Close releases the scheduler's helpers.
func (k *skGangs) Close() { k.s.Close() }

// addGroup adds a gang's PodGroup to the snapshot, as the informer
// delivers it before its pods are scheduled.
func (k *skGangs) addGroup(pg *api.PodGroup) error { return k.s.Snapshot().AddObject(pg) }

// placeGroup runs the gang's PodGroup cycle and returns each pod's node
// ("" when not placed) in the order of pods.
func (k *skGangs) placeGroup(ctx context.Context, pods []*api.Pod) ([]string, error) {
	placements, err := k.s.Simulate(ctx, pods)
	if err != nil {
		return nil, err
	}
	nodes := make([]string, len(placements))
	for i, pl := range placements {
		nodes[i] = pl.Node
	}
	return nodes, nil
}
