package dra_test

// Builders for the allocator's table tests. They build the same objects
// as the helpers of upstream's allocatortesting package, so that its test
// rows read the same here.

import (
	"encoding/json"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/quantity"
)

const (
	region1     = "region-1"
	region2     = "region-2"
	node1       = "node-1"
	node2       = "node-2"
	classA      = "class-a"
	classB      = "class-b"
	driverA     = "driver-a"
	driverB     = "driver-b"
	pool1       = "pool-1"
	pool2       = "pool-2"
	pool3       = "pool-3"
	pool4       = "pool-4"
	req0        = "req-0"
	req1        = "req-1"
	req2        = "req-2"
	req3        = "req-3"
	subReq0     = "subReq-0"
	subReq1     = "subReq-1"
	req0SubReq0 = "req-0/subReq-0"
	req0SubReq1 = "req-0/subReq-1"
	req1SubReq0 = "req-1/subReq-0"
	req1SubReq1 = "req-1/subReq-1"
	req2SubReq0 = "req-2/subReq-0"
	req2SubReq1 = "req-2/subReq-1"
	claim0      = "claim-0"
	claim1      = "claim-1"
	slice1      = "slice-1"
	slice2      = "slice-2"
	slice3      = "slice-3"
	slice4      = "slice-4"
	device0     = "device-0"
	device1     = "device-1"
	device2     = "device-2"
	device3     = "device-3"
	device4     = "device-4"
	counterSet1 = "counter-set-1"
	counterSet2 = "counter-set-2"
	capacity0   = "capacity-0"
	capacity1   = "capacity-1"

	fieldNameKey     = "metadata.name"
	regionKey        = "region"
	planetKey        = "planet"
	planetValueEarth = "earth"

	fromCounters           = "fromCounters"
	nodeSelectionAll       = "nodeSelectionAll"
	nodeSelectionPerDevice = "nodeSelectionPerDevice"
)

var (
	fixedShareID = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"
	zero         = quantity.NewQuantity(0, quantity.BinarySI)
	one          = quantity.NewQuantity(1, quantity.BinarySI)
	two          = quantity.NewQuantity(2, quantity.BinarySI)
	three        = quantity.NewQuantity(3, quantity.BinarySI)
	four         = quantity.NewQuantity(4, quantity.BinarySI)
	pointOne     = quantity.MustParse("100m")
	pointTwo     = quantity.MustParse("200m")
	pointTwoFive = quantity.MustParse("250m")
	pointThree   = quantity.NewMilliQuantity(300, quantity.DecimalSI)

	nonExistentAttribute = api.FullyQualifiedName(driverA + "/" + "NonExistentAttribute")
	boolAttribute        = api.FullyQualifiedName(driverA + "/" + "boolAttribute")
	stringAttribute      = api.FullyQualifiedName(driverA + "/" + "stringAttribute")
	versionAttribute     = api.FullyQualifiedName(driverA + "/" + "driverVersion")
	intAttribute         = api.FullyQualifiedName(driverA + "/" + "numa")
	taintKey             = "taint-key"
	taintValue           = "taint-value"
	taintValue2          = "taint-value-2"
	taintNone            = api.DeviceTaint{Key: taintKey, Value: taintValue, Effect: api.DeviceTaintEffectNone}
	taintNoSchedule      = api.DeviceTaint{Key: taintKey, Value: taintValue, Effect: api.DeviceTaintEffectNoSchedule}
	taintNoExecute       = api.DeviceTaint{Key: taintKey, Value: taintValue2, Effect: api.DeviceTaintEffectNoExecute}
	tolerationNoSchedule = api.DeviceToleration{Operator: api.DeviceTolerationOpExists, Key: taintKey, Effect: api.DeviceTaintEffectNoSchedule}
	tolerationNoExecute  = api.DeviceToleration{Operator: api.DeviceTolerationOpEqual, Key: taintKey, Value: taintValue2, Effect: api.DeviceTaintEffectNoExecute}
)

func ptr[T any](v T) *T { return &v }

// deepCopy copies through JSON, the api types having no DeepCopy.
func deepCopy[T any](in *T) *T {
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}

func node(name, region string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{regionKey: region, planetKey: planetValueEarth}}}
}

