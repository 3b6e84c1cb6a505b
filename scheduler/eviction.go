package scheduler

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/taints"
)

// controllerOf returns the pod's managing controller reference, nil for
// a bare pod.
func controllerOf(pod *api.Pod) *api.OwnerReference {
	for i := range pod.OwnerReferences {
		if c := pod.OwnerReferences[i].Controller; c != nil && *c {
			return &pod.OwnerReferences[i]
		}
	}
	return nil
}

// replacement is the pod a controller would create in place of an
// evicted one: the same spec without a node, and a fresh status. It
// keeps the name, so reports can be read side by side.
func replacement(pod *api.Pod) *api.Pod {
	r := *pod
	r.Spec.NodeName = ""
	r.Status = api.PodStatus{Phase: api.PodPending}
	r.DeletionTimestamp = nil
	return &r
}

// Moved is a pod evicted from a node and what became of its
// replacement.
type Moved struct {
	// Pod is the evicted pod.
	Pod *api.Pod
	// From is the node it was evicted from.
	From string
	// At is when it was evicted.
	At time.Time
	// Replaced is false for a pod no controller owns: it is gone.
	Replaced bool
	// Placement is its replacement's scheduling (Node empty and Err set
	// when it stays Pending); zero when not Replaced.
	Placement Placement
}

// evictAndReplace removes evicted (pods on from) from the snapshot and
// schedules replacements for those a controller owns, together, with
// Simulate.
func (s *Scheduler) evictAndReplace(ctx context.Context, evicted []*api.Pod, from []string, at time.Time) ([]Moved, error) {
	out := make([]Moved, len(evicted))
	var again []*api.Pod
	var idx []int
	for i, p := range evicted {
		if err := s.RemovePod(p); err != nil {
			return nil, err
		}
		out[i] = Moved{Pod: p, From: from[i], At: at, Replaced: controllerOf(p) != nil}
		if out[i].Replaced {
			again = append(again, replacement(p))
			idx = append(idx, i)
		}
	}
	if len(again) == 0 {
		return out, nil
	}
	placed, err := s.Simulate(ctx, again)
	if err != nil {
		return nil, err
	}
	for j, pl := range placed {
		out[idx[j]].Placement = pl
	}
	return out, nil
}

// TaintEviction is one pod the taint eviction controller evicts after a
// node's taints change.
type TaintEviction struct {
	Moved
	// Decision is the controller's: Now, or At a time (the smallest
	// tolerationSeconds of the pod's tolerations of the NoExecute
	// taints).
	Decision taints.Decision
}

// TaintNode is a what-if over time: the node's taints become newTaints at
// time at (for the node lifecycle controller's not-ready and unreachable
// taints of a Ready condition, pass taints.WithConditionTaints), and
// the taint eviction controller evicts the pods that do not tolerate the
// NoExecute taints, at once or when their tolerationSeconds run out (the
// DefaultTolerationSeconds admission plugin gives most pods 300 s for
// those two taints; see admission.AddDefaultTolerations for pods that
// were not admitted). In order of eviction time, each group of pods evicted at one
// time is removed from the snapshot and their replacements (pods a
// controller owns) are scheduled with Simulate on the cluster as it is
// then — the tainted node excluded unless they tolerate it. Pods that
// tolerate the taints forever stay and are not listed. The snapshot keeps
// the new taints and the moves.
func (s *Scheduler) TaintNode(ctx context.Context, node string, newTaints []api.Taint, at time.Time) ([]TaintEviction, error) {
	ni, ok := s.snapshot.Get(node)
	if !ok {
		return nil, fmt.Errorf("node %q is not in the snapshot", node)
	}
	old := ni.Node()
	updated := *old
	updated.Spec.Taints = append([]api.Taint(nil), newTaints...)
	pods := make([]*api.Pod, 0, len(ni.Pods))
	for _, pi := range ni.Pods {
		pods = append(pods, pi.Pod)
	}
	evictions := taints.PodsToEvict(pods, old.Spec.Taints, newTaints, at)
	if err := s.UpdateNode(&updated); err != nil {
		return nil, err
	}
	sort.SliceStable(evictions, func(i, j int) bool { return evictions[i].Decision.Time.Before(evictions[j].Decision.Time) })
	var out []TaintEviction
	for i := 0; i < len(evictions); {
		j := i
		for j < len(evictions) && evictions[j].Decision.Time.Equal(evictions[i].Decision.Time) {
			j++
		}
		group := make([]*api.Pod, 0, j-i)
		from := make([]string, 0, j-i)
		for _, e := range evictions[i:j] {
			group = append(group, e.Pod)
			from = append(from, node)
		}
		moved, err := s.evictAndReplace(ctx, group, from, evictions[i].Decision.Time)
		if err != nil {
			return out, err
		}
		for k, m := range moved {
			out = append(out, TaintEviction{Moved: m, Decision: evictions[i+k].Decision})
		}
		i = j
	}
	return out, nil
}

// DrainReport is the outcome of a drain what-if.
type DrainReport struct {
	// Cordoned are the nodes marked unschedulable.
	Cordoned []string
	// Moved are the pods evicted, with their replacements' placements.
	Moved []Moved
	// Blocked are the evictions the eviction API refused (a
	// PodDisruptionBudget allowing no disruption, or several budgets
	// for one pod); those pods stay.
	Blocked []*preemption.EvictionError
	// Skipped are the pods kubectl drain --ignore-daemonsets leaves:
	// DaemonSet pods and mirror (static) pods.
	Skipped []*api.Pod
}

// Drain is a what-if of `kubectl drain --ignore-daemonsets --force`:
// the nodes are cordoned, then every pod on them except DaemonSet and
// mirror pods is evicted through the eviction API's checks against the
// PodDisruptionBudgets in the snapshot's object store (preemption.Budgets:
// each eviction uses one of its budget's disruptionsAllowed; kubectl
// would retry refused evictions, and the budgets do not recover within a
// what-if). Evicted pods leave the snapshot; the replacements of those a
// controller owns are scheduled together with Simulate, and bare pods are
// gone. Pods are taken node by node, in the order given, and in each
// node's order.
func (s *Scheduler) Drain(ctx context.Context, nodes []string, now time.Time) (*DrainReport, error) {
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
	var pdbs []*api.PodDisruptionBudget
	if objs := s.snapshot.Objects(); objs != nil {
		for b := range cluster.AllObjects[api.PodDisruptionBudget](objs) {
			pdbs = append(pdbs, b)
		}
	}
	budgets := preemption.NewBudgets(pdbs)
	var evicted []*api.Pod
	var from []string
	for _, ni := range infos {
		for _, pi := range ni.Pods {
			p := pi.Pod
			if c := controllerOf(p); (c != nil && c.Kind == "DaemonSet") || p.Annotations["kubernetes.io/config.mirror"] != "" {
				rep.Skipped = append(rep.Skipped, p)
				continue
			}
			if err := budgets.Evict(p, now); err != nil {
				rep.Blocked = append(rep.Blocked, err.(*preemption.EvictionError))
				continue
			}
			evicted = append(evicted, p)
			from = append(from, ni.Node().Name)
		}
	}
	moved, err := s.evictAndReplace(ctx, evicted, from, now)
	rep.Moved = moved
	return rep, err
}
