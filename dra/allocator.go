package dra

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// ErrFailedAllocationOnNode marks an Allocate error that concerns only the
// node: the scheduler reports it as the node's reason and goes on with
// other nodes (upstream's structured.ErrFailedAllocationOnNode). Other
// errors abort the scheduling attempt. Test with errors.Is.
var ErrFailedAllocationOnNode = errors.New("")

// Input is the cluster state and the claims an Allocator works on.
type Input struct {
	// Claims are the pod's claims still to allocate, in the order of the
	// pod's spec.resourceClaims.
	Claims []*api.ResourceClaim
	// Classes are the cluster's DeviceClasses; a claim naming a class not
	// here fails.
	Classes []*api.DeviceClass
	// Slices are every ResourceSlice of the cluster.
	Slices []*api.ResourceSlice
	// TaintRules are the DeviceTaintRules; each adds its taint to the
	// devices it selects.
	TaintRules []*api.DeviceTaintRule
	// Allocated is what the allocated claims hold; nil is nothing.
	// InUse, if set, is read instead.
	Allocated *AllocatedState
	// InUse is what the allocated claims hold, as a Tracker keeps it
	// across pods; nil reads Allocated.
	InUse *InUse
	// Compiler compiles CEL selectors; nil fails every selector.
	Compiler Compiler
	// Index, if set, is the slices indexed by NewIndex; Slices and
	// TaintRules are then not read.
	Index *Index
	// MatchCache, if set, keeps selector results across allocators.
	MatchCache *MatchCache
	// Features are the feature gates the allocator follows beyond
	// v1.37.2's defaults; the zero value is the default set.
	Features Features
	// NewShareID makes the share ID of an allocation of a device that
	// allows multiple allocations; nil uses random UUIDs as upstream.
	NewShareID func() string
}

// Features are the DRA feature gates whose v1.37.2 default a user may
// change. The zero value is kube-scheduler v1.37.2's default.
type Features struct {
	// FractionalCapacityRange is DRAFractionalCapacityRange: a capacity
	// request policy range whose bounds are exact in milli units is then
	// rounded in milli units instead of whole units. It is off by default
	// in v1.37.2: its beta entry that defaults on requires a minimum
	// compatibility version of 1.37, and a 1.37 binary's default minimum
	// compatibility version is its emulation version minus one, 1.36
	// (component-base's compatibility package).
	FractionalCapacityRange bool
}

// Allocator allocates the devices of one pod's claims, node by node. Build
// it once per pod with NewAllocator (class lookups, selector compilation,
// slice indexing) and call Allocate for each node. An Allocator is safe
// for concurrent use.
type Allocator struct {
	claims     []*api.ResourceClaim
	reqs       [][]requestEntry // per claim, per request
	nreq       int              // flat count of requests and subrequests
	cons       [][]constraintSpec
	consErr    []error // per claim: the first empty constraint
	use        *InUse
	newShareID func() string
	features   Features
	matches    *MatchCache

	// Index is the cluster's slices, shared by the allocators of
	// several pods when the caller passes one in Input.
	*Index

	// searches are searches to reuse, with their buffers.
	searches sync.Pool

	mu       sync.Mutex
	counters map[PoolID]counterSets // available counters, computed once per pool

	// shape names the allocator's claims, classes and features in its
	// Index, whose nodes keep Fits answers per shape when keep is set.
	shape uint64
	keep  bool
}

// Index is the cluster's ResourceSlices as allocators read them: taint
// rules applied, node selectors compiled, slices by node and pool, and,
// when no slice is shared by node selector or allNodes, each node's
// pools. It depends on the slices and taint rules only: build it once
// with NewIndex and pass it to the allocators of every pod while they
// do not change. It also keeps what selectors answered for its devices
// (per list of class and request selectors), so that each device is
// evaluated once per list for all the pods that read the index, not once
// per pod. It is safe for concurrent use.
type Index struct {
	slicesOnNode map[string][]*sliceInfo
	slicesShared []*sliceInfo
	allSlices    []*sliceInfo
	byPool       map[PoolID][]*sliceInfo // every slice, input order
	ndev         int
	// localPools are each node's pools, gathered once, when they depend
	// on the node's name alone; nil otherwise.
	localPools map[string][]*pool

	// matched are the selector results per selector list (see
	// selectorResults), kept for every pod that reads the index.
	mu      sync.Mutex
	matched map[string]*selectorResults
	// shapes are the allocator shapes seen, oldest first, with the
	// last id given (see verdict).
	shapes    []shape
	lastShape uint64
}

