package scheduler

import (
	"errors"
	"maps"
	"math/rand/v2"
	"slices"

	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/scheduler/internal/engine"
)

// ErrNotForked is returned by Commit and Revert on a scheduler that
// Fork did not make.
var ErrNotForked = errors.New("scheduler: not a fork")

// ErrForkConflict is returned by Commit when the origin changed since
// the fork was made or last committed or reverted (any call that moves
// its snapshot, queue, start index or tie-break source, Schedule and
// Explain included): committing would lose those changes.
var ErrForkConflict = errors.New("scheduler: the origin changed since the fork")

// forkTie ties a fork to its origin: what the origin's state was when
// the fork last took or gave it (its version, its snapshot's Changes,
// start index and tie-break source).
type forkTie struct {
	origin  *Scheduler
	version uint64
	gen     uint64 // the origin snapshot's Changes
	start   int
	pcg     rand.PCG
}

// mark records o's state as the fork's base; o's lock is held.
func (t *forkTie) mark(o *Scheduler) {
	t.version, t.gen, t.start, t.pcg = o.version, o.snapshot.Changes(), o.nextStartNodeIndex, *o.pcg
}

// moved reports whether o's state differs from the fork's base.
func (t *forkTie) moved(o *Scheduler) bool {
	return o.version != t.version || o.snapshot.Changes() != t.gen || o.nextStartNodeIndex != t.start || *o.pcg != t.pcg
}

// Fork returns a scheduler that starts in s's state and then changes
// independently of it: a transaction. Everything the parent's methods
// do, the fork's do (Schedule, Explain, Assume, RemovePod, AddNode,
// RemoveNode, AddPod, Enqueue, RunQueue, Simulate, Drain, ...), on a
// copy-on-write fork of s's snapshot (cluster.Snapshot.Fork): no node or
// pod is copied until the fork changes it. The fork has its own queue
// (a copy of s's), its own copy of the tie-break source and rotating
// start index, so that its decisions are those s would make, and its
// own plugins, whose caches start empty. Commit gives the fork's state
// to s; Revert takes s's state back. Forking changes none of s's
// decisions. A fork and its origin may be used from different
// goroutines; Close releases the fork's helper goroutines.
func (s *Scheduler) Fork() (*Scheduler, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.forkLocked()
}

// ForkWithFeatureGates is Fork for a scheduler that follows the gates g
// instead of s's: the fork's profiles are made as New makes them with
// WithFeatureGates(g) and the rest of s's options. A what-if that models
// a component ignoring a gate runs on such a fork (cluster-autoscaler
// v1.37 plans gangs' pods one by one: autoscaler.PlanScaleUp).
func (s *Scheduler) ForkWithFeatureGates(g featuregates.Gates) (*Scheduler, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.forkGates(g, registryFor(s.opts.registry, g))
}

// forkLocked is Fork for a caller that holds s.mu.
func (s *Scheduler) forkLocked() (*Scheduler, error) {
	return s.forkGates(s.gates, s.registry)
}

// forkGates is a fork following g, its profiles made from registry, for
// a caller that holds s.mu.
func (s *Scheduler) forkGates(g featuregates.Gates, registry framework.Registry) (*Scheduler, error) {
	f := &Scheduler{
		opts:        s.opts,
		unmodelled:  s.unmodelled,
		snapshot:    s.snapshot.Fork(),
		profiles:    map[string]*framework.Profile{},
		percentage:  s.percentage,
		parallelism: s.parallelism,
		tieBreak:    s.tieBreak,
		checkEngine: s.checkEngine,
		admission:   s.admission,
		gates:       g,
		plain:       s.plain,
		cfgs:        s.cfgs,
		registry:    registry,
		shared:      s.shared,
	}
	f.pcg, f.rng = newRand(0)
	if err := f.makeProfiles(); err != nil {
		return nil, err
	}
	f.engine = engine.New(s.parallelism)
	f.selectFn = f.selectTotals
	f.takeState(s)
	f.fork = &forkTie{origin: s}
	f.fork.mark(s)
	return f, nil
}

// Commit gives the fork's state to its origin: its snapshot (by
// cluster.Snapshot.Reset, copying nothing), its queue, tie-break source
// and start index, so that the origin decides from then on as if the
// fork's calls had been made on it. It fails with ErrForkConflict,
// changing nothing, when the origin changed since the fork was made (or
// last committed or reverted). The fork stays usable: it goes on from
// the committed state.
func (s *Scheduler) Commit() error {
	t := s.fork
	if t == nil {
		return ErrNotForked
	}
	o := t.origin
	o.mu.Lock()
	defer o.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.moved(o) {
		return ErrForkConflict
	}
	if err := o.snapshot.Reset(s.snapshot); err != nil {
		return err
	}
	o.takeState(s)
	o.version++
	t.mark(o)
	return nil
}

// Revert brings the fork back to its origin's current state, as a new
// Fork would, keeping its plugins (and their caches). The origin is
// untouched.
func (s *Scheduler) Revert() error {
	t := s.fork
	if t == nil {
		return ErrNotForked
	}
	o := t.origin
	o.mu.Lock()
	defer o.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.snapshot.Reset(o.snapshot); err != nil {
		return err
	}
	s.takeState(o)
	s.version++
	t.mark(o)
	return nil
}

// Origin returns the scheduler the fork was made from; nil for a
// scheduler New made.
func (s *Scheduler) Origin() *Scheduler {
	if s.fork == nil {
		return nil
	}
	return s.fork.origin
}

// takeState copies what decides from's next cycles besides its snapshot
// into s: the queue (its entries bound to s's profiles), the tie-break
// source and the rotating start index. The caller holds both locks.
func (s *Scheduler) takeState(from *Scheduler) {
	s.q = from.q.cloneFor(s.profiles)
	s.nominated = s.q.nominated
	*s.pcg = *from.pcg
	s.nextStartNodeIndex = from.nextStartNodeIndex
}

// cloneFor returns a copy of q whose entries are bound to the profiles
// of the same names in profiles.
func (q *queue) cloneFor(profiles map[string]*framework.Profile) *queue {
	c := &queue{
		byKey:     make(map[podKey]*entry, len(q.byKey)),
		all:       make([]*entry, len(q.all)),
		nominated: make(nominator, len(q.nominated)),
		clock:     q.clock,
		events:    q.events,
	}
	copies := make(map[*entry]*entry, len(q.all))
	for i, e := range q.all {
		ce := *e
		if e.prof != nil {
			ce.prof = profiles[e.prof.Name()]
		}
		ce.preemptions = slices.Clip(e.preemptions)
		ce.qpi.UnschedulablePlugins = maps.Clone(e.qpi.UnschedulablePlugins)
		c.all[i] = &ce
		copies[e] = &ce
	}
	for k, e := range q.byKey {
		c.byKey[k] = copies[e]
	}
	each := func(es []*entry) []*entry {
		out := make([]*entry, len(es))
		for i, e := range es {
			out[i] = copies[e]
		}
		return out
	}
	// The copied heap keeps the original's order and indexes.
	c.active, c.parked, c.gated = activeHeap(each(q.active)), each(q.parked), each(q.gated)
	for n, pis := range q.nominated {
		c.nominated[n] = slices.Clip(pis)
	}
	return c
}
