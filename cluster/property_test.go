package cluster

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// TestPropIncrementalMatchesRecompute: after any sequence of node and pod
// additions, updates and removals, every NodeInfo (requested and non-zero
// sums, ports, claims, affinity lists, image counts), the topology
// domains and the pod index equal a from-scratch recompute, and views
// taken along the way never change.
func TestPropIncrementalMatchesRecompute(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 5).Draw(t, "nodes"), rapid.IntRange(0, 15).Draw(t, "pods")).Draw(t, "cluster")
		s, err := NewSnapshot(c.Nodes, c.Pods)
		if err != nil {
			t.Fatal(err)
		}
		nodeNames := []string{"node-0", "node-1", "node-2", "node-3", "node-4", "node-5", "node-6"}
		podNode := map[podKey]string{}
		for _, p := range c.Pods {
			podNode[keyOf(p)] = p.Spec.NodeName
		}
		present := map[string]bool{}
		for _, n := range c.Nodes {
			present[n.Name] = true
		}
		next := len(c.Pods)
		type frozen struct {
			v    *View
			want []string
		}
		var views []frozen
		describe := func(v *View) []string {
			var out []string
			for _, ni := range v.Nodes() {
				out = append(out, fmt.Sprintf("%s %d %+v %d/%d %d %v", ni.Name(), len(ni.Pods), ni.Requested,
					ni.NonZeroRequested.MilliCPU, ni.NonZeroRequested.Memory, ni.UsedPorts.Len(), ni.Generation))
			}
			return out
		}
		keys := func() []podKey {
			ks := make([]podKey, 0, len(podNode))
			for k := range podNode {
				ks = append(ks, k)
			}
			sort.Slice(ks, func(i, j int) bool {
				return ks[i].name < ks[j].name || ks[i].name == ks[j].name && ks[i].namespace < ks[j].namespace
			})
			return ks
		}
		newPod := func(t *rapid.T) *api.Pod {
			p := clustergen.Pod().Draw(t, "pod")
			p.Name = fmt.Sprintf("pod-%d", next)
			p.UID = fmt.Sprintf("uid-pod-%d", next)
			next++
			return p
		}
		t.Repeat(map[string]func(*rapid.T){
			"addPod": func(t *rapid.T) {
				p := newPod(t)
				p.Spec.NodeName = rapid.SampledFrom(nodeNames).Draw(t, "node")
				if err := s.AddPod(p); err != nil {
					t.Fatal(err)
				}
				podNode[keyOf(p)] = p.Spec.NodeName
			},
			"assumePod": func(t *rapid.T) {
				p := newPod(t)
				node := rapid.SampledFrom(nodeNames).Draw(t, "node")
				if err := s.AssumePod(p, node); err != nil {
					t.Fatal(err)
				}
				podNode[keyOf(p)] = node
			},
			"addDuplicatePod": func(t *rapid.T) {
				ks := keys()
				if len(ks) == 0 {
					t.Skip("no pods")
				}
				k := rapid.SampledFrom(ks).Draw(t, "pod")
				p := newPod(t)
				p.Namespace, p.Name = k.namespace, k.name
				p.Spec.NodeName = "node-0"
				if err := s.AddPod(p); err == nil {
					t.Fatalf("duplicate %v accepted", k)
				}
			},
			"removePod": func(t *rapid.T) {
				ks := keys()
				if len(ks) == 0 {
					t.Skip("no pods")
				}
				k := rapid.SampledFrom(ks).Draw(t, "pod")
				if err := s.RemovePod(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: k.namespace, Name: k.name}}); err != nil {
					t.Fatal(err)
				}
				delete(podNode, k)
			},
			"updatePod": func(t *rapid.T) {
				ks := keys()
				if len(ks) == 0 {
					t.Skip("no pods")
				}
				k := rapid.SampledFrom(ks).Draw(t, "pod")
				old, _, _ := s.Pod(k.namespace, k.name)
				p := clustergen.Pod().Draw(t, "newPod")
				p.Namespace, p.Name, p.UID = k.namespace, k.name, old.Pod.UID
				if rapid.Bool().Draw(t, "move") {
					p.Spec.NodeName = rapid.SampledFrom(nodeNames).Draw(t, "node")
				}
				if err := s.UpdatePod(old.Pod, p); err != nil {
					t.Fatal(err)
				}
				if p.Spec.NodeName != "" {
					podNode[k] = p.Spec.NodeName
				}
			},
			"addNode": func(t *rapid.T) {
				name := rapid.SampledFrom(nodeNames).Draw(t, "node")
				n := clustergen.Node().Draw(t, "newNode")
				n.Name = name
				err := s.AddNode(n)
				if present[name] != (err != nil) {
					t.Fatalf("AddNode(%s) present=%v err=%v", name, present[name], err)
				}
				present[name] = true
			},
			"updateNode": func(t *rapid.T) {
				name := rapid.SampledFrom(nodeNames).Draw(t, "node")
				n := clustergen.Node().Draw(t, "newNode")
				n.Name = name
				if err := s.UpdateNode(n); present[name] != (err == nil) {
					t.Fatalf("UpdateNode(%s) present=%v err=%v", name, present[name], err)
				}
			},
			"removeNode": func(t *rapid.T) {
				name := rapid.SampledFrom(nodeNames).Draw(t, "node")
				if err := s.RemoveNode(name); present[name] != (err == nil) {
					t.Fatalf("RemoveNode(%s) present=%v err=%v", name, present[name], err)
				}
				delete(present, name)
			},
			"view": func(t *rapid.T) {
				v := s.View()
				for _, key := range []string{clustergen.LabelZone, clustergen.LabelRack, clustergen.LabelHostname} {
					if rapid.Bool().Draw(t, "domains "+key) {
						v.Domains(key)
					}
				}
				views = append(views, frozen{v, describe(v)})
			},
			"": func(t *rapid.T) {
				checkInvariants(t, s)
				if s.NumPods() != len(podNode) {
					t.Fatalf("NumPods = %d, model has %d", s.NumPods(), len(podNode))
				}
				for k, node := range podNode {
					if _, got, ok := s.Pod(k.namespace, k.name); !ok || got != node {
						t.Fatalf("pod %v on %q (%v), model says %q", k, got, ok, node)
					}
				}
				for _, f := range views {
					if diff := cmp.Diff(f.want, describe(f.v)); diff != "" {
						t.Fatalf("a view changed (-then +now):\n%s", diff)
					}
				}
			},
		})
	})
}

