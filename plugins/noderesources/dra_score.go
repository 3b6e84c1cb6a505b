package noderesources

import (
	"context"
	"sync"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// draScoring scores the extended resources DRA backs (DRAExtendedResource,
// GA and locked on in v1.37.2): on a node with none of such a resource
// allocatable, NodeResourcesFit and NodeResourcesBalancedAllocation
// score the devices of the class behind it, as upstream's
// calculateDRAExtendedResourceAllocatableRequest: the class's devices on
// the node as allocatable, those in use as allocated. It is shared by
// both plugins; a nil one never asks DRA.
type draScoring struct {
	h framework.Handle
	// scored are the indexes of the scored resources a DeviceClass may
	// back; none means the plugin never asks DRA.
	scored []int
	names  []api.ResourceName

	once     sync.Once
	compiler dra.Compiler
	err      error
}

func newDRAScoring(h framework.Handle, resources []api.ResourceName) *draScoring {
	d := &draScoring{h: h, names: resources}
	for i, n := range resources {
		if dra.IsDRAExtendedResourceName(n) {
			d.scored = append(d.scored, i)
		}
	}
	return d
}

// celCompiler returns the CEL compiler DynamicResources shares through
// the handle, built on first use.
func (d *draScoring) celCompiler() (dra.Compiler, error) {
	d.once.Do(func() {
		build := func() (any, error) { return cel.NewCompiler(0) }
		var made any
		if sh, ok := d.h.(framework.SharedValues); ok {
			made, d.err = sh.Shared("dynamicresources/cel.Compiler", build)
		} else {
			made, d.err = build()
		}
		if d.err == nil {
			d.compiler = dra.CELCompiler(made.(*cel.Compiler))
		}
	})
	return d.compiler, d.err
}

// draScore is one pod's DRA side of scoring: per scored resource, the
// devices of the class backing it (nil if none does).
type draScore struct {
	o       *cluster.Objects
	classes []*dra.ClassDevices
}

// forPod returns the pod's DRA scoring state, nil when no scored
// resource is backed by a DeviceClass (upstream's getDRAPreScoredParams
// returning nothing), which costs one check for the default profile.
func (d *draScoring) forPod() (*draScore, *framework.Status) {
	if d == nil || len(d.scored) == 0 || d.h == nil || d.h.Snapshot() == nil {
		return nil, nil
	}
	o := d.h.Snapshot().Objects()
	if o.Len(cluster.KindDeviceClass) == 0 {
		return nil, nil
	}
	var classes []*api.DeviceClass
	for c := range cluster.AllObjects[api.DeviceClass](o) {
		classes = append(classes, c)
	}
	mapped := dra.ExtendedResourceClasses(classes)
	backed := false
	for _, i := range d.scored {
		if mapped[d.names[i]] != nil {
			backed = true
		}
	}
	if !backed {
		return nil, nil
	}
	c, err := d.celCompiler()
	if err != nil {
		return nil, framework.AsStatus(err)
	}
	var allocated []*api.ResourceClaim
	for cl := range cluster.AllObjects[api.ResourceClaim](o) {
		if cl.Status.Allocation != nil {
			allocated = append(allocated, cl)
		}
	}
	state := dra.NewAllocatedState(allocated)
	global := cluster.ResourceSlicesOnNode(o, "")
	s := &draScore{o: o, classes: make([]*dra.ClassDevices, len(d.names))}
	for _, i := range d.scored {
		if class := mapped[d.names[i]]; class != nil {
			s.classes[i] = dra.NewClassDevices(class, c, state, global)
		}
	}
	return s, nil
}

// amounts is the state as priorities.ExtendedAmounts; nil for a nil
// state.
func (s *draScore) amounts() priorities.ExtendedAmounts {
	if s == nil {
		return nil
	}
	return func(i int, ni *cluster.NodeInfo) (int64, int64) {
		cd := s.classes[i]
		if cd == nil || ni.Node() == nil {
			return 0, 0
		}
		node := ni.Node()
		return cd.Totals(context.Background(), node, cluster.ResourceSlicesOnNode(s.o, node.Name))
	}
}