// selectorResults is, per device of an index, whether a list of
// selectors matches it: 0 not known yet, 1 no, 2 yes. It is filled as
// searches read devices, from several goroutines. A selector error is
// not kept: its text names the claim.
type selectorResults struct {
	v []atomic.Uint32
}

// selectorResults returns the results of the request's class selectors
// and own selectors, in order, shared with every request of the same
// lists: whether they match depends on the expressions and the device
// alone.
func (x *Index) selectorResults(r *request) *selectorResults {
	var b strings.Builder
	for _, list := range [2][]compiled{r.classSels, r.sels} {
		for _, c := range list {
			b.WriteString(c.expr)
			b.WriteByte(0)
		}
		b.WriteByte(1)
	}
	key := b.String()
	x.mu.Lock()
	defer x.mu.Unlock()
	if m := x.matched[key]; m != nil {
		return m
	}
	if x.matched == nil {
		x.matched = map[string]*selectorResults{}
	}
	m := &selectorResults{v: make([]atomic.Uint32, x.ndev)}
	x.matched[key] = m
	return m
}

// PoolID names a pool: its driver and name.
type PoolID struct {
	// Driver of the pool.
	Driver string
	// Pool name.
	Pool string
}

// String is "driver/pool".
func (p PoolID) String() string { return p.Driver + "/" + p.Pool }

type counterSets map[string]map[string]api.Counter

// sliceInfo is a slice as the allocator reads it: taint rules applied and
// node selectors compiled.
type sliceInfo struct {
	s          *api.ResourceSlice
	pool       PoolID
	base       int // global index of its first device
	nodeSel    *affinity.NodeSelector
	nodeSelErr error
	devSel     []*affinity.NodeSelector // per device, with PerDeviceNodeSelection
	devSelErr  []error
	compat     bool     // a device declares compatibility groups (alpha, off)
	names      []string // device names, sorted
	// plainCapacity is, per device, whether no capacity has a request
	// policy or a negative value: a request for no capacity fits it
	// whole when nothing else consumes it.
	plainCapacity []bool
	dupNames      bool // two devices of the slice share a name
}

type compiled struct {
	sel  Selector
	err  error
	expr string
}

// MatchCache remembers, across allocators, whether a CEL expression
// matched a device: the answer depends on the expression and the device
// (with its slice's driver) alone. A scheduler keeps one for all pods,
// so that each device is evaluated once per expression instead of once
// per pod. Devices are keyed by address: a slice replaced in the
// snapshot is a new object and is evaluated again. Errors are not kept
// (their text names the claim). Safe for concurrent use.
type MatchCache struct {
	mu sync.RWMutex
	m  map[matchKey]bool
}

type matchKey struct {
	expr string
	dev  *api.Device
}

// NewMatchCache returns an empty cache.
func NewMatchCache() *MatchCache { return &MatchCache{m: map[matchKey]bool{}} }

