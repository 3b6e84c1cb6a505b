package conformance

import (
	"context"
	"errors"
	"fmt"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/queuesort"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
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
	cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: queuesort.Name}, framework.PluginRef{Name: defaultbinder.Name})
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