func class(name, driver string) *api.DeviceClass {
	return &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.DeviceClassSpec{
		Selectors: []api.DeviceSelector{{CEL: &api.CELDeviceSelector{Expression: fmt.Sprintf(`device.driver == "%s"`, driver)}}},
	}}
}

func classWithAllowMultipleAllocations(name, driver string, multi bool) *api.DeviceClass {
	c := class(name, driver)
	c.Spec.Selectors[0].CEL.Expression = fmt.Sprintf(`device.driver == "%s" && device.allowMultipleAllocations == %v`, driver, multi)
	return c
}

func deviceConfiguration(driver, attribute string) api.DeviceConfiguration {
	return api.DeviceConfiguration{Opaque: &api.OpaqueDeviceConfiguration{
		Driver: driver, Parameters: json.RawMessage(fmt.Sprintf(`{"%s":"%s"}`, attribute, attribute+"Value")),
	}}
}

func classWithConfig(name, driver, attribute string) *api.DeviceClass {
	c := class(name, driver)
	c.Spec.Config = []api.DeviceClassConfiguration{{DeviceConfiguration: deviceConfiguration(driver, attribute)}}
	return c
}

type wrapResourceClaim struct{ *api.ResourceClaim }

func (in wrapResourceClaim) obj() *api.ResourceClaim { return in.ResourceClaim }

func (in wrapResourceClaim) DeepCopy() *api.ResourceClaim { return deepCopy(in.ResourceClaim) }

func (in wrapResourceClaim) withTolerations(t ...api.DeviceToleration) wrapResourceClaim {
	out := in.DeepCopy()
	for i := range out.Spec.Devices.Requests {
		out.Spec.Devices.Requests[i].Exactly.Tolerations = append(out.Spec.Devices.Requests[i].Exactly.Tolerations, t...)
	}
	return wrapResourceClaim{out}
}

func (in wrapResourceClaim) withRequests(reqs ...wrapDeviceRequest) wrapResourceClaim {
	out := in.DeepCopy()
	out.Spec.Devices.Requests = make([]api.DeviceRequest, len(reqs))
	for i, r := range reqs {
		out.Spec.Devices.Requests[i] = r.DeviceRequest
	}
	return wrapResourceClaim{out}
}

func (in wrapResourceClaim) withConstraints(c ...api.DeviceConstraint) wrapResourceClaim {
	out := in.DeepCopy()
	out.Spec.Devices.Constraints = c
	return wrapResourceClaim{out}
}

func (in wrapResourceClaim) withConfigs(c []api.DeviceClaimConfiguration) wrapResourceClaim {
	out := in.DeepCopy()
	out.Spec.Devices.Config = c
	return wrapResourceClaim{out}
}

func claimWithRequests(name string, constraints []api.DeviceConstraint, requests ...api.DeviceRequest) wrapResourceClaim {
	return wrapResourceClaim{&api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.ResourceClaimSpec{Devices: api.DeviceClaim{Requests: requests, Constraints: constraints}}}}
}

func request(name, class string, count int64, selectors ...api.DeviceSelector) api.DeviceRequest {
	return api.DeviceRequest{Name: name, Exactly: &api.ExactDeviceRequest{
		Count: count, AllocationMode: api.DeviceAllocationModeExactCount, DeviceClassName: class, Selectors: selectors,
	}}
}

type wrapDeviceRequest struct{ api.DeviceRequest }

func (in wrapDeviceRequest) obj() api.DeviceRequest { return in.DeviceRequest }

func (in wrapDeviceRequest) DeepCopy() *api.DeviceRequest { return deepCopy(&in.DeviceRequest) }

func (in wrapDeviceRequest) withCapacityRequest(q *quantity.Quantity) wrapDeviceRequest {
	out := in.DeepCopy()
	out.Exactly.Capacity = capacityRequests(q)
	return wrapDeviceRequest{*out}
}

func (in wrapDeviceRequest) withSelectors(s ...api.DeviceSelector) wrapDeviceRequest {
	out := in.DeepCopy()
	out.Exactly.Selectors = s
	return wrapDeviceRequest{*out}
}

func deviceRequest(name, class string, count int64) wrapDeviceRequest {
	return wrapDeviceRequest{request(name, class, count)}
}

