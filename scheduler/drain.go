package scheduler

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/preemption"
)

// kubectl drain's texts for the pods its filters refuse or warn about
// (k8s.io/kubectl v0.37.2 pkg/drain).
const (
	DrainDaemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	DrainDaemonSetWarning    = "ignoring DaemonSet-managed Pods"
	DrainLocalStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	DrainLocalStorageWarning = "deleting Pods with local storage"
	DrainUnmanagedFatal      = "Pods that declare no controller (use --force to override)"
	DrainUnmanagedWarning    = "deleting Pods that declare no controller"
)

// mirrorPodAnnotation marks the API server's copy of a static pod.
const mirrorPodAnnotation = "kubernetes.io/config.mirror"

// DrainOptions are kubectl drain's flags, and the pods already waiting.
// The zero value is `kubectl drain NODE` with no flag.
type DrainOptions struct {
	// IgnoreDaemonSets is --ignore-daemonsets: DaemonSet pods stay,
	// with a warning, instead of refusing the drain.
	IgnoreDaemonSets bool
	// DeleteEmptyDirData is --delete-emptydir-data: pods with emptyDir
	// volumes are evicted, with a warning, instead of refusing the drain.
	DeleteEmptyDirData bool
	// Force is --force: pods without a controller, and DaemonSet pods
	// whose DaemonSet is gone, are evicted with a warning instead of
	// refusing the drain. Nothing recreates them.
	Force bool
	// DisableEviction is --disable-eviction: pods are deleted, bypassing
	// the PodDisruptionBudgets, instead of evicted.
	DisableEviction bool
	// PodSelector is --pod-selector: only the pods whose labels it
	// selects are drained; the others stay and are not listed. "" selects
	// every pod.
	PodSelector string
	// Pending are pods already waiting to be scheduled: they are
	// scheduled with the replacements, in queue order.
	Pending []*api.Pod
}

// DrainOutcome is what a drain does to one pod.
type DrainOutcome int

const (
	// DrainEvicted: the eviction API evicted the pod.
	DrainEvicted DrainOutcome = iota + 1
	// DrainDeleted: the pod was deleted (DisableEviction).
	DrainDeleted
	// DrainIgnored: kubectl leaves the pod on the node: a mirror pod, or
	// a DaemonSet pod with IgnoreDaemonSets.
	DrainIgnored
	// DrainRefused: one of kubectl's filters refused the pod, so kubectl
	// does not drain its node (DrainReport.Errors).
	DrainRefused
	// DrainNotDrained: the pod stays because another pod of its node was
	// refused.
	DrainNotDrained
	// DrainBlocked: the eviction API refused the eviction (a
	// PodDisruptionBudget); kubectl retries until its timeout, and the
	// budgets do not recover within a what-if.
	DrainBlocked
)

var drainOutcomeNames = [...]string{"", "Evicted", "Deleted", "Ignored", "Refused", "NotDrained", "Blocked"}

// String is the outcome's name, such as "Evicted".
func (o DrainOutcome) String() string {
	if o <= 0 || int(o) >= len(drainOutcomeNames) {
		return "DrainOutcome(" + strconv.Itoa(int(o)) + ")"
	}
	return drainOutcomeNames[o]
}

// DrainedPod is one pod of a drained node that PodSelector selects.
type DrainedPod struct {
	// Moved is the pod, its node and, for an evicted or deleted pod, when
	// and whether a controller replaces it, and where the replacement
	// goes.
	Moved
	// Outcome is what the drain did to the pod.
	Outcome DrainOutcome
	// Message is kubectl's filter text for a pod it warns about or
	// refuses (DrainUnmanagedWarning, DrainDaemonSetFatal, ...), the
	// eviction API's refusal for a blocked one, "" otherwise.
	Message string
	// Blocked is the eviction API's refusal, for DrainBlocked.
	Blocked *preemption.EvictionError
}

// DrainError is kubectl drain's refusal to drain a node: one line per
// filter text, "cannot delete TEXT: ns/a, ns/b", in the order of the
// pods.
type DrainError struct {
	// Node is the node not drained.
	Node string
	// Lines are the refusals.
	Lines []string
}

