package dra_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
	"github.com/schedkit/schedkit/quantity"
)

// smallWorld is a single node's worth of devices: node-local pools of one
// driver, one with a shared counter, and one or two claims. It is small
// enough to try every assignment of devices to requests.
type smallWorld struct {
	node      *api.Node
	classes   []*api.DeviceClass
	slices    []*api.ResourceSlice
	allocated []*api.ResourceClaim
	claims    []*api.ResourceClaim
}

func pick[T any](t *rapid.T, label string, xs ...T) T {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(t, label)]
}

func drawSmallWorld(t *rapid.T) smallWorld {
	w := smallWorld{node: &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}}
	w.classes = []*api.DeviceClass{{ObjectMeta: api.ObjectMeta{Name: "class-a"}, Spec: api.DeviceClassSpec{
		Selectors: []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: `device.driver == "driver-a"`}}}}}}
	ndev := 0
	for p := range rapid.IntRange(1, 2).Draw(t, "pools") {
		counters := p == 0 && rapid.Bool().Draw(t, "counters")
		s := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("s%d", p)}, Spec: api.ResourceSliceSpec{
			Driver: "driver-a", Pool: api.ResourcePool{Name: fmt.Sprintf("pool-%d", p), ResourceSliceCount: 1}, NodeName: ptr("n1")}}
		for range rapid.IntRange(1, 3).Draw(t, "devices") {
			if ndev >= 5 {
				break
			}
			d := api.Device{Name: fmt.Sprintf("dev-%d", ndev), Attributes: map[api.QualifiedName]api.DeviceAttribute{
				"model": {StringValue: ptr(pick(t, "model", "a", "b"))},
				"numa":  {IntValue: ptr(int64(rapid.IntRange(0, 1).Draw(t, "numa")))},
			}}
			ndev++
			if rapid.IntRange(0, 4).Draw(t, "tainted") == 4 {
				d.Taints = []api.DeviceTaint{{Key: "k", Value: "v", Effect: api.DeviceTaintEffectNoSchedule}}
			}
			if counters {
				d.ConsumesCounters = []api.DeviceCounterConsumption{{CounterSet: "cs", Counters: map[string]api.Counter{
					"c": {Value: quantity.NewQuantity(int64(rapid.IntRange(1, 2).Draw(t, "consume")), quantity.DecimalSI)}}}}
			}
			s.Spec.Devices = append(s.Spec.Devices, d)
		}
		w.slices = append(w.slices, s)
		if counters {
			s.Spec.Pool.ResourceSliceCount = 2
			w.slices = append(w.slices, &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: "s-counters"}, Spec: api.ResourceSliceSpec{
				Driver: "driver-a", Pool: api.ResourcePool{Name: "pool-0", ResourceSliceCount: 2}, NodeName: ptr("n1"),
				SharedCounters: []api.CounterSet{{Name: "cs", Counters: map[string]api.Counter{
					"c": {Value: quantity.NewQuantity(int64(rapid.IntRange(1, 3).Draw(t, "counter")), quantity.DecimalSI)}}}}}})
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "held") == 3 {
		d := rapid.IntRange(0, ndev-1).Draw(t, "held-device")
		pool := "pool-0"
		for _, s := range w.slices {
			for _, x := range s.Spec.Devices {
				if x.Name == fmt.Sprintf("dev-%d", d) {
					pool = s.Spec.Pool.Name
				}
			}
		}
		w.allocated = []*api.ResourceClaim{{ObjectMeta: api.ObjectMeta{Name: "held"}, Status: api.ResourceClaimStatus{Allocation: &api.AllocationResult{
			Devices: api.DeviceAllocationResult{Results: []api.DeviceRequestAllocationResult{{Request: "r", Driver: "driver-a", Pool: pool, Device: fmt.Sprintf("dev-%d", d)}}}}}}}
	}
	nreq := 0
	for c := range rapid.IntRange(1, 2).Draw(t, "claims") {
		cl := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("claim-%d", c)}}
		for r := range rapid.IntRange(1, 2).Draw(t, "requests") {
			if nreq >= 3 {
				break
			}
			nreq++
			sub := func(label string) api.DeviceSubRequest {
				s := api.DeviceSubRequest{DeviceClassName: "class-a", AllocationMode: api.DeviceAllocationModeExactCount, Count: int64(rapid.IntRange(1, 2).Draw(t, label+"count"))}
				if rapid.IntRange(0, 5).Draw(t, label+"all") == 5 {
					s.AllocationMode, s.Count = api.DeviceAllocationModeAll, 0
				}
				if rapid.IntRange(0, 3).Draw(t, label+"sel") == 3 {
					s.Selectors = []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: `device.attributes["driver-a"].model == "a"`}}}
				}
				if rapid.IntRange(0, 3).Draw(t, label+"tol") == 3 {
					s.Tolerations = []api.DeviceToleration{{Key: "k", Operator: api.DeviceTolerationOpExists}}
				}
				return s
			}
			req := api.DeviceRequest{Name: fmt.Sprintf("r%d", r)}
			if rapid.IntRange(0, 3).Draw(t, "first-available") == 3 {
				for i := range 2 {
					s := sub(fmt.Sprint("sub", i))
					s.Name = fmt.Sprintf("s%d", i)
					req.FirstAvailable = append(req.FirstAvailable, s)
				}
			} else {
				s := sub("exact")
				req.Exactly = &api.ExactDeviceRequest{DeviceClassName: s.DeviceClassName, AllocationMode: s.AllocationMode, Count: s.Count, Selectors: s.Selectors, Tolerations: s.Tolerations}
				if rapid.IntRange(0, 5).Draw(t, "admin") == 5 {
					req.Exactly.AdminAccess = ptr(true)
				}
			}
			cl.Spec.Devices.Requests = append(cl.Spec.Devices.Requests, req)
		}
		if len(cl.Spec.Devices.Requests) == 0 {
			break
		}
		if rapid.IntRange(0, 2).Draw(t, "constraint") == 2 {
			attr := api.FullyQualifiedName(pick(t, "attr", "driver-a/model", "driver-a/numa"))
			con := api.DeviceConstraint{MatchAttribute: &attr}
			if rapid.Bool().Draw(t, "distinct") {
				con = api.DeviceConstraint{DistinctAttribute: &attr}
			}
			cl.Spec.Devices.Constraints = []api.DeviceConstraint{con}
		}
		w.claims = append(w.claims, cl)
	}
	return w
}

