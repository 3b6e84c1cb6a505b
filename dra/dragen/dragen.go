package dragen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/quantity"
)

// Drivers are the drivers of generated slices and classes.
var Drivers = []string{"driver-a", "driver-b"}

// Classes are the generated classes: one per driver, one for any
// device, one for devices that allow multiple allocations.
var Classes = []string{"class-a", "class-b", "class-any", "class-multi"}

// World is a small cluster of DRA objects and the claims of one pod.
type World struct {
	// Nodes are the candidate nodes.
	Nodes []*api.Node
	// Classes are the DeviceClasses.
	Classes []*api.DeviceClass
	// Slices are the ResourceSlices.
	Slices []*api.ResourceSlice
	// TaintRules are the DeviceTaintRules.
	TaintRules []*api.DeviceTaintRule
	// Allocated are claims other pods hold.
	Allocated []*api.ResourceClaim
	// Claims are the pod's claims to allocate.
	Claims []*api.ResourceClaim
}

// Input is the allocator's input for the world with the given compiler.
func (w World) Input(c dra.Compiler) dra.Input {
	return dra.Input{
		Claims: w.Claims, Classes: w.Classes, Slices: w.Slices, TaintRules: w.TaintRules,
		Allocated: dra.NewAllocatedState(w.Allocated), Compiler: c,
		NewShareID: func() string { return "00000000-0000-4000-8000-000000000000" },
	}
}

func ptr[T any](v T) *T { return &v }

func oneOf[T any](t *rapid.T, label string, xs ...T) T {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(t, label)]
}

// chance is true with about the given percentage. rapid favours small
// values, so the rare outcome is drawn from the top of the range.
func chance(t *rapid.T, label string, percent int) bool {
	return rapid.IntRange(0, 99).Draw(t, label) >= 100-percent
}

// Nodes draws two or three nodes, node-1 and up, labelled with a region.
func Nodes() *rapid.Generator[[]*api.Node] {
	return rapid.Custom(func(t *rapid.T) []*api.Node {
		n := rapid.IntRange(2, 3).Draw(t, "nodes")
		out := make([]*api.Node, n)
		for i := range out {
			out[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("node-%d", i+1),
				Labels: map[string]string{"region": oneOf(t, "region", "r1", "r2")}}}
		}
		return out
	})
}

// DeviceClasses returns the four generated classes.
func DeviceClasses() []*api.DeviceClass {
	sel := func(expr string) []api.DeviceSelector {
		return []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: expr}}}
	}
	return []*api.DeviceClass{
		{ObjectMeta: api.ObjectMeta{Name: "class-a"}, Spec: api.DeviceClassSpec{Selectors: sel(`device.driver == "driver-a"`)}},
		{ObjectMeta: api.ObjectMeta{Name: "class-b"}, Spec: api.DeviceClassSpec{Selectors: sel(`device.driver == "driver-b"`),
			Config: []api.DeviceClassConfiguration{{DeviceConfiguration: api.DeviceConfiguration{Opaque: &api.OpaqueDeviceConfiguration{Driver: "driver-b", Parameters: []byte(`{"b":1}`)}}}}}},
		{ObjectMeta: api.ObjectMeta{Name: "class-any"}, Spec: api.DeviceClassSpec{Selectors: sel(`true`)}},
		{ObjectMeta: api.ObjectMeta{Name: "class-multi"}, Spec: api.DeviceClassSpec{Selectors: sel(`device.allowMultipleAllocations == true`)}},
	}
}

// nodeSelection sets one of the four node selections on a slice or, with
// perDevice, on a device.
func nodeSelection(t *rapid.T, nodes []*api.Node, label string, allowPerDevice bool) (name *string, all *bool, sel *api.NodeSelector, perDevice bool) {
	max := 2
	if allowPerDevice {
		max = 3
	}
	switch rapid.IntRange(0, max).Draw(t, label) {
	case 0:
		return ptr(oneOf(t, label+"-node", nodes...).Name), nil, nil, false
	case 1:
		return nil, ptr(true), nil, false
	case 2:
		req := api.NodeSelectorRequirement{Key: "region", Operator: api.NodeSelectorOpIn, Values: []string{oneOf(t, label+"-region", "r1", "r2")}}
		if label != "device-nodes" && chance(t, label+"-gt", 3) {
			// Valid for the API server, an error when matched: Gt needs
			// an integer.
			req.Operator = api.NodeSelectorOpGt
		}
		return nil, nil, &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{req}}}}, false
	}
	return nil, nil, nil, true
}

