package scheduler

import (
	"context"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// sandbox returns a copy-on-write fork of s (Fork) that the what-ifs
// change and change back to verify their answers; s is left as it is.
// The caller holds s.mu and closes the fork.
func (s *Scheduler) sandbox() (*Scheduler, error) { return s.forkLocked() }

// feasibleOn runs the cycle's PreFilter and Filter steps for pod and
// reports whether node passes them: what a cycle decides about that one
// node.
func (s *Scheduler) feasibleOn(ctx context.Context, pod *api.Pod, node string) bool {
	return s.preFiltered(ctx, pod).feasibleOn(ctx, node)
}

// preFilteredPod is a pod after the cycle's PreFilter step, ready to be
// filtered on any node of the view, as a cycle filters many nodes with
// one state.
type preFilteredPod struct {
	s      *Scheduler
	prof   *framework.Profile
	pod    *api.Pod
	view   *cluster.View
	state  *framework.CycleState
	result *framework.PreFilterResult
	ok     bool
}

// preFiltered runs PreFilter for pod.
func (s *Scheduler) preFiltered(ctx context.Context, pod *api.Pod) *preFilteredPod {
	pf := &preFilteredPod{s: s, pod: pod, view: s.snapshot.View(), state: framework.NewCycleState()}
	prof, err := s.profileFor(pod)
	if err != nil {
		return pf
	}
	result, st, _ := prof.RunPreFilterPlugins(ctx, pf.state, pod, pf.view.Nodes())
	pf.prof, pf.result, pf.ok = prof, result, st.IsSuccess()
	return pf
}

// feasibleWith verifies a change to the cluster as preemption's dry
// run verifies evictions: Filter on a copy of the node with the change
// applied, with a copy of the PreFilter state the PreFilter extensions
// (RemovePod, AddPod) bring up to date. handled is false when this
// cannot decide: PreFilter rejected the pod as the cluster is, or the
// change relabels a node with a key in sensitive, which PreFilter reads.
func (pf *preFilteredPod) feasibleWith(ctx context.Context, c *Suggestion, sensitive map[string]bool) (feasible, handled bool) {
	if !pf.ok {
		return false, false
	}
	ni, ok := pf.view.Get(c.Node)
	if !ok {
		return false, true
	}
	target, state := ni.Clone(), pf.state.Clone()
	if c.node != nil {
		old := ni.Node().Labels
		for k, v := range c.node.Labels {
			if ov, has := old[k]; (!has || ov != v) && sensitive[k] {
				return false, false
			}
		}
		for k := range old {
			if _, has := c.node.Labels[k]; !has && sensitive[k] {
				return false, false
			}
		}
		target.SetNode(c.node)
	}
	for _, v := range c.Victims {
		i := slices.IndexFunc(target.Pods, func(p *cluster.PodInfo) bool { return p.Pod.Namespace == v.Namespace && p.Pod.Name == v.Name })
		if i < 0 {
			return false, true
		}
		pi := target.Pods[i]
		if err := target.RemovePod(pi.Pod); err != nil {
			return false, true
		}
		if !pf.prof.RunPreFilterExtensionRemovePod(ctx, state, pf.pod, pi, target).IsSuccess() {
			return false, true
		}
	}
	for _, f := range spreadFillers(pf.pod, c.Spread) {
		fi := cluster.NewPodInfo(f)
		at := target
		if f.Spec.NodeName != c.Node {
			if at, ok = pf.view.Get(f.Spec.NodeName); !ok {
				return false, true
			}
		} else {
			target.AddPod(fi)
		}
		if !pf.prof.RunPreFilterExtensionAddPod(ctx, state, pf.pod, fi, at).IsSuccess() {
			return false, true
		}
	}
	if !pf.result.AllNodes() && !inSet(pf.result.NodeNames, c.Node) {
		return false, true
	}
	return pf.prof.RunFilterPluginsWithNominatedPods(ctx, state, pf.pod, target, pf.s.nominated[c.Node]).IsSuccess(), true
}

// feasibleOn runs Filter on node after PreFilter passed and left it.
func (pf *preFilteredPod) feasibleOn(ctx context.Context, node string) bool {
	if !pf.ok || (!pf.result.AllNodes() && !inSet(pf.result.NodeNames, node)) {
		return false
	}
	ni, ok := pf.view.Get(node)
	if !ok {
		return false
	}
	return pf.prof.RunFilterPluginsWithNominatedPods(ctx, pf.state, pf.pod, ni, pf.s.nominated[node]).IsSuccess()
}
