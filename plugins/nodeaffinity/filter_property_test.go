package nodeaffinity

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// snapHandle is a framework.Handle over a fixed snapshot.
type snapHandle struct{ s *cluster.Snapshot }

func (h snapHandle) Snapshot() *cluster.Snapshot { return h.s }

// A plugin with a snapshot decides required node affinity that reads one
// label key by the domains of the view's Topology of the key; it gives
// every node, of the view or not, the status a plugin matching each
// node's labels gives.
func TestPropertyFilterByDomain(t *testing.T) {
	keys := []string{"zone", "rack"}
	values := []string{"a", "b", "c", "10", "20"}
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		for i := range rapid.IntRange(1, 8).Draw(t, "nodes") {
			labels := map[string]string{}
			for _, k := range keys {
				if rapid.Bool().Draw(t, "has "+k) {
					labels[k] = rapid.SampledFrom(values).Draw(t, k)
				}
			}
			nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("n", i), Labels: labels}})
		}
		snap, err := cluster.NewSnapshot(nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		ops := []api.NodeSelectorOperator{api.NodeSelectorOpIn, api.NodeSelectorOpNotIn, api.NodeSelectorOpExists,
			api.NodeSelectorOpDoesNotExist, api.NodeSelectorOpGt, api.NodeSelectorOpLt, "Bogus"}
		var terms []api.NodeSelectorTerm
		for range rapid.IntRange(0, 3).Draw(t, "terms") {
			var term api.NodeSelectorTerm
			for range rapid.IntRange(0, 2).Draw(t, "exprs") {
				op := rapid.SampledFrom(ops).Draw(t, "op")
				var vs []string
				switch op {
				case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
					vs = rapid.SliceOfN(rapid.SampledFrom(values), 1, 3).Draw(t, "values")
				case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
					vs = []string{rapid.SampledFrom([]string{"5", "15", "x"}).Draw(t, "bound")}
				}
				term.MatchExpressions = append(term.MatchExpressions, expr(rapid.SampledFrom(keys).Draw(t, "key"), op, vs...))
			}
			if rapid.IntRange(0, 5).Draw(t, "fields") == 0 {
				term.MatchFields = append(term.MatchFields, nameIn("n0"))
			}
			terms = append(terms, term)
		}
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}}
		if len(terms) > 0 || rapid.Bool().Draw(t, "affinity") {
			pod = requiredPod(terms...)
		}
		if rapid.Bool().Draw(t, "nodeSelector") {
			pod.Spec.NodeSelector = map[string]string{rapid.SampledFrom(keys).Draw(t, "selKey"): rapid.SampledFrom(values).Draw(t, "selValue")}
		}
		infos := snap.View().Nodes()
		// A node of no view: its labels are read.
		infos = append(infos, cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "other", Labels: map[string]string{"zone": rapid.SampledFrom(values).Draw(t, "otherZone")}}}))
		run := func(h framework.Handle) []*framework.Status {
			pl, _ := New(nil, h)
			p := pl.(*NodeAffinity)
			state := framework.NewCycleState()
			if _, st := p.PreFilter(context.Background(), state, pod, infos); st != nil {
				return []*framework.Status{st}
			}
			out := make([]*framework.Status, len(infos))
			p.FilterNodes(context.Background(), state, pod, infos, out)
			for i, ni := range infos {
				if st := p.Filter(context.Background(), state, pod, ni); !st.Equal(out[i]) {
					t.Fatalf("node %s: Filter %v, FilterNodes %v", ni.Name(), st, out[i])
				}
			}
			return out
		}
		got, want := run(snapHandle{snap}), run(nil)
		for i := range want {
			if !got[i].Equal(want[i]) {
				t.Fatalf("status %d: by domain %v, by labels %v", i, got[i], want[i])
			}
		}
	})
}
