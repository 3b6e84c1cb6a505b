package defaultpreemption

import (
	"context"
	"sync"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/preemption"
)

// Name is the plugin's name in a profile, "DefaultPreemption".
const Name = config.DefaultPreemptionName

// DefaultPreemption is the PostFilter plugin. Build it with New.
type DefaultPreemption struct {
	h        framework.Handle
	pct, abs int32

	// mu guards mem, the memory successive attempts reuse; an attempt
	// that finds it taken runs in fresh memory.
	mu  sync.Mutex
	mem preemption.Memory
}

var _ framework.PostFilterPlugin = (*DefaultPreemption)(nil)

// New is the plugin's factory: args is nil (the defaults) or a
// config.DefaultPreemptionArgs, validated as upstream validates it.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	a, err := config.DefaultPreemptionArgsFrom(args)
	if err != nil {
		return nil, err
	}
	return &DefaultPreemption{h: h, pct: a.Percentage(), abs: a.Absolute()}, nil
}

// Name returns "DefaultPreemption".
func (pl *DefaultPreemption) Name() string { return Name }

// PostFilter runs a preemption attempt and prefixes its message with
// "preemption: ", as upstream's DefaultPreemption.PostFilter.
func (pl *DefaultPreemption) PostFilter(ctx context.Context, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	o := pl.attempt(ctx, state, pod, m, false)
	if msg := o.Status.Message(); msg != "" {
		return o.Result, framework.NewStatus(o.Status.Code(), "preemption: "+msg)
	}
	return o.Result, o.Status
}

// Preempt is the preemption attempt behind PostFilter, with everything it
// found, Outcome.DryRun included. state is the failed cycle's state: it
// is cloned, not modified. m holds the filters' status of each node.
// With the same random source it decides what PostFilter decides.
func (pl *DefaultPreemption) Preempt(ctx context.Context, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader) *preemption.Outcome {
	return pl.attempt(ctx, state, pod, m, true)
}

// attempt runs preemption.AttemptWith in the plugin's memory when no
// other attempt holds it.
func (pl *DefaultPreemption) attempt(ctx context.Context, state *framework.CycleState, pod *api.Pod, m framework.NodeToStatusReader, record bool) *preemption.Outcome {
	if !pl.mu.TryLock() {
		return preemption.Attempt(ctx, pl.h, pl.pct, pl.abs, state, pod, m, record)
	}
	defer pl.mu.Unlock()
	return preemption.AttemptWith(ctx, &pl.mem, pl.h, pl.pct, pl.abs, state, pod, m, record)
}
