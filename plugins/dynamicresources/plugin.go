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
	// none is the state of every pod without claims; never written.
	none *stateData

	mu sync.Mutex
	// assumed are the claims Reserve allocated or reserved, by
	// namespace and name; they replace the snapshot's.
	assumed map[claimKey]*api.ResourceClaim
}

var (
	_ framework.PreEnqueuePlugin  = (*DynamicResources)(nil)
	_ framework.PreFilterPlugin   = (*DynamicResources)(nil)
	_ framework.FilterPlugin      = (*DynamicResources)(nil)
	_ framework.PostFilterPlugin  = (*DynamicResources)(nil)
	_ framework.PreScorePlugin    = (*DynamicResources)(nil)
	_ framework.ScorePlugin       = (*DynamicResources)(nil)
	_ framework.EnqueueExtensions = (*DynamicResources)(nil)
)

// New is the DynamicResources factory. args is nil, a
// config.DynamicResourcesArgs or a pointer to one (or its JSON); it is
// defaulted and validated. Objects are read from h's snapshot.
func New(args any, h framework.Handle) (framework.Plugin, error) {
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
		none: &stateData{}, assumed: map[claimKey]*api.ResourceClaim{}}, nil
}

// Name returns Name.
func (pl *DynamicResources) Name() string { return Name }

// EventsToRegister returns NodeAdd and NodeUpdate: a new node or a
// node's new labels or allocatable may offer the devices a claim needs.
// Upstream also registers claim, class and slice changes, which the
// framework's events do not model.
func (pl *DynamicResources) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate
}

func (pl *DynamicResources) objects() *cluster.Objects {
	if pl.h == nil || pl.h.Snapshot() == nil {
		return nil
	}
	return pl.h.Snapshot().Objects()
}

// claim returns the claim namespace/name: the assumed one if Reserve
// changed it, else the snapshot's.
func (pl *DynamicResources) claim(o *cluster.Objects, namespace, name string) (*api.ResourceClaim, bool) {
	pl.mu.Lock()
	c, ok := pl.assumed[claimKey{namespace, name}]
	pl.mu.Unlock()
	if ok {
		return c, true
	}
	return cluster.GetObject[api.ResourceClaim](o, namespace, name)
}

// allocatedClaims returns every claim with an allocation: the
// snapshot's, with the assumed ones in place of theirs.
func (pl *DynamicResources) allocatedClaims(o *cluster.Objects) []*api.ResourceClaim {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	var out []*api.ResourceClaim
	for c := range cluster.AllObjects[api.ResourceClaim](o) {
		if _, ok := pl.assumed[claimKey{namespaceOf(c), c.Name}]; ok {
			continue
		}
		if c.Status.Allocation != nil {
			out = append(out, c)
		}
	}
	for _, c := range pl.assumed {
		if c.Status.Allocation != nil {
			out = append(out, c)
		}
	}
	return out
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
