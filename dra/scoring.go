package dra

import (
	"context"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// ClassDevices counts a DeviceClass's devices on a node for the scoring
// of an extended resource the class backs, as upstream's
// calculateDRAResourceTotals for NodeResourcesFit and
// NodeResourcesBalancedAllocation. Build one per pod and class with
// NewClassDevices; Totals is safe for concurrent use.
//
// Upstream counts differently from the allocator: every slice of the
// node counts, whatever its pool's generation or completeness; device
// taints do not matter; the class's selectors see the device without
// allowMultipleAllocations; and a device is in use when any claim holds
// it or a share of it.
type ClassDevices struct {
	class *api.DeviceClass
	sels  []Selector
	// compileErr is the first selector that did not compile: every
	// node with a device then totals zero, as upstream's error does.
	compileErr error
	inUse      map[DeviceID]struct{}
	// global are the slices without a node name.
	global []*api.ResourceSlice
	sel    map[*api.ResourceSlice]*affinity.NodeSelector
}

// NewClassDevices compiles the class's selectors and collects the
// devices allocated, held or shared. global are the slices without
// spec.nodeName (cluster.ResourceSlicesOnNode with node "").
func NewClassDevices(class *api.DeviceClass, c Compiler, allocated *AllocatedState, global []*api.ResourceSlice) *ClassDevices {
	cd := &ClassDevices{class: class, inUse: map[DeviceID]struct{}{}, global: global, sel: map[*api.ResourceSlice]*affinity.NodeSelector{}}
	for _, s := range class.Spec.Selectors {
		if s.CEL == nil {
			continue
		}
		sel, err := c.Compile(s.CEL.Expression)
		if err != nil {
			cd.compileErr = err
			break
		}
		cd.sels = append(cd.sels, sel)
	}
	if allocated != nil {
		for id := range allocated.Devices {
			cd.inUse[id] = struct{}{}
		}
		for id := range allocated.SharedDevices {
			cd.inUse[id.DeviceID] = struct{}{}
		}
		for id := range allocated.Capacity {
			cd.inUse[id] = struct{}{}
		}
	}
	for _, s := range global {
		if s.Spec.NodeSelector != nil {
			ns, err := affinity.NewNodeSelector(s.Spec.NodeSelector)
			if err == nil {
				cd.sel[s] = ns
			}
		}
	}
	return cd
}

// Totals returns how many devices of the class the node's slices (own,
// given as local) and the global ones offer, and how many of those are
// in use. An error (a node selector or CEL selector that fails) totals
// zero, as upstream logs it and scores the resource as absent.
func (cd *ClassDevices) Totals(ctx context.Context, node *api.Node, local []*api.ResourceSlice) (capacity, inUse int64) {
	for _, group := range [2][]*api.ResourceSlice{local, cd.global} {
		for _, s := range group {
			c, u, err := cd.sliceTotals(ctx, node, s)
			if err != nil {
				return 0, 0
			}
			capacity += c
			inUse += u
		}
	}
	return capacity, inUse
}

func (cd *ClassDevices) sliceTotals(ctx context.Context, node *api.Node, s *api.ResourceSlice) (capacity, inUse int64, err error) {
	perDevice := deref(s.Spec.PerDeviceNodeSelection)
	switch {
	case perDevice:
	case deref(s.Spec.AllNodes):
	case s.Spec.NodeName != nil && *s.Spec.NodeName != "":
		if *s.Spec.NodeName != node.Name {
			return 0, 0, nil
		}
	case s.Spec.NodeSelector != nil:
		ns, ok := cd.sel[s]
		if !ok {
			_, err := affinity.NewNodeSelector(s.Spec.NodeSelector)
			return 0, 0, err
		}
		if m, _ := ns.Match(node); !m {
			return 0, 0, nil
		}
	}
	for i := range s.Spec.Devices {
		d := &s.Spec.Devices[i]
		if perDevice {
			ok, err := deviceOnNode(node, d)
			if err != nil {
				return 0, 0, err
			}
			if !ok {
				continue
			}
		}
		ok, err := cd.matches(ctx, s.Spec.Driver, d)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			continue
		}
		capacity++
		if _, held := cd.inUse[DeviceID{s.Spec.Driver, s.Spec.Pool.Name, d.Name}]; held {
			inUse++
		}
	}
	return capacity, inUse, nil
}

// deviceOnNode is the per-device node selection of upstream's scoring:
// allNodes or the node's name, else the device's node selector.
func deviceOnNode(node *api.Node, d *api.Device) (bool, error) {
	name := deref(d.NodeName)
	if deref(d.AllNodes) || (name != "" && name == node.Name) {
		return true, nil
	}
	if d.NodeSelector == nil || name != "" {
		return false, nil
	}
	ns, err := affinity.NewNodeSelector(d.NodeSelector)
	if err != nil {
		return false, err
	}
	m, _ := ns.Match(node)
	return m, nil
}

// matches evaluates the class's selectors in order; the first false
// ends it.
func (cd *ClassDevices) matches(ctx context.Context, driver string, d *api.Device) (bool, error) {
	if len(cd.sels) == 0 && cd.compileErr == nil {
		return true, nil
	}
	// Upstream's scoring builds the CEL device without
	// allowMultipleAllocations.
	dev := *d
	dev.AllowMultipleAllocations = nil
	for _, sel := range cd.sels {
		ok, err := sel.Matches(ctx, driver, &dev)
		if err != nil || !ok {
			return false, err
		}
	}
	if cd.compileErr != nil {
		return false, cd.compileErr
	}
	return true, nil
}
