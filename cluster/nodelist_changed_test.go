package cluster

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// TestPropNodeListUpdateChanged: over node and pod changes across many
// chunks, UpdateChanged lists exactly View.Nodes, and every position
// outside the ranges it reports holds the NodeInfo, of the same
// generation, that the previous listing held there.
func TestPropNodeListUpdateChanged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		mk := func(i int) *api.Node {
			return mkNode(fmt.Sprintf("n%04d", i), rl("cpu", "64", "pods", "110"),
				map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("z%d", i%3)})
		}
		var nodes []*api.Node
		for i := range rapid.IntRange(0, 3*chunkLen).Draw(t, "nodes") {
			nodes = append(nodes, mk(i))
		}
		s, err := NewSnapshot(nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		next, pod := len(nodes), 0
		var l NodeList
		var prev []*NodeInfo
		var gens []int64
		for range rapid.IntRange(1, 20).Draw(t, "steps") {
			v := s.View()
			switch rapid.IntRange(0, 3).Draw(t, "change") {
			case 0:
				for range rapid.IntRange(1, chunkLen+5).Draw(t, "count") {
					if err := s.AddNode(mk(next)); err != nil {
						t.Fatal(err)
					}
					next++
				}
			case 1:
				if v.NumNodes() > 0 {
					name := v.NodeAt(rapid.IntRange(0, v.NumNodes()-1).Draw(t, "removed")).Name()
					if err := s.RemoveNode(name); err != nil {
						t.Fatal(err)
					}
				}
			default:
				for range rapid.IntRange(0, 4).Draw(t, "pods") {
					if v.NumNodes() == 0 {
						break
					}
					p := mkPod("ns", fmt.Sprintf("p%d", pod), fmt.Sprintf("u%d", pod), "").container(rl("cpu", "10m")).obj()
					pod++
					if err := s.AssumePod(p, v.NodeAt(rapid.IntRange(0, v.NumNodes()-1).Draw(t, "node")).Name()); err != nil {
						t.Fatal(err)
					}
				}
			}
			v = s.View()
			changed := make([]bool, v.NumNodes())
			got := l.UpdateChanged(v, func(lo, hi int) {
				for j := lo; j < hi; j++ {
					changed[j] = true
				}
			})
			if !slices.Equal(got, v.Nodes()) {
				t.Fatalf("UpdateChanged lists other nodes than the view")
			}
			for j, ni := range got {
				if v.NodeAt(j) != ni {
					t.Fatalf("NodeAt(%d) is not the view's node", j)
				}
				if changed[j] {
					continue
				}
				if j >= len(prev) || prev[j] != ni || gens[j] != ni.Generation {
					t.Fatalf("position %d changed outside the ranges reported", j)
				}
			}
			prev = slices.Clone(got)
			gens = gens[:0]
			for _, ni := range got {
				gens = append(gens, ni.Generation)
			}
		}
	})
}
