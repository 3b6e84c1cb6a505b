package cluster

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// TestPropNodeVecPersistent: a nodeVec changed only through its writer
// methods behaves as a slice, and every copy taken along the way (as a
// view takes one, the epoch then moving on) keeps what it held.
func TestPropNodeVecPersistent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		infos := make([]*NodeInfo, 8)
		for i := range infos {
			infos[i] = &NodeInfo{Generation: int64(i)}
		}
		epoch := uint64(1)
		v := nodeVec{epoch: epoch}
		var model []*NodeInfo
		type frozen struct {
			v    nodeVec
			want []*NodeInfo
		}
		var copies []frozen
		check := func(t *rapid.T, v *nodeVec, want []*NodeInfo) {
			if v.len() != len(want) {
				t.Fatalf("len %d, want %d", v.len(), len(want))
			}
			for i := range want {
				if v.at(i) != want[i] {
					t.Fatalf("at(%d) differs", i)
				}
			}
			if got := v.appendTo(nil); !slices.Equal(got, want) {
				t.Fatalf("appendTo differs")
			}
			n := 0
			v.each(func(i int, ni *NodeInfo) {
				if i != n || ni != want[i] {
					t.Fatalf("each(%d) differs", i)
				}
				n++
			})
			if n != len(want) {
				t.Fatalf("each visited %d of %d", n, len(want))
			}
		}
		t.Repeat(map[string]func(*rapid.T){
			"push": func(t *rapid.T) {
				k := rapid.IntRange(1, 3*chunkLen).Draw(t, "count")
				for range k {
					ni := rapid.SampledFrom(infos).Draw(t, "node")
					v.push(ni, epoch)
					model = append(model, ni)
				}
			},
			"pop": func(t *rapid.T) {
				k := rapid.IntRange(0, min(len(model), 2*chunkLen)).Draw(t, "count")
				for range k {
					v.pop(epoch)
					model = model[:len(model)-1]
				}
			},
			"set": func(t *rapid.T) {
				if len(model) == 0 {
					t.Skip("empty")
				}
				i := rapid.IntRange(0, len(model)-1).Draw(t, "index")
				ni := rapid.SampledFrom(infos).Draw(t, "node")
				v.set(i, ni, epoch)
				model[i] = ni
			},
			"freeze": func(t *rapid.T) {
				copies = append(copies, frozen{v, slices.Clone(model)})
				epoch++
			},
			"": func(t *rapid.T) {
				check(t, &v, model)
				for i := range copies {
					check(t, &copies[i].v, copies[i].want)
				}
			},
		})
	})
}