var (
	one      = quantity.MustParse("1")
	two      = quantity.MustParse("2")
	half     = quantity.MustParse("500m")
	taintSet = []api.DeviceTaint{
		{Key: "k", Value: "v", Effect: api.DeviceTaintEffectNoSchedule},
		{Key: "k", Value: "w", Effect: api.DeviceTaintEffectNoExecute},
		{Key: "k", Value: "v", Effect: api.DeviceTaintEffectNone},
	}
)

func device(t *rapid.T, name string, counters bool, perDevice bool, nodes []*api.Node) api.Device {
	d := api.Device{Name: name, Attributes: map[api.QualifiedName]api.DeviceAttribute{}}
	if !chance(t, "no-model", 10) {
		d.Attributes["model"] = api.DeviceAttribute{StringValue: ptr(oneOf(t, "model", "a", "b"))}
	}
	d.Attributes["numa"] = api.DeviceAttribute{IntValue: ptr(int64(rapid.IntRange(0, 1).Draw(t, "numa")))}
	capv := quantity.NewQuantity(int64(oneOf(t, "mem", 1, 2, 4)), quantity.DecimalSI)
	c := api.DeviceCapacity{Value: capv}
	if chance(t, "multi", 30) {
		d.AllowMultipleAllocations = ptr(true)
		switch rapid.IntRange(0, 3).Draw(t, "policy") {
		case 1:
			c.RequestPolicy = &api.CapacityRequestPolicy{Default: ptr(one), ValidRange: &api.CapacityRequestPolicyRange{Min: ptr(one), Max: ptr(capv), Step: ptr(one)}}
		case 2:
			vv := []quantity.Quantity{one}
			if capv.Cmp(two) >= 0 {
				vv = append(vv, two)
			}
			c.RequestPolicy = &api.CapacityRequestPolicy{Default: ptr(one), ValidValues: vv}
		case 3:
			c.RequestPolicy = &api.CapacityRequestPolicy{Default: ptr(half), ValidRange: &api.CapacityRequestPolicyRange{Min: ptr(half), Max: ptr(capv), Step: ptr(half)}}
		}
	}
	d.Capacity = map[api.QualifiedName]api.DeviceCapacity{"mem": c}
	if counters && chance(t, "consumes", 70) {
		d.ConsumesCounters = []api.DeviceCounterConsumption{{CounterSet: "cs",
			Counters: map[string]api.Counter{"c": {Value: quantity.NewQuantity(int64(rapid.IntRange(1, 2).Draw(t, "consume")), quantity.DecimalSI)}}}}
	}
	if chance(t, "tainted", 20) {
		d.Taints = []api.DeviceTaint{oneOf(t, "taint", taintSet...)}
	}
	if chance(t, "binding", 10) {
		d.BindingConditions, d.BindingFailureConditions = []string{"ready"}, []string{"failed"}
	}
	if chance(t, "binds", 10) {
		d.BindsToNode = ptr(true)
	}
	if perDevice {
		d.NodeName, d.AllNodes, d.NodeSelector, _ = nodeSelection(t, nodes, "device-nodes", false)
	}
	return d
}

// Slices draws one to three pools of one or two device slices, some with
// a counter slice, some incomplete, some with an older generation's
// slice or duplicate device names.
func Slices(nodes []*api.Node) *rapid.Generator[[]*api.ResourceSlice] {
	return rapid.Custom(func(t *rapid.T) []*api.ResourceSlice {
		var out []*api.ResourceSlice
		npools := rapid.IntRange(1, 3).Draw(t, "pools")
		for p := range npools {
			driver := oneOf(t, "driver", Drivers...)
			pool := fmt.Sprintf("pool-%d", p)
			counters := chance(t, "counters", 30)
			var slices []*api.ResourceSlice
			ndev := 0
			for s := range rapid.IntRange(1, 2).Draw(t, "slices") {
				sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s-%s-s%d", driver, pool, s)},
					Spec: api.ResourceSliceSpec{Driver: driver, Pool: api.ResourcePool{Name: pool, Generation: 1}}}
				var per bool
				sl.Spec.NodeName, sl.Spec.AllNodes, sl.Spec.NodeSelector, per = nodeSelection(t, nodes, "slice-nodes", true)
				if per {
					sl.Spec.PerDeviceNodeSelection = ptr(true)
				}
				for range rapid.IntRange(1, 3).Draw(t, "devices") {
					name := fmt.Sprintf("dev-%d", ndev)
					if ndev > 0 && chance(t, "duplicate", 1) {
						name = fmt.Sprintf("dev-%d", ndev-1)
					}
					ndev++
					sl.Spec.Devices = append(sl.Spec.Devices, device(t, name, counters, per, nodes))
				}
				slices = append(slices, sl)
			}
			if counters {
				cs := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s-%s-counters", driver, pool)},
					Spec: api.ResourceSliceSpec{Driver: driver, Pool: api.ResourcePool{Name: pool, Generation: 1},
						SharedCounters: []api.CounterSet{{Name: "cs", Counters: map[string]api.Counter{
							"c": {Value: quantity.NewQuantity(int64(rapid.IntRange(1, 4).Draw(t, "counter")), quantity.DecimalSI)}}}}}}
				cs.Spec.NodeName, cs.Spec.AllNodes, cs.Spec.NodeSelector, _ = nodeSelection(t, nodes, "counter-nodes", false)
				slices = append(slices, cs)
			}
			count := int64(len(slices))
			if chance(t, "incomplete", 4) {
				count++
			}
			for _, s := range slices {
				s.Spec.Pool.ResourceSliceCount = count
			}
			if chance(t, "old-generation", 10) {
				old := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s-%s-old", driver, pool)},
					Spec: api.ResourceSliceSpec{Driver: driver, Pool: api.ResourcePool{Name: pool, ResourceSliceCount: 1}, AllNodes: ptr(true),
						Devices: []api.Device{device(t, "old-dev", false, false, nodes)}}}
				slices = append(slices, old)
			}
			out = append(out, slices...)
		}
		return rapid.Permutation(out).Draw(t, "slice-order")
	})
}