func allDeviceRequest(name, class string) wrapDeviceRequest {
	return wrapDeviceRequest{api.DeviceRequest{Name: name, Exactly: &api.ExactDeviceRequest{
		AllocationMode: api.DeviceAllocationModeAll, DeviceClassName: class,
	}}}
}

type wrapDeviceSubRequest struct{ api.DeviceSubRequest }

func (in wrapDeviceSubRequest) obj() api.DeviceSubRequest { return in.DeviceSubRequest }

func (in wrapDeviceSubRequest) DeepCopy() *api.DeviceSubRequest {
	return deepCopy(&in.DeviceSubRequest)
}

func (in wrapDeviceSubRequest) withAllocationMode(m api.DeviceAllocationMode) wrapDeviceSubRequest {
	out := in.DeepCopy()
	out.AllocationMode = m
	return wrapDeviceSubRequest{*out}
}

func (in wrapDeviceSubRequest) withCapacityRequest(q *quantity.Quantity) wrapDeviceSubRequest {
	out := in.DeepCopy()
	out.Capacity = capacityRequests(q)
	return wrapDeviceSubRequest{*out}
}

func subRequest(name, class string, count int64, fields ...any) wrapDeviceSubRequest {
	s := api.DeviceSubRequest{Name: name, Count: count, AllocationMode: api.DeviceAllocationModeExactCount, DeviceClassName: class}
	for _, f := range fields {
		switch f := f.(type) {
		case api.DeviceSelector:
			s.Selectors = append(s.Selectors, f)
		case api.DeviceToleration:
			s.Tolerations = append(s.Tolerations, f)
		default:
			panic(fmt.Sprintf("subRequest: %T", f))
		}
	}
	return wrapDeviceSubRequest{s}
}

func requestWithPrioritizedList(name string, subs ...wrapDeviceSubRequest) wrapDeviceRequest {
	r := api.DeviceRequest{Name: name}
	for _, s := range subs {
		r.FirstAvailable = append(r.FirstAvailable, s.DeviceSubRequest)
	}
	return wrapDeviceRequest{r}
}

func claimWithRequest(name, req, class string, constraints ...api.DeviceConstraint) wrapResourceClaim {
	return claimWithRequests(name, constraints, request(req, class, 1))
}

func claim(name string) wrapResourceClaim {
	return wrapResourceClaim{&api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name}}}
}

func claimWithDeviceConfig(name, request, class, driver, attribute string) wrapResourceClaim {
	c := claimWithRequest(name, request, class)
	c.Spec.Devices.Config = []api.DeviceClaimConfiguration{{DeviceConfiguration: deviceConfiguration(driver, attribute)}}
	return c
}

func deviceClaimConfig(requests []string, c api.DeviceConfiguration) api.DeviceClaimConfiguration {
	return api.DeviceClaimConfiguration{Requests: requests, DeviceConfiguration: c}
}

type wrapDevice struct {
	api.Device
	capacityFromCounters bool
}

func (in wrapDevice) obj() api.Device { return in.Device }

func (in wrapDevice) DeepCopy() *api.Device { return deepCopy(&in.Device) }

func device(name string, capacity any, attributes map[api.QualifiedName]api.DeviceAttribute) wrapDevice {
	d := api.Device{Name: name, Attributes: attributes}
	fromC := false
	switch c := capacity.(type) {
	case map[api.QualifiedName]quantity.Quantity:
		d.Capacity = toDeviceCapacity(c)
	case map[api.QualifiedName]api.DeviceCapacity:
		d.Capacity = c
	case string:
		fromC = true
	case nil:
	default:
		panic(fmt.Sprintf("device capacity %T", capacity))
	}
	return wrapDevice{Device: d, capacityFromCounters: fromC}
}

func (in wrapDevice) withTaints(t ...api.DeviceTaint) wrapDevice {
	d := in.DeepCopy()
	d.Taints = append(d.Taints, t...)
	return wrapDevice{Device: *d}
}

func (in wrapDevice) withDeviceCounterConsumption(c ...api.DeviceCounterConsumption) wrapDevice {
	d := in.DeepCopy()
	d.ConsumesCounters = append(d.ConsumesCounters, c...)
	if in.capacityFromCounters {
		d.Capacity = map[api.QualifiedName]api.DeviceCapacity{}
		for _, dc := range d.ConsumesCounters {
			for n, v := range dc.Counters {
				d.Capacity[api.QualifiedName(n)] = api.DeviceCapacity{Value: v.Value}
			}
		}
	}
	return wrapDevice{Device: *d}
}