// use is one device allocated for one (sub)request.
type use struct {
	claim, req, sub int
	dev             *api.Device
	pool            string
}

// opt is what one request or subrequest is: its fields, flattened.
type opt struct {
	base, sub string
	mode      api.DeviceAllocationMode
	count     int
	sels      []api.DeviceSelector
	tols      []api.DeviceToleration
	admin     bool
}

func options(r api.DeviceRequest) []opt {
	if x := r.Exactly; x != nil {
		return []opt{{r.Name, "", x.AllocationMode, int(x.Count), x.Selectors, x.Tolerations, x.AdminAccess != nil && *x.AdminAccess}}
	}
	var out []opt
	for _, s := range r.FirstAvailable {
		out = append(out, opt{r.Name, s.Name, s.AllocationMode, int(s.Count), s.Selectors, s.Tolerations, false})
	}
	return out
}

type devRef struct {
	dev  *api.Device
	pool string
}

// bruteFeasible tries every assignment of devices to requests and
// reports whether one satisfies every rule: selectors, taints, devices in
// use, counters, constraints, All requests taking every matching device.
func (w smallWorld) bruteFeasible(t *rapid.T) bool {
	var devs []devRef
	counter := map[string]int64{}
	for _, s := range w.slices {
		for i := range s.Spec.Devices {
			devs = append(devs, devRef{&s.Spec.Devices[i], s.Spec.Pool.Name})
		}
		for _, cs := range s.Spec.SharedCounters {
			counter[s.Spec.Pool.Name] = cs.Counters["c"].Value.Value()
		}
	}
	held := map[string]bool{}
	for _, c := range w.allocated {
		for _, r := range c.Status.Allocation.Devices.Results {
			held[r.Pool+"/"+r.Device] = true
		}
	}
	for _, d := range devs {
		if held[d.pool+"/"+d.dev.Name] {
			for _, cc := range d.dev.ConsumesCounters {
				counter[d.pool] -= cc.Counters["c"].Value.Value()
			}
		}
	}
	matches := func(o opt, d devRef) bool {
		for _, s := range o.sels {
			sel, err := dragen.Compiler{}.Compile(s.CEL.Expression)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := sel.Matches(context.Background(), "driver-a", d.dev); err != nil || !ok {
				return false
			}
		}
		return true
	}
	type slot struct {
		claim, req int
		opts       []opt
	}
	var slots []slot
	for ci, c := range w.claims {
		for ri, r := range c.Spec.Devices.Requests {
			slots = append(slots, slot{ci, ri, options(r)})
		}
	}
	var uses []use
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(slots) {
			return w.valid(uses, devs, counter, held)
		}
		s := slots[i]
		for oi, o := range s.opts {
			var cands []devRef
			for _, d := range devs {
				if matches(o, d) {
					cands = append(cands, d)
				}
			}
			add := func(set []devRef) bool {
				n := len(uses)
				for _, d := range set {
					uses = append(uses, use{s.claim, s.req, oi, d.dev, d.pool})
				}
				ok := try(i + 1)
				uses = uses[:n]
				return ok
			}
			if o.mode == api.DeviceAllocationModeAll {
				if len(cands) > 0 && add(cands) {
					return true
				}
				continue
			}
			var combo func(start int, chosen []devRef) bool
			combo = func(start int, chosen []devRef) bool {
				if len(chosen) == o.count {
					return add(chosen)
				}
				for k := start; k < len(cands); k++ {
					if combo(k+1, append(chosen, cands[k])) {
						return true
					}
				}
				return false
			}
			if combo(0, nil) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// valid checks a complete assignment against the rules.
func (w smallWorld) valid(uses []use, devs []devRef, counter map[string]int64, held map[string]bool) bool {
	opt := func(u use) opt { return options(w.claims[u.claim].Spec.Devices.Requests[u.req])[u.sub] }
	first := map[string]bool{}
	inClaim := map[string]bool{}
	charge := map[string]int64{}
	for _, u := range uses {
		o := opt(u)
		key := u.pool + "/" + u.dev.Name
		ck := fmt.Sprint(u.claim, key)
		if inClaim[ck] {
			return false
		}
		inClaim[ck] = true
		if !o.admin && (held[key] || first[key]) {
			return false
		}
		first[key] = true
		for _, taint := range u.dev.Taints {
			tolerated := false
			for _, tol := range o.tols {
				tolerated = tolerated || dra.Tolerates(tol, taint)
			}
			if !tolerated {
				return false
			}
		}
		for _, cc := range u.dev.ConsumesCounters {
			charge[u.pool] += cc.Counters["c"].Value.Value()
		}
	}
	for p, c := range charge {
		if c > counter[p] {
			return false
		}
	}
	for ci, c := range w.claims {
		for _, con := range c.Spec.Devices.Constraints {
			attr := con.MatchAttribute
			if attr == nil {
				attr = con.DistinctAttribute
			}
			id := strings.TrimPrefix(string(*attr), "driver-a/")
			var vals []string
			for _, u := range uses {
				if u.claim != ci {
					continue
				}
				a, ok := u.dev.Attributes[api.QualifiedName(id)]
				if !ok {
					return false
				}
				vals = append(vals, fmt.Sprint(a.StringValue != nil, deref(a.StringValue), deref(a.IntValue)))
			}
			for i := range vals {
				for j := range i {
					if con.MatchAttribute != nil && vals[i] != vals[j] || con.DistinctAttribute != nil && vals[i] == vals[j] {
						return false
					}
				}
			}
		}
	}
	return true
}

func deref[T any](p *T) T {
	var zero T
	if p != nil {
		return *p
	}
	return zero
}

// TestFeasibleIffFound: on small single-node worlds the allocator finds
// an allocation exactly when some assignment of devices to requests
// satisfies every rule (and what it finds satisfies them).
func TestFeasibleIffFound(t *testing.T) {
	feasibleCount := 0
	rapid.Check(t, func(t *rapid.T) {
		w := drawSmallWorld(t)
		a, err := dra.NewAllocator(context.Background(), dra.Input{Claims: w.claims, Classes: w.classes, Slices: w.slices,
			Allocated: dra.NewAllocatedState(w.allocated), Compiler: dragen.Compiler{}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Allocate(context.Background(), w.node)
		if err != nil {
			t.Skip("the allocator stops with an error", err)
		}
		feasible := w.bruteFeasible(t)
		if (res != nil) != feasible {
			t.Fatalf("allocator found %v, brute force %v", res != nil, feasible)
		}
		if res == nil {
			return
		}
		devByKey := map[string]devRef{}
		for _, s := range w.slices {
			for i := range s.Spec.Devices {
				devByKey[s.Spec.Pool.Name+"/"+s.Spec.Devices[i].Name] = devRef{&s.Spec.Devices[i], s.Spec.Pool.Name}
			}
		}
		var uses []use
		for ci, r := range res {
			for _, x := range r.Devices.Results {
				base, sub, _ := strings.Cut(x.Request, "/")
				ri, si := -1, 0
				for k, dr := range w.claims[ci].Spec.Devices.Requests {
					if dr.Name == base {
						ri = k
						for j, s := range dr.FirstAvailable {
							if s.Name == sub {
								si = j
							}
						}
					}
				}
				d := devByKey[x.Pool+"/"+x.Device]
				uses = append(uses, use{ci, ri, si, d.dev, d.pool})
			}
		}
		var devs []devRef
		counter := map[string]int64{}
		for _, s := range w.slices {
			for i := range s.Spec.Devices {
				devs = append(devs, devRef{&s.Spec.Devices[i], s.Spec.Pool.Name})
			}
			for _, cs := range s.Spec.SharedCounters {
				counter[s.Spec.Pool.Name] = cs.Counters["c"].Value.Value()
			}
		}
		held := map[string]bool{}
		for _, c := range w.allocated {
			for _, r := range c.Status.Allocation.Devices.Results {
				held[r.Pool+"/"+r.Device] = true
				for _, d := range devs {
					if d.pool == r.Pool && d.dev.Name == r.Device {
						for _, cc := range d.dev.ConsumesCounters {
							counter[d.pool] -= cc.Counters["c"].Value.Value()
						}
					}
				}
			}
		}
		if !w.valid(uses, devs, counter, held) {
			t.Fatalf("the allocator's result breaks a rule: %+v", res)
		}
		feasibleCount++
	})
	t.Logf("%d feasible worlds", feasibleCount)
}
