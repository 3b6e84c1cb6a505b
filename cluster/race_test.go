package cluster

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// TestConcurrentReadersOneWriter hammers a snapshot with readers while
// one writer adds and removes pods and nodes; run it with -race. Each
// reader checks that what it sees within a view is consistent: a node's
// requested cpu is the sum of its pods' and its ports are its pods'.
func TestConcurrentReadersOneWriter(t *testing.T) {
	const zone = "topology.kubernetes.io/zone"
	var nodes []*api.Node
	for i := range 20 {
		nodes = append(nodes, mkNode(fmt.Sprintf("n%d", i), rl("cpu", "64", "pods", "110"),
			map[string]string{zone: fmt.Sprintf("z%d", i%3)}, img(int64(i), "img:v1"), img(5, fmt.Sprintf("img:%d", i%4))))
	}
	s, err := NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	for r := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				v := s.View()
				for _, ni := range v.Nodes() {
					var cpu int64
					ports := 0
					for _, p := range ni.Pods {
						cpu += p.Requests.MilliCPU
						ports += len(p.HostPorts)
					}
					if cpu != ni.Requested.MilliCPU {
						t.Errorf("reader %d: %s requested %d, pods sum to %d", r, ni.Name(), ni.Requested.MilliCPU, cpu)
						return
					}
					if ni.UsedPorts.Len() > ports {
						t.Errorf("reader %d: %s has %d ports, pods %d", r, ni.Name(), ni.UsedPorts.Len(), ports)
						return
					}
					_ = ni.UsedPorts.CheckConflict("", "", 80)
					for _, st := range ni.ImageStates {
						if st.NumNodes < 1 || st.NumNodes > v.NumNodes() {
							t.Errorf("reader %d: NumNodes %d of %d", r, st.NumNodes, v.NumNodes())
							return
						}
					}
				}
				n := 0
				for _, idx := range v.Domains(zone) {
					n += len(idx)
				}
				if n != v.NumNodes() {
					t.Errorf("reader %d: domains hold %d of %d nodes", r, n, v.NumNodes())
					return
				}
				topo, sized := v.Topology(zone), 0
				for id := range int32(topo.NumIDs()) {
					sized += topo.Size(id)
				}
				for _, ni := range v.Nodes() {
					if id := topo.ID(ni); id < 0 || topo.Value(id) != ni.Node().Labels[zone] {
						t.Errorf("reader %d: %s in domain %d, labelled %q", r, ni.Name(), id, ni.Node().Labels[zone])
						return
					}
				}
				if sized != v.NumNodes() {
					t.Errorf("reader %d: topology sizes sum to %d of %d nodes", r, sized, v.NumNodes())
					return
				}
				// The pod index, read while the writer appends to and
				// marks its lists, gives this view's pods of app=a1.
				if c, ok := v.PodCandidates([]PodQuery{{Namespace: "ns", Selector: affinity.SelectorFromSet(map[string]string{"app": "a1"})}}); ok {
					for _, ni := range v.Nodes() {
						want := 0
						for _, p := range ni.Pods {
							if p.Pod.Labels["app"] == "a1" {
								want++
							}
						}
						if got, _ := c.Pods(ni); len(got) != want {
							t.Errorf("reader %d: %s has %d pods of app=a1, %d candidates", r, ni.Name(), want, len(got))
							return
						}
					}
				}
				_ = v.HavePodsWithAffinityNodes()
				_, _ = s.Get("n3")
				reads.Add(1)
			}
		}()
	}
	// The writer: each pod binds its own host port (unique per node), so
	// the readers' port count check holds.
	for i := range 3000 {
		node := fmt.Sprintf("n%d", i%20)
		p := mkPod("ns", fmt.Sprintf("p%d", i), fmt.Sprintf("u%d", i), node).
			container(rl("cpu", "10m"), tcp("", int32(1000+i))).obj()
		if i%7 == 0 {
			p = mkPod("ns", fmt.Sprintf("p%d", i), fmt.Sprintf("u%d", i), node).antiAffinity(zone).container(rl("cpu", "5m")).obj()
		}
		p.Labels = map[string]string{"app": fmt.Sprint("a", i%3)}
		if err := s.AddPod(p); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if err := s.RemovePod(mkPod("ns", fmt.Sprintf("p%d", i/2), "", "").obj()); err != nil && i/2%3 != 0 {
				t.Fatal(err)
			}
		}
		if i%250 == 0 {
			name := fmt.Sprintf("extra%d", i)
			if err := s.AddNode(mkNode(name, rl("cpu", "8"), map[string]string{zone: "z9"}, img(1, "img:v1"))); err != nil {
				t.Fatal(err)
			}
			if err := s.UpdateNode(mkNode("n1", rl("cpu", "64"), map[string]string{zone: fmt.Sprintf("z%d", i%5)}, img(2, "img:v2"))); err != nil {
				t.Fatal(err)
			}
			if i%500 == 0 {
				if err := s.RemoveNode(name); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	checkInvariants(t, s)
	t.Logf("%d reader passes", reads.Load())
}