func (in wrapDevice) withNodeSelection(sel any) wrapDevice {
	d := in.DeepCopy()
	switch s := sel.(type) {
	case *api.NodeSelector:
		d.NodeSelector = s
	case string:
		if s == nodeSelectionAll {
			d.AllNodes = ptr(true)
		} else {
			d.NodeName = ptr(s)
		}
	}
	return wrapDevice{Device: *d}
}

func (in wrapDevice) withBindingConditions(bc, bfc []string) wrapDevice {
	d := in.DeepCopy()
	d.BindingConditions, d.BindingFailureConditions = bc, bfc
	return wrapDevice{Device: *d}
}

func (in wrapDevice) withBindsToNode(b bool) wrapDevice {
	d := in.DeepCopy()
	d.BindsToNode = ptr(b)
	return wrapDevice{Device: *d}
}

func (in wrapDevice) withAllowMultipleAllocations() wrapDevice {
	d := in.DeepCopy()
	d.AllowMultipleAllocations = ptr(true)
	return wrapDevice{Device: *d}
}

func (in wrapDevice) withPolicy(c map[api.QualifiedName]quantity.Quantity, p func() *api.CapacityRequestPolicy) wrapDevice {
	d := in.DeepCopy()
	if d.Capacity == nil {
		d.Capacity = map[api.QualifiedName]api.DeviceCapacity{}
	}
	for n, q := range c {
		d.Capacity[n] = api.DeviceCapacity{Value: q, RequestPolicy: p()}
	}
	return wrapDevice{Device: *d}
}

// withCapacityRequestPolicyRange: default 2, range 2..4 step 2.
func (in wrapDevice) withCapacityRequestPolicyRange(c map[api.QualifiedName]quantity.Quantity) wrapDevice {
	return in.withPolicy(c, func() *api.CapacityRequestPolicy {
		return &api.CapacityRequestPolicy{Default: ptr(two), ValidRange: &api.CapacityRequestPolicyRange{Min: ptr(two), Step: ptr(two), Max: ptr(four)}}
	})
}

// withFractionalCapacityRequestPolicyRange: default 200m, range 200m..1
// step 100m.
func (in wrapDevice) withFractionalCapacityRequestPolicyRange(c map[api.QualifiedName]quantity.Quantity) wrapDevice {
	return in.withPolicy(c, func() *api.CapacityRequestPolicy {
		return &api.CapacityRequestPolicy{Default: ptr(pointTwo), ValidRange: &api.CapacityRequestPolicyRange{Min: ptr(pointTwo), Step: ptr(pointOne), Max: ptr(one)}}
	})
}

func (in wrapDevice) withCapacityRequestPolicyValidValues(def quantity.Quantity, c map[api.QualifiedName]quantity.Quantity, more []quantity.Quantity) wrapDevice {
	return in.withPolicy(c, func() *api.CapacityRequestPolicy {
		return &api.CapacityRequestPolicy{Default: ptr(def), ValidValues: append([]quantity.Quantity{def}, more...)}
	})
}

func deviceCounterConsumption(set string, c map[string]quantity.Quantity) api.DeviceCounterConsumption {
	return api.DeviceCounterConsumption{CounterSet: set, Counters: toCounters(c)}
}

func slice(name string, nodeSelection, pool any, driver string) *api.ResourceSlice {
	var p api.ResourcePool
	switch x := pool.(type) {
	case api.ResourcePool:
		p = x
	case string:
		p = api.ResourcePool{Name: x, ResourceSliceCount: 1, Generation: 1}
	}
	s := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.ResourceSliceSpec{Driver: driver, Pool: p}}
	switch x := nodeSelection.(type) {
	case *api.NodeSelector:
		s.Spec.NodeSelector = x
	case string:
		switch x {
		case nodeSelectionAll:
			s.Spec.AllNodes = ptr(true)
		case nodeSelectionPerDevice:
			s.Spec.PerDeviceNodeSelection = ptr(true)
		default:
			s.Spec.NodeName = ptr(x)
		}
	}
	return s
}

type wrapResourceSliceWithDevices struct{ *api.ResourceSlice }