// Error is kubectl's aggregate of the lines: the line alone, or the
// lines in brackets, comma separated.
func (e *DrainError) Error() string {
	if len(e.Lines) == 1 {
		return e.Lines[0]
	}
	return "[" + strings.Join(e.Lines, ", ") + "]"
}

// DrainReport is the outcome of a drain what-if.
type DrainReport struct {
	// Cordoned are the nodes marked unschedulable.
	Cordoned []string
	// Pods are the pods of the drained nodes that PodSelector selects,
	// node by node in the order given, in each node's order.
	Pods []DrainedPod
	// Warnings are kubectl's warning lines, one per node that has any:
	// "TEXT: ns/a, ns/b; TEXT: ns/c".
	Warnings []string
	// Errors are the nodes kubectl does not drain, and why.
	Errors []*DrainError
	// Pending are the placements of DrainOptions.Pending.
	Pending []Placement
	// Gangs summarise the PodGroups of the replacements and the pending
	// pods, with GenericWorkload on (Gangs); nil otherwise.
	Gangs []GangSummary
}

// Drain is a what-if of `kubectl drain` with the flags opt gives. The
// nodes are cordoned. On each node, kubectl's filters judge the pods
// PodSelector selects, in kubectl's order: DaemonSet pods, mirror pods,
// pods with emptyDir volumes, pods without a controller. A pod a filter
// refuses (without IgnoreDaemonSets, DeleteEmptyDirData or Force) stops
// the drain of its node: nothing there is evicted, and the node is in
// Errors with kubectl's texts. Finished pods pass every filter. On the
// other nodes each remaining pod is evicted through the eviction API's
// checks against the PodDisruptionBudgets of the snapshot's object store
// (preemption.Budgets, each eviction using one disruption), or deleted
// with DisableEviction. A budget whose status the disruption controller
// never wrote (observedGeneration 0 and no counts) is given the status
// it would compute from the snapshot's pods. Evicted pods leave the
// snapshot. The replacements of those a controller recreates are
// scheduled together with opt.Pending, with Simulate. With
// GenericWorkload on, a replacement of a PodGroup's pod joins its
// group as a new pod does in kube-scheduler: the replacements of one
// group run one PodGroup cycle, counting the members still scheduled
// toward minCount, all placed or none.
//
// A DaemonSet pod whose DaemonSet is missing from an object store that
// holds DaemonSets is orphaned, as kubectl finds it: refused, or evicted
// with Force. A store without any DaemonSet is taken to be an input that
// left them out, and its DaemonSet pods are managed.
func (s *Scheduler) Drain(ctx context.Context, nodes []string, now time.Time, opt DrainOptions) (*DrainReport, error) {
	sel, err := affinity.ParseSelector(opt.PodSelector)
	if err != nil {
		return nil, fmt.Errorf("pod selector %q: %w", opt.PodSelector, err)
	}
	rep := &DrainReport{}
	var infos []*cluster.NodeInfo
	for _, name := range nodes {
		ni, ok := s.snapshot.Get(name)
		if !ok {
			return nil, fmt.Errorf("node %q is not in the snapshot", name)
		}
		infos = append(infos, ni)
	}
	for _, ni := range infos {
		n := *ni.Node()
		if !n.Spec.Unschedulable {
			n.Spec.Unschedulable = true
			if err := s.UpdateNode(&n); err != nil {
				return nil, err
			}
		}
		rep.Cordoned = append(rep.Cordoned, n.Name)
	}
	objs := s.snapshot.Objects()
	budgets := preemption.NewBudgets(s.drainBudgets(objs))
	var evicted []*api.Pod
	var from []string
	var idx []int
	for _, ni := range infos {
		node := ni.Node().Name
		first := len(rep.Pods)
		var warn, fatal messageGroups
		for _, pi := range ni.Pods {
			p := pi.Pod
			if !sel.Matches(p.Labels) {
				continue
			}
			dp := DrainedPod{Moved: Moved{Pod: p, From: node}}
			st := drainFilter(p, opt, objs)
			switch {
			case st.fatal:
				dp.Outcome, dp.Message = DrainRefused, st.message
				fatal.add(st.message, p)
			case !st.delete:
				dp.Outcome, dp.Message = DrainIgnored, st.message
				if st.message != "" {
					warn.add(st.message, p)
				}
			default:
				dp.Message = st.message
				if st.message != "" {
					warn.add(st.message, p)
				}
			}
			rep.Pods = append(rep.Pods, dp)
		}
		if len(fatal.keys) > 0 {
			e := &DrainError{Node: node}
			for _, k := range fatal.keys {
				e.Lines = append(e.Lines, "cannot delete "+k+": "+strings.Join(fatal.pods[k], ", "))
			}
			rep.Errors = append(rep.Errors, e)
			for i := first; i < len(rep.Pods); i++ {
				if rep.Pods[i].Outcome == 0 {
					rep.Pods[i].Outcome, rep.Pods[i].Message = DrainNotDrained, ""
				}
			}
			continue
		}
		if w := warn.String(); w != "" {
			rep.Warnings = append(rep.Warnings, w)
		}
		for i := first; i < len(rep.Pods); i++ {
			dp := &rep.Pods[i]
			if dp.Outcome != 0 {
				continue
			}
			if opt.DisableEviction {
				dp.Outcome = DrainDeleted
			} else if err := budgets.Evict(dp.Pod, now); err != nil {
				dp.Outcome, dp.Message = DrainBlocked, err.Error()
				dp.Blocked, _ = err.(*preemption.EvictionError)
				continue
			} else {
				dp.Outcome = DrainEvicted
			}
			evicted = append(evicted, dp.Pod)
			from = append(from, node)
			idx = append(idx, i)
		}
	}
	moved, pending, err := s.evictAndReplace(ctx, evicted, from, now, opt.Pending)
	if err != nil {
		return nil, err
	}
	var scheduled []Placement
	for j, m := range moved {
		rep.Pods[idx[j]].Moved = m
		if m.Replaced {
			scheduled = append(scheduled, m.Placement)
		}
	}
	rep.Pending = pending
	rep.Gangs = s.Gangs(append(scheduled, pending...))
	return rep, nil
}

