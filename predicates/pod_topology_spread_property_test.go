package predicates

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// spreadWorld draws a few nodes over zones and hosts (some without a
// zone), labelled pods bound to them and an incoming pod with DoNotSchedule
// constraints over zone or hostname.
func spreadWorld(t *rapid.T) ([]*api.Node, []*api.Pod, *api.Pod) {
	var nodes []*api.Node
	for i := range rapid.IntRange(1, 6).Draw(t, "nodes") {
		b := spreadNode().Name(fmt.Sprintf("n%d", i)).Label("kubernetes.io/hostname", fmt.Sprintf("n%d", i))
		if rapid.IntRange(0, 5).Draw(t, "noZone") != 0 {
			b.Label("zone", rapid.SampledFrom([]string{"z1", "z2", "z3"}).Draw(t, "zone"))
		}
		nodes = append(nodes, b.Obj())
	}
	var pods []*api.Pod
	for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
		b := spreadPod().Name(fmt.Sprintf("p%d", i)).Node(nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")].Name)
		if rapid.Bool().Draw(t, "foo") {
			b.Label("foo", "")
		}
		pods = append(pods, b.Obj())
	}
	in := spreadPod().Name("incoming").Label("foo", "")
	for range rapid.IntRange(1, 2).Draw(t, "constraints") {
		var minDomains *int32
		if rapid.Bool().Draw(t, "hasMinDomains") {
			minDomains = spreadPtr(rapid.Int32Range(1, 4).Draw(t, "minDomains"))
		}
		in.SpreadConstraint(rapid.IntRange(1, 2).Draw(t, "maxSkew"), rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(t, "key"),
			api.DoNotSchedule, fooSelector, minDomains, nil, nil, nil)
	}
	return nodes, pods, in.Obj()
}

func spreadFilterAll(t *rapid.T, nodes []*api.Node, pods []*api.Pod, pod *api.Pod) (map[string]framework.Code, *PodTopologySpreadPlugin, *framework.CycleState, *cluster.Snapshot) {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	pl, _ := NewPodTopologySpread(nil, spreadHandle{snap})
	p := pl.(*PodTopologySpreadPlugin)
	state := framework.NewCycleState()
	if _, st := p.PreFilter(context.Background(), state, pod, snap.Nodes()); !st.IsSuccess() {
		t.Fatalf("PreFilter: %v", st)
	}
	codes := map[string]framework.Code{}
	for _, ni := range snap.Nodes() {
		codes[ni.Name()] = p.Filter(context.Background(), state, pod, ni).Code()
	}
	return codes, p, state, snap
}

// The filter's answers do not depend on the order of nodes or pods.
func TestSpreadFilterOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := spreadWorld(t)
		want, _, _, _ := spreadFilterAll(t, nodes, pods, pod)
		pn := rapid.Permutation(nodes).Draw(t, "nodeOrder")
		pp := rapid.Permutation(pods).Draw(t, "podOrder")
		got, _, _, _ := spreadFilterAll(t, pn, pp, pod)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("order changed the answers: %v vs %v", want, got)
		}
	})
}

// AddPod then RemovePod of the same pod restores the counts, and AddPod
// gives the counts a fresh PreFilter computes with the pod in the
// cluster.
func TestSpreadAddRemovePod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := spreadWorld(t)
		_, p, state, snap := spreadFilterAll(t, nodes, pods, pod)
		before := state.Clone()
		target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")]
		added := spreadPod().Name("added").Label("foo", "").Node(target.Name).Obj()
		ni, _ := snap.Get(target.Name)
		ctx := context.Background()
		if st := p.AddPod(ctx, state, pod, cluster.NewPodInfo(added), ni); !st.IsSuccess() {
			t.Fatal(st)
		}
		withPod, _, fresh, _ := spreadFilterAll(t, nodes, append(append([]*api.Pod{}, pods...), added), pod)
		a, _ := readSpreadFilterState(state)
		f, _ := readSpreadFilterState(fresh)
		if !reflect.DeepEqual(a.countsByValue(), f.countsByValue()) {
			t.Fatalf("AddPod counts %v, fresh PreFilter %v", a.countsByValue(), f.countsByValue())
		}
		for _, n := range snap.Nodes() {
			if got := p.Filter(ctx, state, pod, n).Code(); got != withPod[n.Name()] {
				t.Fatalf("%s: after AddPod %v, fresh %v", n.Name(), got, withPod[n.Name()])
			}
		}
		if st := p.RemovePod(ctx, state, pod, cluster.NewPodInfo(added), ni); !st.IsSuccess() {
			t.Fatal(st)
		}
		b, _ := readSpreadFilterState(before)
		a, _ = readSpreadFilterState(state)
		if !reflect.DeepEqual(a.countsByValue(), b.countsByValue()) || a.paths[0][0].count != b.paths[0][0].count {
			t.Fatalf("RemovePod did not restore: %v vs %v", a.countsByValue(), b.countsByValue())
		}
	})
}

// Adding a matching pod never makes an infeasible node feasible... except
// by raising the global minimum: adding it to a domain other than the
// node's own can only raise the minimum, so this checks the node's own
// domain, where the pod raises the node's count at least as much as the
// minimum.
func TestSpreadAddingToOwnDomainKeepsInfeasible(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, pods, pod := spreadWorld(t)
		before, _, _, _ := spreadFilterAll(t, nodes, pods, pod)
		target := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "target")]
		added := spreadPod().Name("added").Label("foo", "").Node(target.Name).Obj()
		after, _, _, _ := spreadFilterAll(t, nodes, append(append([]*api.Pod{}, pods...), added), pod)
		if before[target.Name] != framework.Success && after[target.Name] == framework.Success {
			t.Fatalf("%s became feasible after a matching pod was added to it", target.Name)
		}
	})
}
