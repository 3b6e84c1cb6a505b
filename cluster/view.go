package cluster

import (
	"sync"
)

// View is an immutable picture of a Snapshot, for one scheduling cycle:
// its nodes, name index, topology domains and affinity lists agree with
// each other whatever the snapshot's writer does meanwhile. Its methods
// are safe for concurrent use.
type View struct {
	nodes      nodeVec
	index      map[string]int
	generation int64

	snap     *Snapshot
	nodeSet  int64
	affinity affinityCounts

	// logTag and changes are the snapshot's log of node changes as the
	// view was made (see changeLog).
	logTag  *logTag
	changes []int32

	objects *Objects

	mu      sync.Mutex
	topo    map[string]*domainIndex // nil until a key is asked for
	topoIDs map[string]*Topology    // nil until a key is asked for

	flatOnce sync.Once
	flat     []*NodeInfo

	affinityOnce     sync.Once
	withAffinity     []*NodeInfo
	withRequiredAnti []*NodeInfo
}

// Nodes returns the NodeInfos in kube-scheduler's order: round-robin over
// zones (see Snapshot). Do not modify the slice or the NodeInfos.
// The first call lists them (a NodeList lists the nodes of successive
// views more cheaply).
func (v *View) Nodes() []*NodeInfo {
	v.flatOnce.Do(func() { v.flat = v.nodes.appendTo(make([]*NodeInfo, 0, v.nodes.len())) })
	return v.flat
}

// List is Nodes, by upstream's name; it is in the same order.
func (v *View) List() []*NodeInfo { return v.Nodes() }

// NumNodes returns the number of nodes.
func (v *View) NumNodes() int { return v.nodes.len() }

// Generation returns the snapshot's generation when the view was made.
func (v *View) Generation() int64 { return v.generation }

// Get returns the named node.
func (v *View) Get(name string) (*NodeInfo, bool) {
	i, ok := v.index[name]
	if !ok {
		return nil, false
	}
	return v.nodes.at(i), true
}

// Index returns the position of the named node in Nodes.
func (v *View) Index(name string) (int, bool) {
	i, ok := v.index[name]
	return i, ok
}

// Domains groups the nodes by their value of a label key, such as
// topology.kubernetes.io/zone, kubernetes.io/hostname or a rack label:
// each value maps to the indexes into Nodes of the nodes carrying it, in
// increasing order. Nodes without the label are in no domain. The first
// call for a key costs one pass over the nodes; the snapshot then keeps
// that key's domains up to date as nodes come and go, so later views
// get them for free. Do not modify the result.
func (v *View) Domains(key string) map[string][]int {
	v.mu.Lock()
	d, ok := v.topo[key]
	v.mu.Unlock()
	if ok {
		return d.domains
	}
	d = buildDomainsVec(&v.nodes, key)
	v.mu.Lock()
	if prev, ok := v.topo[key]; ok {
		d = prev
	} else {
		if v.topo == nil {
			v.topo = map[string]*domainIndex{}
		}
		v.topo[key] = d
	}
	v.mu.Unlock()
	v.snap.adoptDomains(key, d, v.nodeSet)
	return d.domains
}

// NumPodsWithAffinity returns the number of pods on the view's nodes
// with pod affinity or anti-affinity (required or preferred). The
// snapshot keeps the count as pods come and go, so that a plugin learns
// that there are none without reading every node.
func (v *View) NumPodsWithAffinity() int { return v.affinity.withAffinity }

// NumPodsWithRequiredAntiAffinity returns the number of pods on the
// view's nodes with required pod anti-affinity; see NumPodsWithAffinity.
func (v *View) NumPodsWithRequiredAntiAffinity() int { return v.affinity.withRequiredAnti }

// HavePodsWithAffinityNodes returns the nodes with at least one pod with
// inter-pod affinity or anti-affinity, in the order of Nodes.
func (v *View) HavePodsWithAffinityNodes() []*NodeInfo {
	v.affinityOnce.Do(v.affinityLists)
	return v.withAffinity
}

// HavePodsWithRequiredAntiAffinityNodes returns the nodes with at least
// one pod with required anti-affinity, in the order of Nodes.
func (v *View) HavePodsWithRequiredAntiAffinityNodes() []*NodeInfo {
	v.affinityOnce.Do(v.affinityLists)
	return v.withRequiredAnti
}

func (v *View) affinityLists() {
	v.nodes.each(func(_ int, ni *NodeInfo) {
		if len(ni.PodsWithAffinity) > 0 {
			v.withAffinity = append(v.withAffinity, ni)
		}
		if len(ni.PodsWithRequiredAntiAffinity) > 0 {
			v.withRequiredAnti = append(v.withRequiredAnti, ni)
		}
	})
}
