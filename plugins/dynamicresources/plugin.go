package dynamicresources

import (
	"sync"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.DynamicResourcesName

// DynamicResources is the DynamicResources plugin. It is safe for
// concurrent use; its assumed state (claims allocated by Reserve and not
// yet in the snapshot) is guarded by mu.
type DynamicResources struct {
	h             framework.Handle
	filterTimeout time.Duration
	compiler      dra.Compiler
	features      dra.Features
	// matches keeps selector results across pods.
	matches *dra.MatchCache
	// none is the state of every pod without claims; never written.
	none *stateData

	mu sync.Mutex
	// assumed are the claims Reserve allocated or reserved, by
	// namespace and name; they replace the snapshot's until the
	// snapshot's claim of that name changes. Change them with
	// setAssumed and dropAssumed.
	assumed map[claimKey]*api.ResourceClaim
	// events are the claim changes PostFilter made, until TakeEvents.
	events []framework.Event
	// tracked follows the claims with the assumed ones.
	tracked claimTracker
	// index is the slices indexed for the allocators, shared by the
	// pods while the store's slices and taint rules are those of key.
	index    *dra.Index
	indexKey indexKey
	// classes is the extended resource mapping of the store's classes
	// named by classesKey.
	classes    map[api.ResourceName]*api.DeviceClass
	classesKey classesKey
}

// indexKey names a version of a store's slices and taint rules.
type indexKey struct {
	o             *cluster.Objects
	slices, rules int64
}

// sliceIndex returns the index of o's slices and taint rules, built once
// per version of them.
func (pl *DynamicResources) sliceIndex(o *cluster.Objects) *dra.Index {
	k := indexKey{o, o.KindGeneration(cluster.KindResourceSlice), o.KindGeneration(cluster.KindDeviceTaintRule)}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.index != nil && pl.indexKey == k {
		return pl.index
	}
	var slices []*api.ResourceSlice
	for sl := range cluster.AllObjects[api.ResourceSlice](o) {
		slices = append(slices, sl)
	}
	var rules []*api.DeviceTaintRule
	for r := range cluster.AllObjects[api.DeviceTaintRule](o) {
		rules = append(rules, r)
	}
	pl.index, pl.indexKey = dra.NewIndex(slices, rules), k
	return pl.index
}

var (
	_ framework.PreEnqueuePlugin  = (*DynamicResources)(nil)
	_ framework.PreFilterPlugin   = (*DynamicResources)(nil)
	_ framework.FilterPlugin      = (*DynamicResources)(nil)
	_ framework.PostFilterPlugin  = (*DynamicResources)(nil)
	_ framework.ScoreSkipper      = (*DynamicResources)(nil)
	_ framework.ScorePlugin       = (*DynamicResources)(nil)
	_ framework.EnqueueExtensions = (*DynamicResources)(nil)
)

// Options are the plugin's settings that are not DynamicResourcesArgs:
// the scheduler's feature gates. The zero value is v1.37.2's defaults.
type Options struct {
	// Features are the DRA feature gates the allocator follows.
	Features dra.Features
}

// New is the DynamicResources factory with v1.37.2's default feature
// gates. args is nil, a config.DynamicResourcesArgs or a pointer to one
// (or its JSON); it is defaulted and validated. Objects are read from
// h's snapshot.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	return NewWithOptions(Options{})(args, h)
}

// NewWithOptions returns the DynamicResources factory for the given
// options; a registry entry replaced by it turns gates on or off.
func NewWithOptions(opts Options) framework.PluginFactory {
	return func(args any, h framework.Handle) (framework.Plugin, error) {
		a, err := config.ArgsFrom[config.DynamicResourcesArgs](args)
		if err != nil {
			return nil, err
		}
		// A scheduler's forks share its compiler, which is safe for
		// concurrent use and costly to build.
		newCompiler := func() (any, error) { return cel.NewCompiler(0) }
		var made any
		if sh, ok := h.(framework.SharedValues); ok {
			made, err = sh.Shared("dynamicresources/cel.Compiler", newCompiler)
		} else {
			made, err = newCompiler()
		}
		if err != nil {
			return nil, err
		}
		c := made.(*cel.Compiler)
		return &DynamicResources{h: h, filterTimeout: a.FilterTimeout.Duration, compiler: dra.CELCompiler(c),
			features: opts.Features, matches: dra.NewMatchCache(), none: &stateData{}, assumed: map[claimKey]*api.ResourceClaim{}}, nil
	}
}

// Name returns Name.
func (pl *DynamicResources) Name() string { return Name }

func (pl *DynamicResources) objects() *cluster.Objects {
	if pl.h == nil || pl.h.Snapshot() == nil {
		return nil
	}
	return pl.h.Snapshot().Objects()
}

// claim returns the claim namespace/name: the assumed one if Reserve
// or PostFilter changed it since the snapshot's last changed, else the
// snapshot's. A claim PostFilter deleted is not found.
func (pl *DynamicResources) claim(o *cluster.Objects, namespace, name string) (*api.ResourceClaim, bool) {
	pl.mu.Lock()
	if o != nil {
		// A store change supersedes the assumed claim (syncLocked).
		pl.syncLocked(o)
	}
	c, ok := pl.assumed[claimKey{namespace, name}]
	pl.mu.Unlock()
	if ok {
		return c, c != nil
	}
	return cluster.GetObject[api.ResourceClaim](o, namespace, name)
}

// nodeInfo returns the snapshot's node name.
func (pl *DynamicResources) nodeInfo(name string) (*cluster.NodeInfo, bool) {
	if pl.h == nil || pl.h.Snapshot() == nil {
		return nil, false
	}
	return pl.h.Snapshot().View().Get(name)
}

func namespaceOf(c *api.ResourceClaim) string {
	if c.Namespace == "" {
		return "default"
	}
	return c.Namespace
}

func podNamespace(p *api.Pod) string {
	if p.Namespace == "" {
		return "default"
	}
	return p.Namespace
}

// Features returns the DRA feature gates the plugin's allocator follows.
func (pl *DynamicResources) Features() dra.Features { return pl.features }