// TaintRules draws up to two rules, some without a selector.
func TaintRules(slices []*api.ResourceSlice) *rapid.Generator[[]*api.DeviceTaintRule] {
	return rapid.Custom(func(t *rapid.T) []*api.DeviceTaintRule {
		var out []*api.DeviceTaintRule
		for i := range rapid.IntRange(0, 2).Draw(t, "rules") {
			r := &api.DeviceTaintRule{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("rule-%d", i)},
				Spec: api.DeviceTaintRuleSpec{Taint: oneOf(t, "rule-taint", taintSet...)}}
			if len(slices) > 0 {
				s := oneOf(t, "rule-slice", slices...)
				switch rapid.IntRange(0, 3).Draw(t, "rule-selector") {
				case 1:
					r.Spec.DeviceSelector = &api.DeviceTaintSelector{Driver: ptr(s.Spec.Driver)}
				case 2:
					r.Spec.DeviceSelector = &api.DeviceTaintSelector{Driver: ptr(s.Spec.Driver), Pool: ptr(s.Spec.Pool.Name)}
				case 3:
					r.Spec.DeviceSelector = &api.DeviceTaintSelector{Pool: ptr(s.Spec.Pool.Name), Device: ptr("dev-0")}
				}
			}
			out = append(out, r)
		}
		return out
	})
}

type subRequest struct {
	class string
	mode  api.DeviceAllocationMode
	count int64
	sels  []api.DeviceSelector
	tols  []api.DeviceToleration
	cap   *api.CapacityRequirements
}

func drawSub(t *rapid.T) subRequest {
	r := subRequest{class: oneOf(t, "class", Classes...), mode: api.DeviceAllocationModeExactCount, count: int64(rapid.IntRange(1, 2).Draw(t, "count"))}
	if chance(t, "all", 10) {
		r.mode, r.count = api.DeviceAllocationModeAll, 0
	}
	if chance(t, "selector", 25) {
		dom := "driver-a"
		if r.class == "class-b" {
			dom = "driver-b"
		}
		expr := fmt.Sprintf(`device.attributes["%s"].model == "a"`, dom)
		if r.class == "class-any" || r.class == "class-multi" || chance(t, "cap-selector", 50) {
			expr = `device.capacity["driver-a"].mem.compareTo(quantity("2")) >= 0`
			if r.class == "class-b" {
				expr = `device.capacity["driver-b"].mem.compareTo(quantity("2")) >= 0`
			}
		}
		if r.class == "class-any" || r.class == "class-multi" {
			expr = `device.driver == "driver-a" || device.driver == "driver-b"`
		}
		r.sels = []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: expr}}}
	}
	if chance(t, "tolerates", 25) {
		r.tols = []api.DeviceToleration{oneOf(t, "toleration",
			api.DeviceToleration{Key: "k", Operator: api.DeviceTolerationOpExists},
			api.DeviceToleration{Key: "k", Operator: api.DeviceTolerationOpEqual, Value: "v", Effect: api.DeviceTaintEffectNoSchedule},
			api.DeviceToleration{Operator: api.DeviceTolerationOpExists, Effect: api.DeviceTaintEffectNoExecute})}
	}
	if chance(t, "capacity", 25) {
		r.cap = &api.CapacityRequirements{Requests: map[api.QualifiedName]quantity.Quantity{"mem": oneOf(t, "cap", one, two, half)}}
	}
	return r
}

