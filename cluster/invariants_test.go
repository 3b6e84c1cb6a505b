package cluster

import (
	"maps"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/schedkit/schedkit/api"
)

// tb is what checkInvariants needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkInvariants recomputes from scratch everything a snapshot keeps
// incrementally and compares.
func checkInvariants(t tb, s *Snapshot) {
	t.Helper()
	v := s.View()
	images := map[string]int{}
	for _, ni := range v.Nodes() {
		seen := map[string]bool{}
		for _, im := range ni.node.Status.Images {
			for _, n := range im.Names {
				if !seen[n] {
					seen[n] = true
					images[n]++
				}
			}
		}
	}
	// Every node carries one size per image name (the size first seen,
	// as kube-scheduler's cache keeps it), whatever its own report.
	sizes := map[string]int64{}
	for _, ni := range v.Nodes() {
		for name, st := range ni.ImageStates {
			if sz, ok := sizes[name]; ok && sz != st.Size {
				t.Fatalf("image %s has size %d on %s, %d elsewhere", name, st.Size, ni.Name(), sz)
			}
			sizes[name] = st.Size
		}
	}
	total, withAffinity, withAnti := 0, 0, 0
	for i, ni := range v.Nodes() {
		withAffinity += len(ni.PodsWithAffinity)
		withAnti += len(ni.PodsWithRequiredAntiAffinity)
		if j, ok := v.Index(ni.Name()); !ok || j != i {
			t.Fatalf("index of %s = %d, %v; want %d", ni.Name(), j, ok, i)
		}
		// Rebuild the node from its pods, deriving each PodInfo afresh.
		want := NewNodeInfo(ni.node)
		for _, p := range ni.Pods {
			want.AddPod(NewPodInfo(p.Pod))
		}
		want.ImageStates = nodeImageStates(ni.node, func(n string) (int, int64) { return images[n], sizes[n] })
		// Host ports are a set, as upstream keeps them: removing one of
		// two pods that bind the same tuple frees it, so the kept set may
		// lack tuples a recompute has (history decides), never hold more.
		for _, hp := range ni.UsedPorts.Ports() {
			if _, ok := want.UsedPorts.find(hp); !ok {
				t.Fatalf("node %s keeps host port %v that no pod binds", ni.Name(), hp)
			}
		}
		want.UsedPorts = ni.UsedPorts.Clone()
		if sameNodeInfo(want, ni) {
			// cheap check passed
		} else if diff := cmp.Diff(want, ni, nodeInfoCmp...); diff != "" {
			t.Fatalf("node %s differs from a recompute (-recomputed +kept):\n%s", ni.Name(), diff)
		}
		if ni.Generation > v.Generation() {
			t.Fatalf("node %s generation %d > snapshot %d", ni.Name(), ni.Generation, v.Generation())
		}
		total += len(ni.Pods)
	}
	if v.NumPodsWithAffinity() != withAffinity || v.NumPodsWithRequiredAntiAffinity() != withAnti {
		t.Fatalf("view counts %d pods with affinity, %d with required anti-affinity; the nodes hold %d, %d",
			v.NumPodsWithAffinity(), v.NumPodsWithRequiredAntiAffinity(), withAffinity, withAnti)
	}
	for key := range maps.Keys(v.topo) {
		if diff := cmp.Diff(buildDomains(v.Nodes(), key).domains, v.Domains(key), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("domains of %s differ from a rebuild (-rebuild +kept):\n%s", key, diff)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orphans {
		total += len(o)
	}
	if total != s.pods.len() {
		t.Fatalf("%d pods on nodes and aside, %d indexed", total, s.pods.len())
	}
	n := 0
	for k, e := range s.pods.all {
		n++
		if u, _ := s.uids.get(e.info.Pod.UID); e.info.Pod.UID != "" && u != k {
			t.Fatalf("uid index of %v wrong", k)
		}
	}
	if n != s.pods.len() {
		t.Fatalf("%d pods listed, %d counted", n, s.pods.len())
	}
}

// sameNodeInfo compares what nodeInfoCmp compares, quickly: pods by
// identity of their pod objects, in any order.
func sameNodeInfo(a, b *NodeInfo) bool {
	samePods := func(x, y []*PodInfo) bool {
		if len(x) != len(y) {
			return false
		}
		set := make(map[*api.Pod]int, len(x))
		for _, p := range x {
			set[p.Pod]++
		}
		for _, p := range y {
			if set[p.Pod]--; set[p.Pod] < 0 {
				return false
			}
		}
		return true
	}
	sameImages := func(x, y map[string]*ImageStateSummary) bool {
		if len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || *v != *w {
				return false
			}
		}
		return true
	}
	return a.node == b.node &&
		a.Requested.Equal(b.Requested) && a.NonZeroRequested.Equal(b.NonZeroRequested) &&
		a.Allocatable.Equal(b.Allocatable) &&
		slices.Equal(a.UsedPorts.entries, b.UsedPorts.entries) &&
		maps.Equal(a.PVCRefCounts, b.PVCRefCounts) &&
		sameImages(a.ImageStates, b.ImageStates) &&
		samePods(a.Pods, b.Pods) && samePods(a.PodsWithAffinity, b.PodsWithAffinity) &&
		samePods(a.PodsWithRequiredAntiAffinity, b.PodsWithRequiredAntiAffinity)
}
