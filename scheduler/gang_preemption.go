package scheduler

import (
	"context"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/preemption"
)

// groupVictim is one unit workload-aware preemption may evict: a pod, or
// every scheduled pod of a PodGroup whose disruption mode is All.
type groupVictim struct {
	pods     []*cluster.PodInfo
	nodes    []string // each pod's node
	priority int32
	group    bool // the unit belongs to a PodGroup (upstream's PodGroupKeyType)
	start    *api.Time
}

// groupPreemption is what PodGroupPostFilter decided: the members'
// nominated nodes and the pods evicted.
type groupPreemption struct {
	nominated map[*entry]string
	victims   []*groupVictim
}

// moreImportantVictim is upstream's MoreImportantVictim: priority, then
// groups before pods, then more pods, then the earlier start.
func moreImportantVictim(a, b *groupVictim) bool {
	if a.priority != b.priority {
		return a.priority > b.priority
	}
	if a.group != b.group {
		return a.group
	}
	if len(a.pods) != len(b.pods) {
		return len(a.pods) > len(b.pods)
	}
	return timeBefore(a.start, b.start)
}

// timeBefore is metav1.Time's Before: a nil time is never before.
func timeBefore(a, b *api.Time) bool {
	if a == nil {
		return false
	}
	if b == nil {
		return true
	}
	return a.Before(b.Time)
}

func podStart(p *api.Pod) *api.Time {
	if p.Status.StartTime != nil {
		return p.Status.StartTime
	}
	return nil
}

// groupVictims lists the cluster's preemption units as upstream's
// getCrossNodesVictims does, in node order: a pod of a PodGroup whose
// disruption mode is All brings the group's scheduled pods with it; the
// priority of a group's pod is its group's.
func (s *Scheduler) groupVictims() []*groupVictim {
	h := handle{s}
	seen := map[podgroup.Key]bool{}
	var out []*groupVictim
	nodes := s.snapshot.View().Nodes()
	for _, ni := range nodes {
		for _, pi := range ni.Pods {
			p := pi.Pod
			k, member := podgroup.KeyOf(p)
			prio := framework.PodPriority(p)
			var pg *api.PodGroup
			if member {
				if g, ok := h.PodGroup(k); ok {
					pg, prio = g, g.PriorityValue()
				}
			}
			if pg == nil || pg.Spec.DisruptionMode == nil || pg.Spec.DisruptionMode.All == nil {
				out = append(out, &groupVictim{pods: []*cluster.PodInfo{pi}, nodes: []string{ni.Node().Name}, priority: prio, group: member, start: podStart(p)})
				continue
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			v := &groupVictim{priority: prio, group: true}
			for _, nj := range nodes {
				for _, pj := range nj.Pods {
					if kj, ok := podgroup.KeyOf(pj.Pod); ok && kj == k {
						v.pods = append(v.pods, pj)
						v.nodes = append(v.nodes, nj.Node().Name)
						if t := podStart(pj.Pod); v.start == nil || t != nil && t.Before(v.start.Time) {
							v.start = t
						}
					}
				}
			}
			out = append(out, v)
		}
	}
	return out
}

func (s *Scheduler) removeVictim(v *groupVictim) {
	for _, pi := range v.pods {
		_ = s.snapshot.RemovePod(pi.Pod)
	}
}

func (s *Scheduler) addVictim(v *groupVictim) {
	for i, pi := range v.pods {
		_ = s.snapshot.AddPodInfo(pi, v.nodes[i])
	}
}

// podGroupPostFilter is the PodGroupPostFilter extension point for a
// group that did not fit, as v1.37.2's default profile runs it:
// DynamicResources has nothing to free for pods without claims (an
// Unschedulable status without reasons), then DefaultPreemption's
// workload-aware preemption (PodGroupEvaluator.Preempt) over the whole
// cluster: every pod of lower priority than the group is removed, the
// group's algorithm runs again, and the victims are reprieved one by one,
// the most important first (those whose eviction violates a budget
// before the others), while every member still fits where it went. The
// status is what the framework returns; a preemption decided is returned
// for submitGroup to act on.
func (s *Scheduler) podGroupPostFilter(ctx context.Context, q *queue, prof *framework.Profile, pg *api.PodGroup, k podgroup.Key, members []*entry) (*framework.Status, *groupPreemption) {
	// The framework runs the plugins in the profile's order and keeps
	// the reasons of those that leave the group Unschedulable; the first
	// that succeeds or finds the group unresolvable ends the run.
	var reasons []string
	if _, ok := prof.Plugin(config.DynamicResourcesName); ok {
		// No claim to free here: DynamicResources' PodGroupPostFilter
		// ends with this reason.
		reasons = append(reasons, "deallocation and deletion of ResourceClaims completed")
	}
	if _, ok := prof.Plugin(config.DefaultPreemptionName); !ok {
		return framework.NewStatus(framework.Unschedulable, reasons...), nil
	}
	st, pre := s.workloadPreemption(ctx, q, prof, pg, k, members)
	if st.Code() == framework.Unschedulable {
		return framework.NewStatus(framework.Unschedulable, append(reasons, st.Reasons()...)...), pre
	}
	return st, pre
}

// workloadPreemption is DefaultPreemption's PodGroupPostFilter.
func (s *Scheduler) workloadPreemption(ctx context.Context, q *queue, prof *framework.Profile, pg *api.PodGroup, k podgroup.Key, members []*entry) (*framework.Status, *groupPreemption) {
	wrap := func(code framework.Code, msg string) *framework.Status {
		return framework.NewStatus(code, "pod group preemption: "+msg)
	}
	if preemptionPolicyOf(members[0].qpi.Pod) == api.PreemptNever {
		return wrap(framework.Unschedulable, "not eligible due to preemptionPolicy=Never."), nil
	}
	prio := pg.PriorityValue()
	var potential []*groupVictim
	for _, v := range s.groupVictims() {
		if v.priority < prio {
			potential = append(potential, v)
		}
	}
	if len(potential) == 0 {
		return wrap(framework.UnschedulableAndUnresolvable, "No preemption victims found for incoming preemptor"), nil
	}
	for _, v := range potential {
		s.removeVictim(v)
	}
	restoreAll := func() {
		for _, v := range potential {
			s.addVictim(v)
		}
	}
	gang := false
	if _, ok := prof.Plugin(config.GangSchedulingName); ok {
		gang = true
	}
	out := podGroupAlgorithm(ctx, schedOps{s: s, q: q, pg: pg, gang: gang}, members, s.scheduledCount(k))
	type assignment struct {
		e    *entry
		node string
	}
	var assigned []assignment
	for _, r := range out.pods {
		if r.status.IsSuccess() && r.res.Node != "" {
			assigned = append(assigned, assignment{r.e, r.res.Node})
		}
	}
	out.revert()
	if !out.status.IsSuccess() {
		restoreAll()
		code := out.status.Code()
		if code == framework.Wait {
			code = framework.Unschedulable
		}
		return wrap(code, out.message()), nil
	}
	slices.SortStableFunc(potential, func(a, b *groupVictim) int {
		switch {
		case moreImportantVictim(a, b):
			return -1
		case moreImportantVictim(b, a):
			return 1
		}
		return 0
	})
	// A victim is atomic: it violates a budget when any of its pods does.
	var flat []*api.Pod
	for _, v := range potential {
		for _, pi := range v.pods {
			flat = append(flat, pi.Pod)
		}
	}
	var pdbs []*api.PodDisruptionBudget
	for b := range cluster.AllObjects[api.PodDisruptionBudget](s.snapshot.Objects()) {
		pdbs = append(pdbs, b)
	}
	bad, _ := preemption.FilterPodsWithPDBViolation(flat, preemption.CompilePDBs(pdbs))
	violatesPod := map[*api.Pod]bool{}
	for _, p := range bad {
		violatesPod[p] = true
	}
	var violating, nonViolating []*groupVictim
	for _, v := range potential {
		if slices.ContainsFunc(v.pods, func(pi *cluster.PodInfo) bool { return violatesPod[pi.Pod] }) {
			violating = append(violating, v)
		} else {
			nonViolating = append(nonViolating, v)
		}
	}
	fits := func() bool {
		var added []*api.Pod
		defer func() {
			for _, p := range added {
				_ = s.snapshot.RemovePod(p)
			}
		}()
		for _, a := range assigned {
			pod := a.e.qpi.Pod
			view := s.snapshot.View()
			ni, ok := view.Get(a.node)
			if !ok {
				return false
			}
			state := framework.NewCycleState()
			if _, st, _ := prof.RunPreFilterPlugins(ctx, state, pod, view.Nodes()); !st.IsSuccess() {
				return false
			}
			if st := prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, s.nominated[a.node]); !st.IsSuccess() {
				return false
			}
			if err := s.snapshot.AssumePod(pod, a.node); err != nil {
				return false
			}
			added = append(added, pod)
		}
		return true
	}
	var evict []*groupVictim
	for _, v := range append(violating, nonViolating...) {
		s.addVictim(v)
		if !fits() {
			s.removeVictim(v)
			evict = append(evict, v)
		}
	}
	slices.SortStableFunc(evict, func(a, b *groupVictim) int {
		switch {
		case moreImportantVictim(a, b):
			return -1
		case moreImportantVictim(b, a):
			return 1
		}
		return 0
	})
	n := 0
	for _, v := range evict {
		n += len(v.pods)
	}
	pre := &groupPreemption{nominated: map[*entry]string{}, victims: evict}
	for _, a := range assigned {
		pre.nominated[a.e] = a.node
	}
	return wrap(framework.Success, fmt.Sprintf("found a placement for podgroup, preempting %d victims", n)), pre
}