// TestPropNodeListMatchesViews: over node and pod changes across many
// chunks, NodeList.Update lists exactly View.Nodes, whether it follows
// every view or skips some, and earlier views never change.
func TestPropNodeListMatchesViews(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		zones := rapid.IntRange(1, 4).Draw(t, "zones")
		var nodes []*api.Node
		mk := func(i int) *api.Node {
			return mkNode(fmt.Sprintf("n%04d", i), rl("cpu", "64", "pods", "110"),
				map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("z%d", i%zones)})
		}
		for i := range rapid.IntRange(0, 3*chunkLen).Draw(t, "nodes") {
			nodes = append(nodes, mk(i))
		}
		s, err := NewSnapshot(nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		next := len(nodes)
		names := func() []string {
			v := s.View()
			out := make([]string, 0, v.NumNodes())
			for _, ni := range v.Nodes() {
				out = append(out, ni.Name())
			}
			return out
		}
		pod := 0
		var placed []*api.Pod
		type frozen struct {
			v    *View
			want []*NodeInfo
			gens []int64
		}
		var views []frozen
		var l NodeList
		t.Repeat(map[string]func(*rapid.T){
			"addNodes": func(t *rapid.T) {
				for range rapid.IntRange(1, chunkLen+5).Draw(t, "count") {
					if err := s.AddNode(mk(next)); err != nil {
						t.Fatal(err)
					}
					next++
				}
			},
			"removeNode": func(t *rapid.T) {
				ns := names()
				if len(ns) == 0 {
					t.Skip("no nodes")
				}
				if err := s.RemoveNode(rapid.SampledFrom(ns).Draw(t, "node")); err != nil {
					t.Fatal(err)
				}
			},
			"assumePods": func(t *rapid.T) {
				ns := names()
				if len(ns) == 0 {
					t.Skip("no nodes")
				}
				for range rapid.IntRange(1, 5).Draw(t, "count") {
					p := mkPod("ns", fmt.Sprintf("p%d", pod), fmt.Sprintf("u%d", pod), "").container(rl("cpu", "10m")).obj()
					pod++
					if err := s.AssumePod(p, rapid.SampledFrom(ns).Draw(t, "node")); err != nil {
						t.Fatal(err)
					}
					placed = append(placed, p)
				}
			},
			"removePod": func(t *rapid.T) {
				if len(placed) == 0 {
					t.Skip("no pods")
				}
				i := rapid.IntRange(0, len(placed)-1).Draw(t, "pod")
				if err := s.RemovePod(placed[i]); err != nil {
					t.Fatal(err)
				}
				placed = slices.Delete(placed, i, i+1)
			},
			"view": func(t *rapid.T) {
				v := s.View()
				want := slices.Clone(v.Nodes())
				gens := make([]int64, len(want))
				for i, ni := range want {
					gens[i] = ni.Generation
				}
				views = append(views, frozen{v, want, gens})
				if rapid.Bool().Draw(t, "list") {
					if got := l.Update(v); !slices.Equal(got, want) {
						t.Fatalf("NodeList lists %d nodes, the view %d, or they differ", len(got), len(want))
					}
				}
			},
			"": func(t *rapid.T) {
				for _, f := range views {
					got := f.v.Nodes()
					if !slices.Equal(got, f.want) {
						t.Fatalf("an earlier view changed")
					}
					for i, ni := range got {
						if ni.Generation != f.gens[i] {
							t.Fatalf("a NodeInfo of an earlier view changed")
						}
						if j, ok := f.v.Index(ni.Name()); !ok || j != i {
							t.Fatalf("index of %s is %d, want %d", ni.Name(), j, i)
						}
					}
				}
			},
		})
	})
}

// TestConcurrentReadersManyNodes is TestConcurrentReadersOneWriter over
// several chunks of nodes, with readers listing views through their own
// NodeList; run it with -race.
func TestConcurrentReadersManyNodes(t *testing.T) {
	const numNodes = 3*chunkLen + 7
	var nodes []*api.Node
	for i := range numNodes {
		nodes = append(nodes, mkNode(fmt.Sprintf("n%d", i), rl("cpu", "64", "pods", "110"),
			map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("z%d", i%3)}))
	}
	s, err := NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var l NodeList
			for !stop.Load() {
				v := s.View()
				got := l.Update(v)
				if !slices.Equal(got, v.Nodes()) {
					t.Errorf("reader %d: NodeList differs from the view", r)
					return
				}
				for _, ni := range got {
					var cpu int64
					for _, p := range ni.Pods {
						cpu += p.Requests.MilliCPU
					}
					if cpu != ni.Requested.MilliCPU {
						t.Errorf("reader %d: %s requested %d, pods sum to %d", r, ni.Name(), ni.Requested.MilliCPU, cpu)
						return
					}
				}
			}
		}()
	}
	for i := range 3000 {
		node := fmt.Sprintf("n%d", (i*37)%numNodes)
		p := mkPod("ns", fmt.Sprintf("p%d", i), fmt.Sprintf("u%d", i), node).container(rl("cpu", "10m")).obj()
		if err := s.AddPod(p); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if err := s.RemovePod(mkPod("ns", fmt.Sprintf("p%d", i/2), "", "").obj()); err != nil && i/2%3 != 0 {
				t.Fatal(err)
			}
		}
		if i%200 == 0 {
			name := fmt.Sprintf("extra%d", i)
			if err := s.AddNode(mkNode(name, rl("cpu", "8"), map[string]string{"topology.kubernetes.io/zone": "z9"})); err != nil {
				t.Fatal(err)
			}
			if i%400 == 0 {
				if err := s.RemoveNode(name); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	checkInvariants(t, s)
}