// Claims draws one or two claims of one or two requests each, exact or
// prioritized lists, some with constraints and config.
func Claims(prefix string) *rapid.Generator[[]*api.ResourceClaim] {
	return rapid.Custom(func(t *rapid.T) []*api.ResourceClaim {
		var out []*api.ResourceClaim
		for c := range rapid.IntRange(1, 2).Draw(t, "claims") {
			cl := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("%s-%d", prefix, c), Namespace: "ns"}}
			nreq := rapid.IntRange(1, 2).Draw(t, "requests")
			for r := range nreq {
				req := api.DeviceRequest{Name: fmt.Sprintf("req-%d", r)}
				if chance(t, "first-available", 30) {
					for s := range 2 {
						sr := drawSub(t)
						req.FirstAvailable = append(req.FirstAvailable, api.DeviceSubRequest{Name: fmt.Sprintf("sub-%d", s),
							DeviceClassName: sr.class, AllocationMode: sr.mode, Count: sr.count, Selectors: sr.sels, Tolerations: sr.tols, Capacity: sr.cap})
					}
				} else {
					sr := drawSub(t)
					x := &api.ExactDeviceRequest{DeviceClassName: sr.class, AllocationMode: sr.mode, Count: sr.count, Selectors: sr.sels, Tolerations: sr.tols, Capacity: sr.cap}
					if chance(t, "admin", 10) {
						x.AdminAccess = ptr(true)
					}
					req.Exactly = x
				}
				cl.Spec.Devices.Requests = append(cl.Spec.Devices.Requests, req)
			}
			if chance(t, "constraint", 25) {
				con := api.DeviceConstraint{}
				if chance(t, "constraint-scoped", 50) {
					con.Requests = []string{"req-0"}
				}
				attr := api.FullyQualifiedName(oneOf(t, "constraint-attr", "driver-a/model", "driver-b/model", "driver-a/numa"))
				if chance(t, "distinct", 40) {
					con.DistinctAttribute = &attr
				} else {
					con.MatchAttribute = &attr
				}
				cl.Spec.Devices.Constraints = []api.DeviceConstraint{con}
			}
			if chance(t, "config", 20) {
				cl.Spec.Devices.Config = []api.DeviceClaimConfiguration{{Requests: []string{"req-0"},
					DeviceConfiguration: api.DeviceConfiguration{Opaque: &api.OpaqueDeviceConfiguration{Driver: "driver-a", Parameters: []byte(`{"a":1}`)}}}}
			}
			out = append(out, cl)
		}
		return out
	})
}

// Allocated draws up to two claims that hold devices of the slices: a
// device outright, a share of a multi-allocation device with consumed
// capacity, or admin access.
func Allocated(slices []*api.ResourceSlice) *rapid.Generator[[]*api.ResourceClaim] {
	return rapid.Custom(func(t *rapid.T) []*api.ResourceClaim {
		type dev struct {
			s *api.ResourceSlice
			d *api.Device
		}
		var devs []dev
		for _, s := range slices {
			for i := range s.Spec.Devices {
				devs = append(devs, dev{s, &s.Spec.Devices[i]})
			}
		}
		n := rapid.IntRange(0, 2).Draw(t, "allocated")
		if len(devs) == 0 {
			return nil
		}
		var out []*api.ResourceClaim
		for c := range n {
			cl := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("held-%d", c), Namespace: "ns"}}
			alloc := &api.AllocationResult{}
			for r := range rapid.IntRange(1, 2).Draw(t, "held-devices") {
				d := oneOf(t, "held", devs...)
				res := api.DeviceRequestAllocationResult{Request: fmt.Sprintf("req-%d", r), Driver: d.s.Spec.Driver, Pool: d.s.Spec.Pool.Name, Device: d.d.Name}
				switch {
				case d.d.AllowMultipleAllocations != nil && *d.d.AllowMultipleAllocations:
					res.ShareID = ptr(fmt.Sprintf("11111111-1111-4111-8111-%012d", c*10+r))
					res.ConsumedCapacity = map[api.QualifiedName]quantity.Quantity{"mem": one}
				case chance(t, "held-admin", 15):
					res.AdminAccess = ptr(true)
				}
				alloc.Devices.Results = append(alloc.Devices.Results, res)
			}
			cl.Status.Allocation = alloc
			out = append(out, cl)
		}
		return out
	})
}

// WorldGen draws a whole world.
func WorldGen() *rapid.Generator[World] {
	return rapid.Custom(func(t *rapid.T) World {
		nodes := Nodes().Draw(t, "nodes")
		slices := Slices(nodes).Draw(t, "slices")
		return World{
			Nodes:      nodes,
			Classes:    DeviceClasses(),
			Slices:     slices,
			TaintRules: TaintRules(slices).Draw(t, "taint-rules"),
			Allocated:  Allocated(slices).Draw(t, "allocated"),
			Claims:     Claims("claim").Draw(t, "claims"),
		}
	})
}