// actuateGroupPreemption acts on a group's preemption once its pods are
// back in the queue: the victims are already out of the snapshot; the
// members are nominated to their nodes, each records the victims evicted
// from its node, the placed pods evicted lose their node, and the pods
// the evictions may help move back to the active queue.
func (s *Scheduler) actuateGroupPreemption(q *queue, members []*entry, pre *groupPreemption) {
	byNode := map[string][]*api.Pod{}
	var all []*api.Pod
	for _, v := range pre.victims {
		for i, pi := range v.pods {
			byNode[v.nodes[i]] = append(byNode[v.nodes[i]], pi.Pod)
			all = append(all, pi.Pod)
		}
	}
	preemptor := members[0].qpi.Pod
	for _, p := range all {
		if ve, ok := q.byKey[keyOf(p)]; ok && ve.where == isPlaced && ve.node != "" {
			ve.node, ve.preemptedBy = "", preemptor
		}
	}
	for _, e := range members {
		node, ok := pre.nominated[e]
		if !ok {
			continue
		}
		q.nominate(e, node)
		e.preemptions = append(e.preemptions, Preemption{Attempt: e.qpi.Attempts, Node: node, Victims: byNode[node]})
	}
	for _, p := range all {
		// The victims' claims are released as the resourceclaim
		// controller releases them; an error leaves a claim reserved.
		if evs, err := s.releaseClaims(p); err == nil {
			s.emit(q, evs...)
		}
	}
	q.moveOnEvent(framework.AssignedPodDelete)
	if q != s.q {
		s.q.moveOnEvent(framework.AssignedPodDelete)
	}
}
