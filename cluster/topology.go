package cluster

import (
	"maps"
	"slices"
)

// domainIndex is the topology domains of one label key: label value →
// sorted node indexes. Once a view holds it, it is immutable; the writer
// copies it (ownDomain) and copies each list before changing it.
type domainIndex struct {
	domains map[string][]int
	// epoch is the snapshot epoch in which the writer owns the map;
	// owned are the lists it copied in that epoch.
	epoch uint64
	owned map[string]bool
}

func buildDomains(nodes []*NodeInfo, key string) *domainIndex {
	d := &domainIndex{domains: map[string][]int{}}
	for i, ni := range nodes {
		d.add(key, i, ni)
	}
	return d
}

// buildDomainsVec is buildDomains over a chunked list.
func buildDomainsVec(nodes *nodeVec, key string) *domainIndex {
	d := &domainIndex{domains: map[string][]int{}}
	nodes.each(func(i int, ni *NodeInfo) { d.add(key, i, ni) })
	return d
}

// add puts node i in the domain of its value of key, if it has one.
func (d *domainIndex) add(key string, i int, ni *NodeInfo) {
	if v, ok := ni.node.Labels[key]; ok {
		d.domains[v] = append(d.domains[v], i)
	}
}

// adoptDomains lets the snapshot keep a key's domains, computed by a
// view, up to date, if no node changed since the view was made.
func (s *Snapshot) adoptDomains(key string, d *domainIndex, nodeSet int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodeSet != nodeSet {
		return
	}
	if _, ok := s.topo[key]; ok {
		return
	}
	s.topo[key] = d
	if s.view != nil {
		s.view.mu.Lock()
		if _, ok := s.view.topo[key]; !ok {
			if s.view.topo == nil {
				s.view.topo = map[string]*domainIndex{}
			}
			s.view.topo[key] = d
		}
		s.view.mu.Unlock()
	}
}

// ownDomain returns the writer's own copy of the key's domains.
func (s *Snapshot) ownDomain(key string, d *domainIndex) *domainIndex {
	if d.epoch == s.epoch {
		return d
	}
	c := &domainIndex{domains: maps.Clone(d.domains), epoch: s.epoch, owned: map[string]bool{}}
	s.topo[key] = c
	return c
}

// list returns the writer's own copy of the value's list.
func (d *domainIndex) list(value string) []int {
	l := d.domains[value]
	if !d.owned[value] {
		l = slices.Clone(l)
		d.owned[value] = true
	}
	return l
}

// insert adds node index i to the value's domain, keeping it sorted.
func (d *domainIndex) insert(value string, i int) {
	l := d.list(value)
	j, _ := slices.BinarySearch(l, i)
	d.domains[value] = slices.Insert(l, j, i)
}

// remove takes node index i out of the value's domain, dropping the
// domain when it empties.
func (d *domainIndex) remove(value string, i int) {
	l := d.list(value)
	if j, ok := slices.BinarySearch(l, i); ok {
		l = slices.Delete(l, j, j+1)
	}
	if len(l) == 0 {
		delete(d.domains, value)
		delete(d.owned, value)
		return
	}
	d.domains[value] = l
}
