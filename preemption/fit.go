package preemption

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// fitter runs a profile's PreFilter extensions and filters during one dry
// run as the profile's RunPreFilterExtensionAddPod,
// RunPreFilterExtensionRemovePod and RunFilterPluginsWithNominatedPods
// do, with the plugins the failed cycle skipped (state.SkipFilterPlugins)
// left out once for every node rather than looked up per pod and plugin.
// Filters only read the cycle state, so when no extension is active the
// dry run needs no copy of the state per node.
type fitter struct {
	prof *framework.Profile
	// preFilters and allFilters are prof's PreFilter and Filter
	// plugins, listed once per profile.
	preFilters  []framework.PreFilterPlugin
	allFilters  []framework.FilterPlugin
	exts        []framework.PreFilterExtensions
	extNames    []string
	filters     []framework.FilterPlugin
	filterNames []string
	// named remembers the statuses filter named: a filter's shared
	// status (NodeResourcesFit's "Insufficient cpu") is copied with
	// its plugin's name once a dry run, not once a node.
	named []namedStatus
}

// namedStatus is st with the name of filter i.
type namedStatus struct {
	st, named *framework.Status
	i         int
}

// withPlugin is st.WithPlugin(f.filterNames[i]), the same status each
// time for the same st and i (statuses are immutable). A few are kept:
// plugins that build a status per node fill the list once and then
// copy as WithPlugin does.
func (f *fitter) withPlugin(st *framework.Status, i int) *framework.Status {
	for _, n := range f.named {
		if n.st == st && n.i == i {
			return n.named
		}
	}
	named := st.WithPlugin(f.filterNames[i])
	if len(f.named) < 8 {
		f.named = append(f.named, namedStatus{st: st, named: named, i: i})
	}
	return named
}

// newFitter lists prof's PreFilter extensions and filters not skipped in
// state.
func newFitter(prof *framework.Profile, state *framework.CycleState) *fitter {
	f := &fitter{}
	f.reset(prof, state)
	return f
}

// reset makes f the fitter of prof and state, in f's memory. The named
// statuses are kept when the filters are the same.
func (f *fitter) reset(prof *framework.Profile, state *framework.CycleState) {
	var skip map[string]struct{}
	if state != nil {
		skip = state.SkipFilterPlugins
	}
	same := f.prof == prof
	if !same {
		f.preFilters, f.allFilters = prof.PreFilterPlugins(), prof.FilterPlugins()
	}
	clear(f.exts)
	f.exts, f.extNames = f.exts[:0], f.extNames[:0]
	for _, pl := range f.preFilters {
		ext := pl.PreFilterExtensions()
		if ext == nil || isSkipped(skip, pl.Name()) {
			continue
		}
		f.exts = append(f.exts, ext)
		f.extNames = append(f.extNames, pl.Name())
	}
	// A filter's name is its plugin's (the profile's Filter list names
	// them so).
	clear(f.filters)
	f.filters = f.filters[:0]
	n := 0
	for _, pl := range f.allFilters {
		name := pl.Name()
		if isSkipped(skip, name) {
			continue
		}
		f.filters = append(f.filters, pl)
		if n < len(f.filterNames) && f.filterNames[n] == name {
			n++
			continue
		}
		same = false
		f.filterNames = append(f.filterNames[:n], name)
		n++
	}
	if n != len(f.filterNames) {
		same = false
		f.filterNames = f.filterNames[:n]
	}
	f.prof = prof
	if !same {
		clear(f.named)
		f.named = f.named[:0]
	}
}

func isSkipped(set map[string]struct{}, name string) bool {
	_, ok := set[name]
	return ok
}

// stateFor is the state a node's dry run may modify: a copy of state when
// some extension is active, else state itself (only read).
func (f *fitter) stateFor(state *framework.CycleState) *framework.CycleState {
	if len(f.exts) == 0 {
		return state
	}
	return state.Clone()
}

// addPod is RunPreFilterExtensionAddPod.
func (f *fitter) addPod(ctx context.Context, state *framework.CycleState, pod *api.Pod, pi *cluster.PodInfo, ni *cluster.NodeInfo) *framework.Status {
	for i, ext := range f.exts {
		if st := ext.AddPod(ctx, state, pod, pi, ni); !st.IsSuccess() {
			return framework.AsStatus(fmt.Errorf("running AddPod on PreFilter plugin %q: %w", f.extNames[i], st.AsError()))
		}
	}
	return nil
}

// removePod is RunPreFilterExtensionRemovePod.
func (f *fitter) removePod(ctx context.Context, state *framework.CycleState, pod *api.Pod, pi *cluster.PodInfo, ni *cluster.NodeInfo) *framework.Status {
	for i, ext := range f.exts {
		if st := ext.RemovePod(ctx, state, pod, pi, ni); !st.IsSuccess() {
			return framework.AsStatus(fmt.Errorf("running RemovePod on PreFilter plugin %q: %w", f.extNames[i], st.AsError()))
		}
	}
	return nil
}

// filter is RunFilterPluginsWithNominatedPods: the first failing
// filter's status, naming the plugin.
func (f *fitter) filter(ctx context.Context, state *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo, nominated []*cluster.PodInfo) *framework.Status {
	if len(nominated) != 0 {
		return f.prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, nominated)
	}
	for i, pl := range f.filters {
		if st := pl.Filter(ctx, state, pod, ni); !st.IsSuccess() {
			if !st.IsRejected() {
				st = framework.AsStatus(fmt.Errorf("running %q filter plugin: %w", f.filterNames[i], st.AsError()))
				return st.WithPlugin(f.filterNames[i])
			}
			return f.withPlugin(st, i)
		}
	}
	return nil
}

// fits is filter(...).IsSuccess() without building the failure's status.
func (f *fitter) fits(ctx context.Context, state *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo, nominated []*cluster.PodInfo) bool {
	if len(nominated) != 0 {
		return f.prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, nominated).IsSuccess()
	}
	for _, pl := range f.filters {
		if !pl.Filter(ctx, state, pod, ni).IsSuccess() {
			return false
		}
	}
	return true
}
