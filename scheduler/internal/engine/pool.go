package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// task is a job that several goroutines can share: Help does parts of
// it until none is left, and must be safe to call from several goroutines
// at once.
type task interface {
	Help()
}

// helpGroup tracks the helpers offered one job by pool.offer. Its zero
// value is ready to use; after Wait returns it can be used for the next
// job. Only the goroutine that offers the job touches it: helpers report
// on their own memory, so a job's memory can be reused as soon as Wait
// returns.
type helpGroup struct {
	// offered[:n] are the helpers the job was offered to since the
	// last Wait, and tickets[:n] the claim number of each offer (arrays,
	// so that offering allocates nothing).
	offered [maxHelpers]*helper
	tickets [maxHelpers]uint64
	n       int
}

// pool is an Engine's helper goroutines. A helper that has finished a
// job polls for the next one for spin before it parks: on a virtual
// machine, waking a parked goroutine on an idle CPU can take a few
// hundred microseconds (longer than a whole cycle over a few thousand
// nodes), while a polling helper starts within a microsecond. A job is
// offered to polling helpers first, then parked ones, then new ones while
// the pool is below its bound; an offer that no helper has started by the
// time the caller is done is withdrawn, so a caller never waits for a
// helper to wake up only to find nothing left.
//
// The pool belongs to one Engine (so to one Scheduler): close stops
// every helper and waits for it to exit. It holds no scheduling state
// (an idle helper keeps no job), and no result depends on which
// goroutine, or how many, helped.
type pool struct {
	mu      sync.Mutex // held to add a helper
	helpers [maxHelpers]atomic.Pointer[helper]
	n       atomic.Int32
	max     int32
	spin    time.Duration
	closed  atomic.Bool
	quit    chan struct{}
	exited  sync.WaitGroup
}

func newPool(maxHelpers int, spin time.Duration) *pool {
	return &pool{max: int32(maxHelpers), spin: spin, quit: make(chan struct{})}
}

// close stops the helpers and waits until every one has exited. No job
// may be running; offers made after close find no helper.
func (pl *pool) close() {
	pl.mu.Lock()
	if pl.closed.Swap(true) {
		pl.mu.Unlock()
		return
	}
	close(pl.quit)
	pl.mu.Unlock()
	pl.exited.Wait()
}

const (
	// maxHelpers bounds a pool.
	maxHelpers = 64
	// defaultSpin is how long an idle helper polls for a job before it
	// parks: it costs at most that much CPU time per job, and keeps
	// back-to-back cycles from paying a wake-up each.
	defaultSpin = 50 * time.Microsecond
)

// task states. A helper moves polling → claimed → offered by an
// offerer; offered → running by itself, or offered → polling when the
// offer is withdrawn; running → polling when done; polling → parked when
// it has polled long enough, and parked → claimed by an offerer, who then
// wakes it. The state word holds the state in its low 8 bits and, above
// them, the number of the helper's latest claim, so that an offerer
// withdraws or waits for its own offer only, never a later one.
const (
	helperPolling uint64 = iota
	helperParked
	helperClaimed
	helperOffered
	helperRunning
)

type helper struct {
	state atomic.Uint64
	// task is written by the offerer between claiming the helper and
	// marking it offered, and read by the helper once it has moved
	// itself to running.
	task task
	wake chan struct{}
	pool *pool

	// finished is the claim number of the last task the helper
	// finished. A caller that has to block for one sets waitFor under
	// mu, and the helper sends on done once finished reaches it.
	finished atomic.Uint64
	mu       sync.Mutex
	waitFor  uint64
	done     chan struct{}
}

// offer offers h to up to n helpers and returns at once; the caller
// is expected to call h.Help itself too, then g.Wait. A helper that
// takes the offer calls h.Help once.
func (pl *pool) offer(h task, n int, g *helpGroup) {
	for range n {
		if g.n == len(g.offered) {
			return
		}
		hp, parked := pl.claim()
		if hp == nil {
			return
		}
		claim := hp.state.Load() >> 8
		hp.task = h
		g.offered[g.n], g.tickets[g.n] = hp, claim
		g.n++
		hp.state.Store(claim<<8 | helperOffered)
		if parked {
			hp.wake <- struct{}{}
		}
	}
}

