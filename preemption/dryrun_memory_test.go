package preemption_test

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// TestDryRunReusesMemory: the dry run reuses memory from node to node
// (its lists of victims, and the pod lists of its node copies, which
// empty when every victim is removed and fill again as pods are
// reprieved). On each node the most important victim is too big to
// reprieve and the other one is reprieved, so every node's list empties
// and fills again; each candidate must keep its own victims, appending to
// one must not change another, and the snapshot's nodes are untouched.
// With a topology spread constraint PodTopologySpread's PreFilter
// extension runs on a copy of the state per node; without, no extension
// is active and the nodes share the failed cycle's state.
func TestDryRunReusesMemory(t *testing.T) {
	const n = 6
	var nodes []*api.Node
	var pods []*api.Pod
	var all []string
	for i := range n {
		name := fmt.Sprintf("node%d", i)
		all = append(all, name)
		nodes = append(nodes, mkNode(name, "500m", "1000", "32"))
		pods = append(pods,
			mkPod(fmt.Sprintf("big%d", i), on(name), prio(lowPriority), req(largeRes), started(epoch(1)), label("app", "x")),
			mkPod(fmt.Sprintf("small%d", i), on(name), prio(lowPriority), req(smallRes), started(epoch(2)), label("app", "x")))
	}
	spread := func(p *api.Pod) {
		p.Labels = map[string]string{"app": "x"}
		p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{
			MaxSkew: 10, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}},
		}}
	}
	for _, tc := range []struct {
		name string
		opts []podOpt
	}{{"no extension active", nil}, {"PodTopologySpread's extension", []podOpt{spread}}} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := newHandle(nodes, pods, nil, 1, nil, framework.ProfileConfig{})
			if err != nil {
				t.Fatal(err)
			}
			pod := mkPod("p", append([]podOpt{prio(highPriority), req(largeRes)}, tc.opts...)...)
			o := h.preempt(pod, unsched(all...))
			if len(o.Candidates) != n {
				t.Fatalf("%d candidates, want %d: %+v", len(o.Candidates), n, o.Candidates)
			}
			for _, c := range o.Candidates {
				want := "big" + c.Node[len("node"):]
				if names(c.Victims) != want {
					t.Errorf("%s: victims %s, want %s", c.Node, names(c.Victims), want)
				}
			}
			_ = append(o.Candidates[0].Victims, pods[0])
			if got := names(o.Candidates[1].Victims); got != "big"+o.Candidates[1].Node[len("node"):] {
				t.Errorf("appending to one candidate's victims changed another's: %s", got)
			}
			for _, ni := range h.snap.Nodes() {
				if len(ni.Pods) != 2 {
					t.Errorf("snapshot node %s has %d pods after the dry run, want 2", ni.Node().Name, len(ni.Pods))
				}
			}
		})
	}
}