func (c *MatchCache) get(k matchKey) (bool, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

func (c *MatchCache) put(k matchKey, v bool) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// request is a request or a subrequest, prepared once per pod.
type request struct {
	flat int // the request's place among the claims' requests
	// matched keeps, per device of the index, whether the class's and
	// the request's selectors match it.
	matched   *selectorResults
	name      string
	parent    string // for a subrequest, its request's name
	className string
	class     *api.DeviceClass
	classSels []compiled
	sels      []compiled
	mode      api.DeviceAllocationMode
	count     int64
	admin     bool
	tols      []api.DeviceToleration
	capacity  *api.CapacityRequirements
	err       error // the request's own validation error, in upstream's order
}

func (r *request) fullName() string {
	if r.parent != "" {
		return r.parent + "/" + r.name
	}
	return r.name
}

// requestEntry is one request of a claim: exact, or its subrequests.
type requestEntry struct {
	name string
	subs []request // one entry for an exact request
	sub  bool      // FirstAvailable
}

type constraintSpec struct {
	requests []string
	attr     api.FullyQualifiedName
	distinct bool
}

// NewAllocator prepares the allocation of in.Claims. It fails only on
// input that no node can change: none today, as upstream reports every
// problem from Allocate.
func NewAllocator(ctx context.Context, in Input) (*Allocator, error) {
	a := &Allocator{
		claims:     in.Claims,
		use:        in.InUse,
		newShareID: in.NewShareID,
		features:   in.Features,
		matches:    in.MatchCache,
		counters:   map[PoolID]counterSets{},
	}
	if a.use == nil {
		a.use = inUseFromState(in.Allocated)
	}
	if a.newShareID == nil {
		a.newShareID = randomUUID
	}
	classes := make(map[string]*api.DeviceClass, len(in.Classes))
	for _, c := range in.Classes {
		classes[c.Name] = c
	}
	compiledCache := map[string]compiled{}
	compile := func(sels []api.DeviceSelector) []compiled {
		out := make([]compiled, len(sels))
		for i, s := range sels {
			if s.CEL == nil {
				continue
			}
			c, ok := compiledCache[s.CEL.Expression]
			if !ok {
				if in.Compiler == nil {
					c.err = errors.New("no CEL compiler configured")
				} else {
					c.sel, c.err = in.Compiler.Compile(s.CEL.Expression)
				}
				c.expr = s.CEL.Expression
				compiledCache[s.CEL.Expression] = c
			}
			out[i] = c
		}
		return out
	}
	a.reqs = make([][]requestEntry, len(in.Claims))
	a.cons = make([][]constraintSpec, len(in.Claims))
	a.consErr = make([]error, len(in.Claims))
	for ci, claim := range in.Claims {
		entries := make([]requestEntry, len(claim.Spec.Devices.Requests))
		for ri := range claim.Spec.Devices.Requests {
			dr := &claim.Spec.Devices.Requests[ri]
			e := requestEntry{name: dr.Name}
			if len(dr.FirstAvailable) > 0 {
				e.sub = true
				for si := range dr.FirstAvailable {
					sr := &dr.FirstAvailable[si]
					r := request{
						name: sr.Name, parent: dr.Name, className: sr.DeviceClassName,
						mode: sr.AllocationMode, count: sr.Count, tols: sr.Tolerations, capacity: sr.Capacity,
					}
					a.prepare(claim, &r, sr.Selectors, len(sr.DerivedAttributes) > 0, false, classes, compile)
					e.subs = append(e.subs, r)
				}
			} else {
				r := request{name: dr.Name}
				hasAdmin := false
				derived := false
				var sels []api.DeviceSelector
				if x := dr.Exactly; x != nil {
					r.className, r.mode, r.count, r.tols, r.capacity = x.DeviceClassName, x.AllocationMode, x.Count, x.Tolerations, x.Capacity
					r.admin = x.AdminAccess != nil && *x.AdminAccess
					hasAdmin = x.AdminAccess != nil
					derived = len(x.DerivedAttributes) > 0
					sels = x.Selectors
				}
				_ = hasAdmin // DRAAdminAccess is GA: requesting it is never an error
				a.prepare(claim, &r, sels, derived, true, classes, compile)
				e.subs = []request{r}
			}
			for i := range e.subs {
				e.subs[i].flat = a.nreq
				a.nreq++
			}
			entries[ri] = e
		}
		a.reqs[ci] = entries
		cons := make([]constraintSpec, 0, len(claim.Spec.Devices.Constraints))
		for i, c := range claim.Spec.Devices.Constraints {
			switch {
			case c.MatchAttribute != nil:
				cons = append(cons, constraintSpec{requests: c.Requests, attr: *c.MatchAttribute})
			case c.DistinctAttribute != nil:
				cons = append(cons, constraintSpec{requests: c.Requests, attr: *c.DistinctAttribute, distinct: true})
			default:
				if a.consErr[ci] == nil {
					a.consErr[ci] = fmt.Errorf("claim %s, constraint #%d: empty constraint (unsupported constraint type?)", kobj(claim), i)
				}
			}
		}
		a.cons[ci] = cons
	}

	if in.Index != nil {
		a.Index = in.Index
	} else {
		a.Index = NewIndex(in.Slices, in.TaintRules)
	}
	for ci := range a.reqs {
		for ri := range a.reqs[ci] {
			for si := range a.reqs[ci][ri].subs {
				r := &a.reqs[ci][ri].subs[si]
				r.matched = a.Index.selectorResults(r)
			}
		}
	}
	a.shape, a.keep = a.Index.shapeOf(a)
	return a, nil
}

// NewIndex indexes the slices, with the taint rules applied.
func NewIndex(resourceSlices []*api.ResourceSlice, rules []*api.DeviceTaintRule) *Index {
	x := &Index{slicesOnNode: map[string][]*sliceInfo{}, byPool: map[PoolID][]*sliceInfo{}}
	for _, s := range resourceSlices {
		s = applyTaintRules(s, rules)
		si := &sliceInfo{s: s, pool: PoolID{s.Spec.Driver, s.Spec.Pool.Name}, base: x.ndev}
		x.ndev += len(s.Spec.Devices)
		if s.Spec.NodeSelector != nil {
			si.nodeSel, si.nodeSelErr = affinity.NewNodeSelector(s.Spec.NodeSelector)
		}
		if s.Spec.PerDeviceNodeSelection != nil && *s.Spec.PerDeviceNodeSelection {
			si.devSel = make([]*affinity.NodeSelector, len(s.Spec.Devices))
			si.devSelErr = make([]error, len(s.Spec.Devices))
			for i := range s.Spec.Devices {
				if ns := s.Spec.Devices[i].NodeSelector; ns != nil {
					si.devSel[i], si.devSelErr[i] = affinity.NewNodeSelector(ns)
				}
			}
		}
		si.names = make([]string, len(s.Spec.Devices))
		si.plainCapacity = make([]bool, len(s.Spec.Devices))
		for i := range s.Spec.Devices {
			si.names[i] = s.Spec.Devices[i].Name
			si.plainCapacity[i] = noPolicies(s.Spec.Devices[i].Capacity)
		}
		slices.Sort(si.names)
		for i := 1; i < len(si.names); i++ {
			si.dupNames = si.dupNames || si.names[i] == si.names[i-1]
		}
		for i := range s.Spec.Devices {
			for _, c := range s.Spec.Devices[i].ConsumesCounters {
				if len(c.CompatibilityGroups) > 0 {
					si.compat = true
				}
			}
		}
		if s.Spec.NodeName != nil && *s.Spec.NodeName != "" {
			x.slicesOnNode[*s.Spec.NodeName] = append(x.slicesOnNode[*s.Spec.NodeName], si)
		} else {
			x.slicesShared = append(x.slicesShared, si)
		}
		x.allSlices = append(x.allSlices, si)
		x.byPool[si.pool] = append(x.byPool[si.pool], si)
	}
	if len(x.slicesShared) == 0 && len(x.slicesOnNode) > 0 {
		local := make(map[string][]*pool, len(x.slicesOnNode))
		for name := range x.slicesOnNode {
			pools, err := x.gatherPools(&api.Node{ObjectMeta: api.ObjectMeta{Name: name}})
			if err != nil {
				local = nil
				break
			}
			for _, p := range pools {
				p.stable = true
			}
			local[name] = pools
		}
		x.localPools = local
	}
	return x
}

// prepare looks up the request's class and compiles its selectors,
// recording the first validation error upstream would report for it.
func (a *Allocator) prepare(claim *api.ResourceClaim, r *request, sels []api.DeviceSelector, derived, exact bool,
	classes map[string]*api.DeviceClass, compile func([]api.DeviceSelector) []compiled) {
	switch {
	case derived:
		r.err = fmt.Errorf("claim %s, request %s: cannot handle request with derived attributes, the feature is disabled", kobj(claim), r.name)
		return
	}
	for i, s := range sels {
		if s.CEL == nil {
			r.err = fmt.Errorf("claim %s, request %s, selector #%d: CEL expression empty (unsupported selector type?)", kobj(claim), r.name, i)
			return
		}
	}
	if r.className == "" {
		r.err = fmt.Errorf("claim %s, request %s: missing device class name (unsupported request type?)", kobj(claim), r.name)
		return
	}
	class := classes[r.className]
	if class == nil {
		r.err = fmt.Errorf("claim %s, request %s: could not retrieve device class %s: %w", kobj(claim), r.name, r.className,
			fmt.Errorf("deviceclass.resource.k8s.io %q not found", r.className))
		return
	}
	r.class = class
	r.classSels = compile(class.Spec.Selectors)
	r.sels = compile(sels)
	switch r.mode {
	case api.DeviceAllocationModeExactCount, api.DeviceAllocationModeAll:
	default:
		r.err = fmt.Errorf("claim %s, request %s: unsupported count mode %s", kobj(claim), r.name, r.mode)
	}
}

// kobj prints an object as klog.KObj does: namespace/name, or name.
func kobj(c *api.ResourceClaim) string {
	if c.Namespace == "" {
		return c.Name
	}
	return c.Namespace + "/" + c.Name
}

// nodeMatches is upstream's NodeMatches over a compiled selector; ns is
// the selector as written, for the error.
func nodeMatches(node *api.Node, nodeName string, allNodes bool, sel *affinity.NodeSelector, selErr error, ns *api.NodeSelector) (bool, error) {
	switch {
	case nodeName != "":
		return node != nil && node.Name == nodeName, nil
	case allNodes:
		return true, nil
	case ns != nil:
		if selErr != nil {
			return false, fmt.Errorf("failed to parse node selector %s: %w", nodeSelectorString(ns), selErr)
		}
		m, _ := sel.Match(node)
		return m, nil
	}
	return false, nil
}

// nodeSelectorString prints a node selector as core/v1's generated
// String method does, which upstream's error quotes.
func nodeSelectorString(ns *api.NodeSelector) string {
	reqs := func(rs []api.NodeSelectorRequirement) string {
		var b strings.Builder
		b.WriteString("[]NodeSelectorRequirement{")
		for _, r := range rs {
			fmt.Fprintf(&b, "NodeSelectorRequirement{Key:%v,Operator:%v,Values:%v,},", r.Key, r.Operator, r.Values)
		}
		b.WriteString("}")
		return b.String()
	}
	var b strings.Builder
	b.WriteString("&NodeSelector{NodeSelectorTerms:[]NodeSelectorTerm{")
	for _, t := range ns.NodeSelectorTerms {
		b.WriteString("NodeSelectorTerm{MatchExpressions:" + reqs(t.MatchExpressions) + ",MatchFields:" + reqs(t.MatchFields) + ",},")
	}
	b.WriteString("},}")
	return b.String()
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// applyTaintRules returns the slice with the taints of the rules that
// select its devices appended, copying only when a rule applies. A rule
// without a device selector selects no device.
func applyTaintRules(s *api.ResourceSlice, rules []*api.DeviceTaintRule) *api.ResourceSlice {
	out := s
	for _, r := range rules {
		sel := r.Spec.DeviceSelector
		if sel == nil {
			continue
		}
		if sel.Driver != nil && *sel.Driver != s.Spec.Driver {
			continue
		}
		if sel.Pool != nil && *sel.Pool != s.Spec.Pool.Name {
			continue
		}
		for i := range s.Spec.Devices {
			if sel.Device != nil && *sel.Device != s.Spec.Devices[i].Name {
				continue
			}
			if out == s {
				c := *s
				c.Spec.Devices = slices.Clone(s.Spec.Devices)
				out = &c
			}
			d := &out.Spec.Devices[i]
			d.Taints = append(slices.Clip(d.Taints), r.Spec.Taint)
		}
	}
	return out
}
