package cluster

import (
	"slices"

	"github.com/schedkit/schedkit/api"
)

// The labels ZoneKey reads: the deprecated beta labels win whenever they
// are present, even with an empty value.
const (
	labelZoneBeta   = "failure-domain.beta.kubernetes.io/zone"
	labelZone       = "topology.kubernetes.io/zone"
	labelRegionBeta = "failure-domain.beta.kubernetes.io/region"
	labelRegion     = "topology.kubernetes.io/region"
)

// ZoneKey returns the key kube-scheduler groups a node under when it
// orders nodes (component-helpers' GetZoneKey): the region and zone,
// each read from the failure-domain.beta.kubernetes.io label if the node
// has it and from the topology.kubernetes.io label otherwise, joined as
// region + ":\x00:" + zone; "" when both are empty. A nil node has key "".
func ZoneKey(node *api.Node) string {
	region, zone := zoneLabels(node)
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// zoneLabels returns the region and zone ZoneKey joins.
func zoneLabels(node *api.Node) (region, zone string) {
	if node == nil {
		return "", ""
	}
	zone, ok := node.Labels[labelZoneBeta]
	if !ok {
		zone = node.Labels[labelZone]
	}
	region, ok = node.Labels[labelRegionBeta]
	if !ok {
		region = node.Labels[labelRegion]
	}
	return region, zone
}

// zoneTree is the scheduler cache's grouping of node names by zone key:
// the zones in the order their first (remaining) node arrived, the names
// of each zone in arrival order. It belongs to the writer alone.
type zoneTree struct {
	zones  []string
	byZone map[string][]string
	n      int
	// keys interns the zone keys by region and zone, so that only the
	// first node of a zone pays for building its key.
	keys map[[2]string]string
}

// key returns ZoneKey(node).
func (t *zoneTree) key(node *api.Node) string {
	region, zone := zoneLabels(node)
	if region == "" && zone == "" {
		return ""
	}
	k, ok := t.keys[[2]string{region, zone}]
	if !ok {
		if t.keys == nil {
			t.keys = make(map[[2]string]string)
		}
		k = region + ":\x00:" + zone
		t.keys[[2]string{region, zone}] = k
	}
	return k
}

// add appends a node to its zone, opening the zone at the end if new.
func (t *zoneTree) add(zone, name string) {
	if t.byZone == nil {
		t.byZone = make(map[string][]string)
	}
	names, ok := t.byZone[zone]
	if !ok {
		t.zones = append(t.zones, zone)
	}
	t.byZone[zone] = append(names, name)
	t.n++
}

// remove takes a node out of its zone, keeping the others' order, and
// drops the zone once it is empty.
func (t *zoneTree) remove(zone, name string) {
	names := t.byZone[zone]
	i := slices.Index(names, name)
	if i < 0 {
		panic("cluster: zone tree out of sync: no node " + name)
	}
	names = slices.Delete(names, i, i+1)
	t.n--
	if len(names) > 0 {
		t.byZone[zone] = names
		return
	}
	delete(t.byZone, zone)
	z := slices.Index(t.zones, zone)
	t.zones = slices.Delete(t.zones, z, z+1)
}

// all yields the names round-robin over the zones: the first node of
// every zone in zone order, then the second of every zone that has one,
// and so on.
func (t *zoneTree) all(yield func(string) bool) {
	left := t.n
	for round := 0; left > 0; round++ {
		for _, z := range t.zones {
			if names := t.byZone[z]; round < len(names) {
				if !yield(names[round]) {
					return
				}
				left--
			}
		}
	}
}

// noteMembership records that a node was added (in) or removed (!in):
// setDiff counts the names whose presence differs from the last view.
func (s *Snapshot) noteMembership(name string, in bool) {
	shown := false
	if s.last != nil {
		_, shown = s.last.index[name]
	}
	if shown == in {
		s.setDiff--
	} else {
		s.setDiff++
	}
	s.relayout = true
}

// arrange puts the nodes, before a view is made, in the order
// kube-scheduler lists them. Its cache rebuilds the snapshot's node list
// from the zone tree only when the set of node names differs from the
// previous snapshot's, so a view does likewise and otherwise keeps the
// last view's order (a node removed and added back, or moved to another
// zone, since then stays where it was). Nodes are swapped into place;
// the topology domains are rebuilt if any node moved.
func (s *Snapshot) arrange() {
	if !s.relayout {
		return
	}
	s.relayout = false
	order := s.tree.all
	if s.setDiff == 0 && s.last != nil {
		order = func(yield func(string) bool) {
			last := &s.last.nodes
			for i := range last.len() {
				if !yield(last.at(i).node.Name) {
					return
				}
			}
		}
	}
	s.setDiff = 0
	moved := false
	k := 0
	for name := range order {
		j, ok := s.index[name]
		if !ok {
			panic("cluster: node order out of sync: no node " + name)
		}
		if j != k {
			if !moved {
				moved = true
				s.ownIndex()
				s.restartLog()
			}
			other := s.nodes.at(k)
			s.nodes.set(k, s.nodes.at(j), s.epoch)
			s.nodes.set(j, other, s.epoch)
			s.index[name] = k
			s.index[other.node.Name] = j
		}
		k++
	}
	if k != s.nodes.len() {
		panic("cluster: node order out of sync")
	}
	if moved {
		for key := range s.topo {
			s.topo[key] = buildDomainsVec(&s.nodes, key)
		}
	}
}
