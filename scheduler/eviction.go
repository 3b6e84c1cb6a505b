package scheduler

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
)

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

// recreated reports whether a controller creates a new pod in place of
// p once p is gone: p has a controller, is not finished (a controller
// counts only active pods, so a finished one is already replaced) and is
// no DaemonSet pod (the DaemonSet controller recreates its pods on their
// node only, and a DaemonSet pod is evicted only when its DaemonSet is
// gone).
func recreated(p *api.Pod) bool {
	c := api.GetControllerOf(&p.ObjectMeta)
	return c != nil && c.Kind != "DaemonSet" && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

// evictAndReplace removes evicted (pods on from) from the snapshot and
// schedules the replacements of those a controller recreates together
// with the pods of pending, with Simulate. It returns the moves and the
// placements of pending.
func (s *Scheduler) evictAndReplace(ctx context.Context, evicted []*api.Pod, from []string, at time.Time, pending []*api.Pod) ([]Moved, []Placement, error) {
	out := make([]Moved, len(evicted))
	var again []*api.Pod
	var idx []int
	for i, p := range evicted {
		if err := s.RemovePod(p); err != nil {
			return nil, nil, err
		}
		out[i] = Moved{Pod: p, From: from[i], At: at, Replaced: recreated(p)}
		if out[i].Replaced {
			again = append(again, replacement(p))
			idx = append(idx, i)
		}
	}
	if len(again)+len(pending) == 0 {
		return out, nil, nil
	}
	placed, err := s.Simulate(ctx, append(again, pending...))
	if err != nil {
		return nil, nil, err
	}
	for j, pl := range placed[:len(again)] {
		out[idx[j]].Placement = pl
	}
	return out, placed[len(again):], nil
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
		moved, _, err := s.evictAndReplace(ctx, group, from, evictions[i].Decision.Time, nil)
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