func (in wrapResourceSliceWithDevices) obj() *api.ResourceSlice { return in.ResourceSlice }

type wrapResourceSliceWithCounterSets struct{ *api.ResourceSlice }

func (in wrapResourceSliceWithCounterSets) obj() *api.ResourceSlice { return in.ResourceSlice }

type resourceSliceWrapper interface{ obj() *api.ResourceSlice }

func sliceWithDevices(name string, nodeSelection, pool any, driver string, devices ...wrapDevice) wrapResourceSliceWithDevices {
	s := slice(name, nodeSelection, pool, driver)
	for _, d := range devices {
		s.Spec.Devices = append(s.Spec.Devices, d.Device)
	}
	return wrapResourceSliceWithDevices{s}
}

func sliceWithCounterSets(name string, nodeSelection, pool any, driver string, sets ...api.CounterSet) wrapResourceSliceWithCounterSets {
	s := slice(name, nodeSelection, pool, driver)
	s.Spec.SharedCounters = sets
	return wrapResourceSliceWithCounterSets{s}
}

func sliceWithNoDevices(name string, nodeSelection, pool any, driver string) wrapResourceSliceWithDevices {
	return sliceWithDevices(name, nodeSelection, pool, driver)
}

func sliceWithOneDevice(name string, nodeSelection, pool any, driver string) wrapResourceSliceWithDevices {
	return sliceWithDevices(name, nodeSelection, pool, driver, device(device1, nil, nil))
}

func sliceWithMultipleDevices(name string, nodeSelection, pool any, driver string, count int) wrapResourceSliceWithDevices {
	var ds []wrapDevice
	for i := 0; i < count; i++ {
		ds = append(ds, device(fmt.Sprintf("device-%d", i), nil, nil))
	}
	return sliceWithDevices(name, nodeSelection, pool, driver, ds...)
}

func resourcePool(name string, count int64) api.ResourcePool {
	return api.ResourcePool{Name: name, ResourceSliceCount: count, Generation: 1}
}

func deviceAllocationResult(request, driver, pool, device string, admin bool, tols ...api.DeviceToleration) api.DeviceRequestAllocationResult {
	r := api.DeviceRequestAllocationResult{Request: request, Driver: driver, Pool: pool, Device: device, Tolerations: tols}
	if admin {
		r.AdminAccess = ptr(true)
	}
	return r
}

type wrapDeviceRequestAllocationResult struct {
	*api.DeviceRequestAllocationResult
}

func deviceRequestAllocationResult(request, driver, pool, device string) wrapDeviceRequestAllocationResult {
	return wrapDeviceRequestAllocationResult{&api.DeviceRequestAllocationResult{Request: request, Driver: driver, Pool: pool, Device: device}}
}

func (in wrapDeviceRequestAllocationResult) obj() *api.DeviceRequestAllocationResult {
	return in.DeviceRequestAllocationResult
}

func (in wrapDeviceRequestAllocationResult) withConsumedCapacity(shareID *string, c map[api.QualifiedName]quantity.Quantity) api.DeviceRequestAllocationResult {
	out := *deepCopy(in.DeviceRequestAllocationResult)
	out.ShareID, out.ConsumedCapacity = shareID, c
	return out
}

func capacityRequests(q *quantity.Quantity) *api.CapacityRequirements {
	return &api.CapacityRequirements{Requests: requirements(q)}
}

func requirements(q *quantity.Quantity) map[api.QualifiedName]quantity.Quantity {
	r := map[api.QualifiedName]quantity.Quantity{}
	if q != nil {
		r[capacity0] = *q
	}
	return r
}

func multipleDeviceAllocationResults(request, driver, pool string, count, start int) []api.DeviceRequestAllocationResult {
	var out []api.DeviceRequestAllocationResult
	for i := start; i < start+count; i++ {
		out = append(out, deviceAllocationResult(request, driver, pool, fmt.Sprintf("device-%d", i), false))
	}
	return out
}

func nodeLabelSelector(key string, values ...string) *api.NodeSelector {
	return &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: api.NodeSelectorOpIn, Values: values}},
	}}}
}

func localNodeSelector(name string) *api.NodeSelector {
	return &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchFields: []api.NodeSelectorRequirement{{Key: fieldNameKey, Operator: api.NodeSelectorOpIn, Values: []string{name}}},
	}}}
}

