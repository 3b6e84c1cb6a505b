package scheduler

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/podgroup"
)

// TestGangAllOrNothing: with GenericWorkload on, Simulate places a gang
// whole (at least minCount of its pods, all of them when minCount is the
// gang's size) or not at all, and a gang that is not placed holds nothing
// in the snapshot: its cycle's tentative assumptions are all reverted.
// Ordinary pods are mixed in. A gang never waits at Permit holding
// resources in a simulation: its pods are assumed in one cycle and pass
// Permit together, or none is; a gang short of minCount members waits
// gated, holding nothing. A failed gang backs off and is retried after
// the last cluster event (flushBackoff), so the outcome is a fixpoint:
// the gangs left unplaced, simulated again on the cluster as it ends,
// place nothing.
func TestGangAllOrNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nNodes := rapid.IntRange(1, 5).Draw(t, "nodes")
		var nodes []*api.Node
		for i := range nNodes {
			nodes = append(nodes, gangNode(fmt.Sprintf("n%d", i), fmt.Sprint(rapid.IntRange(1, 6).Draw(t, "cpu"))))
		}
		nGangs := rapid.IntRange(1, 4).Draw(t, "gangs")
		var groups []*api.PodGroup
		var pods []*api.Pod
		size := map[string]int{}
		for g := range nGangs {
			name := fmt.Sprintf("g%d", g)
			n := rapid.IntRange(1, 6).Draw(t, "size")
			minCount := rapid.IntRange(1, n).Draw(t, "minCount")
			if rapid.Bool().Draw(t, "whole") {
				minCount = n
			}
			if rapid.IntRange(0, 5).Draw(t, "short") == 0 {
				// Waits for members that never come.
				minCount = n + 1
			}
			groups = append(groups, gangGroup(name, int32(minCount)))
			size[name] = n
			cpu := rapid.SampledFrom([]string{"500m", "1", "2"}).Draw(t, "podCPU")
			for i := range n {
				pods = append(pods, gangPod(fmt.Sprintf("%s-%d", name, i), cpu, name))
			}
		}
		for i := range rapid.IntRange(0, 6).Draw(t, "ordinary") {
			pods = append(pods, gangPod(fmt.Sprintf("solo-%d", i), rapid.SampledFrom([]string{"500m", "1", "3"}).Draw(t, "soloCPU"), ""))
		}
		// Interleave the gangs' pods with the ordinary ones.
		perm := rapid.Permutation(pods).Draw(t, "order")
		s := gangScheduler(t, nodes, groups, "GenericWorkload=true")
		got, err := s.Simulate(context.Background(), perm)
		if err != nil {
			t.Fatal(err)
		}
		placed := map[string]int{}
		for _, p := range got {
			if k, ok := podgroup.KeyOf(p.Pod); ok && p.Node != "" {
				placed[k.Name]++
			}
		}
		for _, g := range groups {
			n := placed[g.Name]
			if n != 0 && n < g.MinCount() {
				t.Fatalf("gang %s: %d of %d pods placed, minCount %d", g.Name, n, size[g.Name], g.MinCount())
			}
			if g.MinCount() == size[g.Name] && n != 0 && n != size[g.Name] {
				t.Fatalf("gang %s: %d of %d pods placed", g.Name, n, size[g.Name])
			}
			if held := s.scheduledCount(podgroup.Key{Namespace: "default", Name: g.Name}); held != n {
				t.Fatalf("gang %s: %d pods in the snapshot, %d placed", g.Name, held, n)
			}
		}
		var again []*api.Pod
		for _, p := range got {
			k, ok := podgroup.KeyOf(p.Pod)
			if !ok || p.Node != "" {
				continue
			}
			if g := groups[indexOf(groups, k.Name)]; size[g.Name] < g.MinCount() {
				if p.Outcome() != OutcomeGated {
					t.Fatalf("pod %s of a gang short of minCount: %v", p.Pod.Name, p.Outcome())
				}
				continue
			}
			again = append(again, p.Pod)
		}
		if len(again) == 0 {
			return
		}
		retried, err := s.Simulate(context.Background(), again)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range retried {
			if p.Node != "" {
				t.Fatalf("pod %s placed when its gang is simulated again: its last retry did not see the cluster as it ended", p.Pod.Name)
			}
		}
	})
}

func indexOf(groups []*api.PodGroup, name string) int {
	for i, g := range groups {
		if g.Name == name {
			return i
		}
	}
	return -1
}