// filterStatus is kubectl's PodDeleteStatus: whether the pod is
// deleted, whether the drain is refused, and the filter's text.
type filterStatus struct {
	delete, fatal bool
	message       string
}

// drainFilter runs kubectl drain's filters on p in kubectl's order. A
// filter that keeps the pod ends the run; otherwise the last filter's
// status is the pod's, so a warning of an earlier filter is dropped by a
// later one, as kubectl drops it.
func drainFilter(p *api.Pod, opt DrainOptions, objs *cluster.Objects) filterStatus {
	finished := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
	ok := filterStatus{delete: true}
	filters := [...]func() filterStatus{
		func() filterStatus { // DaemonSet pods
			c := api.GetControllerOf(&p.ObjectMeta)
			if c == nil || c.Kind != "DaemonSet" || c.APIVersion != "apps/v1" || finished {
				return ok
			}
			if objs != nil && objs.Len(cluster.KindDaemonSet) > 0 {
				if _, found := cluster.GetObject[api.DaemonSet](objs, p.Namespace, c.Name); !found {
					msg := fmt.Sprintf("daemonsets.apps %q not found", c.Name)
					if opt.Force {
						return filterStatus{delete: true, message: msg}
					}
					return filterStatus{fatal: true, message: msg}
				}
			}
			if !opt.IgnoreDaemonSets {
				return filterStatus{fatal: true, message: DrainDaemonSetFatal}
			}
			return filterStatus{message: DrainDaemonSetWarning}
		},
		func() filterStatus { // mirror pods
			if _, found := p.Annotations[mirrorPodAnnotation]; found {
				return filterStatus{}
			}
			return ok
		},
		func() filterStatus { // local storage
			if !hasEmptyDir(p) || finished {
				return ok
			}
			if !opt.DeleteEmptyDirData {
				return filterStatus{fatal: true, message: DrainLocalStorageFatal}
			}
			return filterStatus{delete: true, message: DrainLocalStorageWarning}
		},
		func() filterStatus { // pods without a controller
			if finished || api.GetControllerOf(&p.ObjectMeta) != nil {
				return ok
			}
			if opt.Force {
				return filterStatus{delete: true, message: DrainUnmanagedWarning}
			}
			return filterStatus{fatal: true, message: DrainUnmanagedFatal}
		},
	}
	var st filterStatus
	for _, f := range filters {
		if st = f(); !st.delete {
			break
		}
	}
	return st
}

