package framework_test

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// TestNodeToStatusForAgrees checks that a NodeToStatus kept by slot
// (NewNodeToStatusFor) answers every query as the map form does, over
// generated sequences of Set, SetNode, Reset and SetAbsentNodesStatus,
// with names inside and outside the view and nil statuses; and that
// CountCode, which reads the slots alone, counts what Get finds.
func TestNodeToStatusForAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 12).Draw(t, "nodes")
		nodes := make([]*api.Node, n)
		for i := range nodes {
			nodes[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("n%d", i)}}
		}
		snap, err := cluster.NewSnapshot(nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		view := snap.View()
		statuses := []*framework.Status{
			nil,
			framework.NewStatus(framework.Unschedulable, "a").WithPlugin("P"),
			framework.NewStatus(framework.UnschedulableAndUnresolvable, "b"),
			framework.NewStatus(framework.Unschedulable, "c", "d"),
		}
		// More statuses than the table's runs look back over.
		for i := range 6 {
			statuses = append(statuses, framework.NewStatus(framework.Unschedulable, fmt.Sprint("e", i)))
		}
		names := func(t *rapid.T) string {
			return fmt.Sprintf("n%d", rapid.IntRange(0, n+2).Draw(t, "node"))
		}
		absent := framework.NewStatus(framework.UnschedulableAndUnresolvable)
		plain := framework.NewNodeToStatus(map[string]*framework.Status{}, absent)
		bySlot := framework.NewNodeToStatusFor(view, absent)
		for range rapid.IntRange(0, 40).Draw(t, "ops") {
			st := statuses[rapid.IntRange(0, len(statuses)-1).Draw(t, "status")]
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			case 0:
				plain.Reset(st)
				bySlot.ResetFor(view, st)
			case 1:
				plain.SetAbsentNodesStatus(st)
				bySlot.SetAbsentNodesStatus(st)
			case 2, 3, 4:
				if n == 0 {
					continue
				}
				ni := view.Nodes()[rapid.IntRange(0, n-1).Draw(t, "index")]
				plain.Set(ni.Node().Name, st)
				bySlot.SetNode(ni, st)
			default:
				name := names(t)
				plain.Set(name, st)
				bySlot.Set(name, st)
			}
			if plain.Len() != bySlot.Len() {
				t.Fatalf("Len: map %d, by slot %d", plain.Len(), bySlot.Len())
			}
			if a, b := plain.NodeNames(), bySlot.NodeNames(); !slices.Equal(a, b) {
				t.Fatalf("NodeNames: map %v, by slot %v", a, b)
			}
			for i := range n + 3 {
				name := fmt.Sprintf("n%d", i)
				if a, b := plain.Get(name), bySlot.Get(name); a != b {
					t.Fatalf("Get(%s): map %v, by slot %v", name, a, b)
				}
			}
			for _, ni := range view.Nodes() {
				if a, b := plain.Get(ni.Node().Name), bySlot.GetNode(view, ni); a != b {
					t.Fatalf("GetNode(%s): map %v, by slot %v", ni.Node().Name, a, b)
				}
			}
			for _, c := range []framework.Code{framework.Success, framework.Unschedulable, framework.UnschedulableAndUnresolvable} {
				if _, ok := plain.CountCode(view, c); ok {
					t.Fatalf("CountCode(%v) answered for a NodeToStatus by name", c)
				}
				got, ok := bySlot.CountCode(view, c)
				if !ok {
					continue
				}
				want := 0
				for _, ni := range view.Nodes() {
					if plain.Get(ni.Node().Name).Code() == c {
						want++
					}
				}
				if got != want {
					t.Fatalf("CountCode(%v) = %d, %d nodes have it", c, got, want)
				}
			}
			fa := &framework.FitError{Pod: &api.Pod{}, NumAllNodes: n, Diagnosis: framework.Diagnosis{NodeToStatus: plain}}
			fb := &framework.FitError{Pod: &api.Pod{}, NumAllNodes: n, Diagnosis: framework.Diagnosis{NodeToStatus: bySlot}}
			if fa.Error() != fb.Error() {
				t.Fatalf("FitError: map %q, by slot %q", fa.Error(), fb.Error())
			}
		}
	})
}
