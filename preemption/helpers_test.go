package preemption_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/defaultpreemption"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

// Upstream's test priorities and resources (default_preemption_test.go).
const (
	negPriority, lowPriority, midPriority, highPriority, veryHighPriority = int32(-100), int32(0), int32(100), int32(1000), int32(10000)
)

var (
	smallRes     = [2]string{"100m", "100"}
	mediumRes    = [2]string{"200m", "200"}
	largeRes     = [2]string{"300m", "300"}
	veryLargeRes = [2]string{"500m", "500"}
)

func epoch(ns int64) *api.Time { t := api.NewTime(time.Unix(0, ns)); return &t }

type podOpt func(*api.Pod)

func prio(p int32) podOpt        { return func(pod *api.Pod) { pod.Spec.Priority = &p } }
func on(node string) podOpt      { return func(pod *api.Pod) { pod.Spec.NodeName = node } }
func started(t *api.Time) podOpt { return func(pod *api.Pod) { pod.Status.StartTime = t } }
func label(k, v string) podOpt {
	return func(pod *api.Pod) {
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels[k] = v
	}
}
func req(r [2]string) podOpt {
	return func(pod *api.Pod) {
		pod.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": resource.MustParse(r[0]), "memory": resource.MustParse(r[1])}
	}
}
func nominated(node string) podOpt { return func(pod *api.Pod) { pod.Status.NominatedNodeName = node } }
func never() podOpt {
	return func(pod *api.Pod) { p := api.PreemptNever; pod.Spec.PreemptionPolicy = &p }
}
func terminatingByPreemption() podOpt {
	return func(pod *api.Pod) {
		t := api.NewTime(time.Unix(100, 0))
		pod.DeletionTimestamp = &t
		pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{Type: "DisruptionTarget", Status: api.ConditionTrue, Reason: "PreemptionByScheduler"})
	}
}

func mkPod(name string, opts ...podOpt) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name}}
	p.Spec.Containers = []api.Container{{Name: "c"}}
	for _, o := range opts {
		o(p)
	}
	return p
}

// mkNode has the capacity given ("" leaves a resource out) and room for
// pods pods.
func mkNode(name string, cpu, mem string, pods string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}}}
	n.Status.Allocatable = api.ResourceList{"pods": resource.MustParse(pods)}
	if cpu != "" {
		n.Status.Allocatable["cpu"] = resource.MustParse(cpu)
	}
	if mem != "" {
		n.Status.Allocatable["memory"] = resource.MustParse(mem)
	}
	n.Status.Capacity = n.Status.Allocatable
	return n
}

func pdb(name string, matchLabels map[string]string, allowed int32, disrupted ...string) *api.PodDisruptionBudget {
	b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	b.Spec.Selector = &api.LabelSelector{MatchLabels: matchLabels}
	b.Status.DisruptionsAllowed = allowed
	if len(disrupted) > 0 {
		b.Status.DisruptedPods = map[string]api.Time{}
		for _, d := range disrupted {
			b.Status.DisruptedPods[d] = api.NewTime(time.Unix(1, 0))
		}
	}
	return b
}

// testHandle is a preemption.Handle over a snapshot and one profile.
type testHandle struct {
	snap      *cluster.Snapshot
	prof      *framework.Profile
	nominated map[string][]*cluster.PodInfo
	rng       *rand.Rand
}

func (h *testHandle) Snapshot() *cluster.Snapshot                      { return h.snap }
func (h *testHandle) ProfileFor(*api.Pod) (*framework.Profile, bool)   { return h.prof, h.prof != nil }
func (h *testHandle) NominatedPodsForNode(n string) []*cluster.PodInfo { return h.nominated[n] }
func (h *testHandle) RandInt31n(n int32) int32                         { return h.rng.Int32N(n) }

func (h *testHandle) plugin() *defaultpreemption.DefaultPreemption {
	pl, _ := h.prof.Plugin(defaultpreemption.Name)
	return pl.(*defaultpreemption.DefaultPreemption)
}

// newHandle builds the snapshot, stores the budgets and builds the
// default profile (plus extra plugins) over it.
func newHandle(nodes []*api.Node, pods []*api.Pod, pdbs []*api.PodDisruptionBudget, seed uint64, extra framework.Registry, cfg framework.ProfileConfig) (*testHandle, error) {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		return nil, err
	}
	for _, b := range pdbs {
		if err := snap.AddObject(b); err != nil {
			return nil, err
		}
	}
	h := &testHandle{snap: snap, nominated: map[string][]*cluster.PodInfo{}, rng: rand.New(rand.NewPCG(seed, seed))}
	r := scheduler.DefaultRegistry()
	for k, v := range extra {
		r[k] = v
	}
	prof, err := framework.NewProfile(cfg, r, h)
	if err != nil {
		return nil, err
	}
	h.prof = prof
	return h, nil
}

// postFilter runs the profile's PreFilter and then DefaultPreemption's
// PostFilter for pod with the given statuses.
func (h *testHandle) postFilter(pod *api.Pod, m framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	ctx := context.Background()
	state := framework.NewCycleState()
	h.prof.RunPreFilterPlugins(ctx, state, pod, h.snap.Nodes())
	return h.plugin().PostFilter(ctx, state, pod, m)
}

// preempt is postFilter returning the whole outcome.
func (h *testHandle) preempt(pod *api.Pod, m framework.NodeToStatusReader) *preemption.Outcome {
	ctx := context.Background()
	state := framework.NewCycleState()
	h.prof.RunPreFilterPlugins(ctx, state, pod, h.snap.Nodes())
	return h.plugin().Preempt(ctx, state, pod, m)
}

func names(pods []*api.Pod) string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return strings.Join(out, ",")
}

// errorPlugin is upstream's test-plugin: a PreFilter whose RemovePod
// fails on nodes labelled error=true, and a Filter that passes.
type errorPlugin struct{}

func (errorPlugin) Name() string { return "test-plugin" }
func (errorPlugin) PreFilter(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, nil
}
func (errorPlugin) PreFilterExtensions() framework.PreFilterExtensions { return errorPlugin{} }
func (errorPlugin) AddPod(context.Context, *framework.CycleState, *api.Pod, *cluster.PodInfo, *cluster.NodeInfo) *framework.Status {
	return nil
}
func (errorPlugin) RemovePod(_ context.Context, _ *framework.CycleState, pod *api.Pod, _ *cluster.PodInfo, ni *cluster.NodeInfo) *framework.Status {
	if ni.Node().Labels["error"] == "true" {
		return framework.AsStatus(errors.New("failed to remove pod: " + pod.Name))
	}
	return nil
}