func hasEmptyDir(p *api.Pod) bool {
	for i := range p.Spec.Volumes {
		if p.Spec.Volumes[i].EmptyDir != nil {
			return true
		}
	}
	return false
}

// messageGroups groups pod names by message, messages in the order met.
type messageGroups struct {
	keys []string
	pods map[string][]string
}

func (g *messageGroups) add(msg string, p *api.Pod) {
	if g.pods == nil {
		g.pods = map[string][]string{}
	}
	if _, ok := g.pods[msg]; !ok {
		g.keys = append(g.keys, msg)
	}
	g.pods[msg] = append(g.pods[msg], p.Namespace+"/"+p.Name)
}

// String is kubectl's warning line: "TEXT: ns/a, ns/b; TEXT: ns/c".
func (g *messageGroups) String() string {
	parts := make([]string, len(g.keys))
	for i, k := range g.keys {
		parts[i] = k + ": " + strings.Join(g.pods[k], ", ")
	}
	return strings.Join(parts, "; ")
}

// drainBudgets are the object store's PodDisruptionBudgets, each one the
// disruption controller never saw given the status it would write.
func (s *Scheduler) drainBudgets(objs *cluster.Objects) []*api.PodDisruptionBudget {
	if objs == nil {
		return nil
	}
	var bound []*api.Pod
	var pdbs []*api.PodDisruptionBudget
	for b := range cluster.AllObjects[api.PodDisruptionBudget](objs) {
		st := b.Status
		if st.ObservedGeneration != 0 || st.ExpectedPods != 0 || st.DisruptionsAllowed != 0 || st.CurrentHealthy != 0 || st.DesiredHealthy != 0 {
			pdbs = append(pdbs, b)
			continue
		}
		if bound == nil {
			for _, ni := range s.snapshot.Nodes() {
				for _, pi := range ni.Pods {
					bound = append(bound, pi.Pod)
				}
			}
		}
		c := *b
		c.Status = computedBudgetStatus(b, bound)
		pdbs = append(pdbs, &c)
	}
	return pdbs
}

// computedBudgetStatus is the status the disruption controller writes for
// pdb: the selected pods of its namespace are expected (the controllers'
// scale is taken to be their pod count), the Ready ones not being
// deleted are healthy, the desired count comes from minAvailable or
// maxUnavailable (percentages rounded up), and the disruptions allowed
// are the healthy pods above it.
func computedBudgetStatus(pdb *api.PodDisruptionBudget, pods []*api.Pod) api.PodDisruptionBudgetStatus {
	st := api.PodDisruptionBudgetStatus{ObservedGeneration: pdb.Generation}
	sel, err := affinity.CompileLabelSelector(pdb.Spec.Selector)
	if err != nil || pdb.Spec.Selector == nil {
		sel = affinity.Nothing()
	}
	for _, p := range pods {
		if p.Namespace != pdb.Namespace || !sel.Matches(p.Labels) {
			continue
		}
		st.ExpectedPods++
		if p.DeletionTimestamp == nil && podReady(p) {
			st.CurrentHealthy++
		}
	}
	switch {
	case pdb.Spec.MinAvailable != nil:
		st.DesiredHealthy = scaledUp(*pdb.Spec.MinAvailable, st.ExpectedPods)
	case pdb.Spec.MaxUnavailable != nil:
		st.DesiredHealthy = max(0, st.ExpectedPods-scaledUp(*pdb.Spec.MaxUnavailable, st.ExpectedPods))
	}
	st.DisruptionsAllowed = max(0, st.CurrentHealthy-st.DesiredHealthy)
	return st
}

func podReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// scaledUp is an int, or a percentage of total rounded up.
func scaledUp(v api.IntOrString, total int32) int32 {
	if !v.IsString {
		return v.IntVal
	}
	pct, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	if err != nil {
		return 0
	}
	return int32(math.Ceil(float64(pct) * float64(total) / 100))
}
