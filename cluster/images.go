package cluster

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// ImageKey is an image name prepared for NodeInfo.LookupImage, which
// looks it up faster than a map can when it is looked up on many nodes:
// the name's hash is computed once, here, and a node compares hashes
// before names.
type ImageKey struct {
	name string
	hash uint64
}

// NewImageKey returns the key of an image name as ImageStates holds it
// (use NormalizedImageName for a container's image).
func NewImageKey(name string) ImageKey { return ImageKey{name: name, hash: imageHash(name)} }

// Name returns the image name.
func (k ImageKey) Name() string { return k.name }

// imageHash is 64-bit FNV-1a: fixed, so that no seed is needed, and
// cheap for short strings; a match is confirmed by comparing names.
func imageHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// imageIndex lists the entries of one ImageStates map by name hash. It
// is set with the map (setImageStates) and shared with it: nodes that
// share a map share its index.
type imageIndex struct {
	// of identifies the map indexed (reflect's Value.Pointer of it): the
	// index serves a NodeInfo only while its ImageStates is that map (a
	// caller may replace the map of a NodeInfo of its own).
	of uintptr
	// sealed is set for the index of a snapshot's nodes, which are
	// immutable (Snapshot.Nodes): their ImageStates is never replaced
	// but by the snapshot, with its index, so LookupImage need not check.
	sealed  bool
	entries []imageEntry
}

// newSealedImageIndex is newImageIndex for the map of a snapshot's nodes.
func newSealedImageIndex(m map[string]*ImageStateSummary) *imageIndex {
	x := newImageIndex(m)
	if x != nil {
		x.sealed = true
	}
	return x
}

// mapID identifies a map: two map values with the same ID are the same
// map.
func mapID(m map[string]*ImageStateSummary) uintptr { return reflect.ValueOf(m).Pointer() }

type imageEntry struct {
	hash  uint64
	name  string
	state *ImageStateSummary
}

// newImageIndex indexes m; nil for an empty map.
func newImageIndex(m map[string]*ImageStateSummary) *imageIndex {
	if len(m) == 0 {
		return nil
	}
	x := &imageIndex{of: mapID(m), entries: make([]imageEntry, 0, len(m))}
	for name, st := range m {
		x.entries = append(x.entries, imageEntry{imageHash(name), name, st})
	}
	slices.SortFunc(x.entries, func(a, b imageEntry) int {
		if c := cmp.Compare(a.hash, b.hash); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return x
}

// SharesImages reports whether n and o have the same image map (a
// snapshot gives nodes that report the same images one map and index):
// their image states, and so their ImageLocality scores, are then the
// same. False means they may or may not be the same.
func (n *NodeInfo) SharesImages(o *NodeInfo) bool {
	x := n.images
	return x != nil && x == o.images && (x.sealed || x.of == mapID(n.ImageStates) && x.of == mapID(o.ImageStates))
}

// LookupImage returns ImageStates[k.Name()], as a map lookup would, in
// fewer steps when the node's images were set by schedkit (NewNodeInfo,
// SetNode, a Snapshot, Clone).
func (n *NodeInfo) LookupImage(k ImageKey) (*ImageStateSummary, bool) {
	x := n.images
	if x == nil || !x.sealed && x.of != mapID(n.ImageStates) {
		st, ok := n.ImageStates[k.name]
		return st, ok
	}
	return x.lookup(k)
}

// LookupImageNodes is LookupImage(k) on each node: it sets states[i] to
// the state of k on nodes[i], nil where the node does not have it (or
// maps it to nil), for i below len(nodes) (states is at least as long).
// It is for a caller looking one image up on many nodes, such as the
// ImageLocality plugin: a node with the same index as the one before it
// (a snapshot gives the nodes that report the same images one) is not
// searched again.
func LookupImageNodes(nodes []*NodeInfo, k ImageKey, states []*ImageStateSummary) {
	states = states[:len(nodes)]
	var last *imageIndex
	var lastState *ImageStateSummary
	for i, n := range nodes {
		x := n.images
		if x == nil || !x.sealed {
			states[i], _ = n.LookupImage(k)
			continue
		}
		if x != last {
			last = x
			lastState, _ = x.lookup(k)
		}
		states[i] = lastState
	}
}

// lookup returns the state of k in the index and whether it has one.
func (x *imageIndex) lookup(k ImageKey) (*ImageStateSummary, bool) {
	es := x.entries
	if len(es) <= 8 {
		// A short list is scanned: no branch to mispredict per step.
		for i := range es {
			if es[i].hash == k.hash && es[i].name == k.name {
				return es[i].state, true
			}
		}
		return nil, false
	}
	lo, hi := 0, len(es)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if es[m].hash < k.hash {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for ; lo < len(es) && es[lo].hash == k.hash; lo++ {
		if es[lo].name == k.name {
			return es[lo].state, true
		}
	}
	return nil, false
}

// setImageStates sets the node's image map and its index.
func (n *NodeInfo) setImageStates(m map[string]*ImageStateSummary, x *imageIndex) {
	n.ImageStates, n.images = m, x
}