func allocationResult(sel *api.NodeSelector, results ...api.DeviceRequestAllocationResult) api.AllocationResult {
	return api.AllocationResult{Devices: api.DeviceAllocationResult{Results: results}, NodeSelector: sel}
}

func allocationResultWithConfig(sel *api.NodeSelector, driver string, source api.AllocationConfigSource, attribute string, results ...api.DeviceRequestAllocationResult) api.AllocationResult {
	return api.AllocationResult{Devices: api.DeviceAllocationResult{Results: results,
		Config: []api.DeviceAllocationConfiguration{{Source: source, DeviceConfiguration: deviceConfiguration(driver, attribute)}}}, NodeSelector: sel}
}

func allocationResultWithConfigs(sel *api.NodeSelector, results []api.DeviceRequestAllocationResult, configs []api.DeviceAllocationConfiguration) api.AllocationResult {
	return api.AllocationResult{Devices: api.DeviceAllocationResult{Results: results, Config: configs}, NodeSelector: sel}
}

func objects[T any](objs ...T) []T { return objs }

func unwrapResourceSlices(objs ...resourceSliceWrapper) []*api.ResourceSlice {
	out := make([]*api.ResourceSlice, len(objs))
	for i, o := range objs {
		out[i] = o.obj()
	}
	return out
}

func counterSet(name string, c map[string]quantity.Quantity) api.CounterSet {
	return api.CounterSet{Name: name, Counters: toCounters(c)}
}

func toDeviceCapacity(c map[api.QualifiedName]quantity.Quantity) map[api.QualifiedName]api.DeviceCapacity {
	out := make(map[api.QualifiedName]api.DeviceCapacity, len(c))
	for n, q := range c {
		out[n] = api.DeviceCapacity{Value: q}
	}
	return out
}

func toCounters(c map[string]quantity.Quantity) map[string]api.Counter {
	out := make(map[string]api.Counter, len(c))
	for n, q := range c {
		out[n] = api.Counter{Value: q}
	}
	return out
}

func deviceRequestAllocationResultWithBindingConditions(request, driver, pool, device string, bc, bfc []string, tols ...api.DeviceToleration) api.DeviceRequestAllocationResult {
	return api.DeviceRequestAllocationResult{Request: request, Driver: driver, Pool: pool, Device: device,
		BindingConditions: bc, BindingFailureConditions: bfc, Tolerations: tols}
}

// allocCase is one row: the cluster, the claims, and what Allocate returns.
type allocCase struct {
	claimsToAllocate         []wrapResourceClaim
	allocatedDevices         []dra.DeviceID
	allocatedSharedDeviceIDs map[dra.SharedDeviceID]struct{}
	allocatedCapacityDevices map[dra.DeviceID]dra.ConsumedCapacity
	classes                  []*api.DeviceClass
	slices                   []*api.ResourceSlice
	taintRules               []*api.DeviceTaintRule
	node                     *api.Node
	// features are the gates beyond v1.37.2's defaults, as upstream's
	// rows set them.
	features dra.Features

	expectResults []api.AllocationResult
	expectError   string // substrings of the error, NUL-separated; "" for none
}

func MakeDeviceID(driver, pool, device string) dra.DeviceID {
	return dra.DeviceID{Driver: driver, Pool: pool, Device: device}
}

type wrapper[T any] interface{ obj() T }

func unwrap[T any, O wrapper[T]](objs ...O) []T {
	out := make([]T, len(objs))
	for i, o := range objs {
		out[i] = o.obj()
	}
	return out
}

func qp(q quantity.Quantity) *quantity.Quantity { return &q }

var tolerationNoScheduleKey1 = api.DeviceToleration{Operator: api.DeviceTolerationOpExists, Key: "key1", Effect: api.DeviceTaintEffectNoSchedule}

func MakeSharedDeviceID(id dra.DeviceID, share *string) dra.SharedDeviceID {
	return dra.SharedDeviceID{DeviceID: id, ShareID: *share}
}

func sharedIDs(ids ...dra.SharedDeviceID) map[dra.SharedDeviceID]struct{} {
	m := map[dra.SharedDeviceID]struct{}{}
	for _, id := range ids {
		m[id] = struct{}{}
	}
	return m
}