// TestPropOrderIndependent: building a snapshot from the same nodes and
// pods in any order gives the same NodeInfos (apart from generations, the
// order of each node's pods and image sizes, which are the size first
// seen for each image, as kube-scheduler's cache takes them) and the same
// topology domains by name.
func TestPropOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 6).Draw(t, "nodes"), rapid.IntRange(0, 25).Draw(t, "pods")).Draw(t, "cluster")
		nodes := rapid.Permutation(c.Nodes).Draw(t, "nodeOrder")
		pods := rapid.Permutation(c.Pods).Draw(t, "podOrder")
		s1, err := NewSnapshot(c.Nodes, c.Pods)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		for _, n1 := range s1.Nodes() {
			n2, ok := s2.Get(n1.Name())
			if !ok {
				t.Fatalf("%s missing", n1.Name())
			}
			if sameNodeInfo(n1, n2) {
				continue
			}
			// Image sizes are the first size seen, which depends on the
			// order nodes are added; checked below.
			opts := append([]cmp.Option{cmpopts.IgnoreFields(ImageStateSummary{}, "Size")}, nodeInfoCmp...)
			if diff := cmp.Diff(n1, n2, opts...); diff != "" {
				t.Fatalf("node %s differs (-in order +permuted):\n%s", n1.Name(), diff)
			}
		}
		for _, tc := range []struct {
			s     *Snapshot
			nodes []*api.Node
		}{{s1, c.Nodes}, {s2, nodes}} {
			first := map[string]int64{}
			for _, n := range tc.nodes {
				for _, im := range n.Status.Images {
					for _, name := range im.Names {
						if _, ok := first[name]; !ok {
							first[name] = im.SizeBytes
						}
					}
				}
			}
			for _, ni := range tc.s.Nodes() {
				for name, st := range ni.ImageStates {
					if st.Size != first[name] {
						t.Fatalf("image %s on %s: size %d, first seen %d", name, ni.Name(), st.Size, first[name])
					}
				}
			}
		}
		byName := func(s *Snapshot, key string) map[string][]string {
			out := map[string][]string{}
			for val, idx := range s.Domains(key) {
				for _, i := range idx {
					out[val] = append(out[val], s.Nodes()[i].Name())
				}
				slices.Sort(out[val])
			}
			return out
		}
		for _, key := range []string{clustergen.LabelZone, clustergen.LabelRack} {
			if diff := cmp.Diff(byName(s1, key), byName(s2, key)); diff != "" {
				t.Fatalf("%s domains differ:\n%s", key, diff)
			}
		}
	})
}