// claim claims a polling helper, else a parked one, else a new one;
// nil when the pool is full and busy, or closed.
func (pl *pool) claim() (hp *helper, parked bool) {
	if pl.closed.Load() {
		return nil, false
	}
	n := pl.n.Load()
	for i := range n {
		if hp := pl.helpers[i].Load(); hp != nil && hp.claim(helperPolling) {
			return hp, false
		}
	}
	for i := range n {
		if hp := pl.helpers[i].Load(); hp != nil && hp.claim(helperParked) {
			return hp, true
		}
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	i := pl.n.Load()
	if i >= pl.max || pl.closed.Load() {
		return nil, false
	}
	hp = &helper{wake: make(chan struct{}, 1), done: make(chan struct{}, 1), pool: pl}
	hp.state.Store(1<<8 | helperClaimed)
	pl.helpers[i].Store(hp)
	pl.n.Store(i + 1)
	pl.exited.Add(1)
	go hp.loop()
	return hp, false
}

// claim moves the helper from state from to claimed under a new claim
// number; false if it is not in state from.
func (hp *helper) claim(from uint64) bool {
	w := hp.state.Load()
	return w&0xff == from && hp.state.CompareAndSwap(w, (w>>8+1)<<8|helperClaimed)
}

// Wait withdraws the offers no helper has started and waits for the
// helpers that did to finish.
func (g *helpGroup) Wait() {
	for i, hp := range g.offered[:g.n] {
		g.offered[i] = nil
		ticket := g.tickets[i]
		if hp.state.CompareAndSwap(ticket<<8|helperOffered, ticket<<8) { // back to polling
			continue // withdrawn
		}
		// A started helper is at most one piece of work from done:
		// poll briefly before blocking.
		for j := 1; hp.finished.Load() < ticket; j++ {
			if j%pollYield != 0 {
				continue
			}
			if j < 64*pollYield {
				runtime.Gosched()
				continue
			}
			hp.mu.Lock()
			if hp.finished.Load() >= ticket {
				hp.mu.Unlock()
				break
			}
			hp.waitFor = ticket
			hp.mu.Unlock()
			<-hp.done
			break
		}
	}
	g.n = 0
}

func (hp *helper) loop() {
	defer hp.pool.exited.Done()
	for {
		claim, ok := hp.await()
		if !ok {
			return
		}
		task := hp.task
		hp.task = nil
		task.Help()
		hp.mu.Lock()
		hp.finished.Store(claim)
		if hp.waitFor != 0 && claim >= hp.waitFor {
			hp.waitFor = 0
			hp.done <- struct{}{}
		}
		hp.mu.Unlock()
		hp.state.Store(claim << 8) // polling
	}
}

// await returns the claim number of the offer the helper has moved
// from offered to running (false once the pool is closed), polling for the pool's spin and then parking between offers. It
// polls with plain loads, yielding the CPU every pollYield polls so that
// the garbage collector and other goroutines are not held up.
func (hp *helper) await() (uint64, bool) {
	since := time.Now()
	for i := 1; ; i++ {
		switch w := hp.state.Load(); w & 0xff {
		case helperOffered:
			if hp.state.CompareAndSwap(w, w&^0xff|helperRunning) {
				return w >> 8, true
			}
		case helperPolling:
			if hp.pool.closed.Load() {
				return 0, false
			}
			if i%pollYield == 0 && time.Since(since) > hp.pool.spin && hp.state.CompareAndSwap(w, w&^0xff|helperParked) {
				select {
				case <-hp.wake:
				case <-hp.pool.quit:
					return 0, false
				}
				since = time.Now()
				continue
			}
		}
		if i%pollYield == 0 {
			runtime.Gosched()
		}
	}
}

// pollYield is how many polls a waiting goroutine makes between yields:
// a few microseconds' worth.
const pollYield = 1024
