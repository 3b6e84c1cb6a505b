package scheduler

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/preemption"
)

// The scheduler's handle is what DefaultPreemption needs: the profile of
// the pod being scheduled, the nominated pods of the queue being run and
// the seeded random source.
var _ preemption.Handle = handle{}

// ProfileFor returns the profile that schedules pod.
func (h handle) ProfileFor(pod *api.Pod) (*framework.Profile, bool) {
	p, err := h.s.profileFor(pod)
	return p, err == nil
}

// NominatedPodsForNode returns the pods of the queue being run nominated
// to the node.
func (h handle) NominatedPodsForNode(node string) []*cluster.PodInfo { return h.s.nominated[node] }

// RandInt31n draws from the scheduler's seeded source.
func (h handle) RandInt31n(n int32) int32 { return h.s.rng.Int32N(n) }

// Preemption is one preemption a pod's scheduling cycle made: the node
// nominated and the pods evicted from it.
type Preemption struct {
	// Attempt is the pod's scheduling cycle that preempted (1 for the
	// first).
	Attempt int
	// Node is the nominated node.
	Node string
	// Victims are the pods evicted, most important first.
	Victims []*api.Pod
	// NumPDBViolations is how many evictions violated a
	// PodDisruptionBudget.
	NumPDBViolations int
}

// preempt acts on a PostFilter result for the parked pod e of q, as
// kube-scheduler's preemption executor and the API server would: the
// pod is nominated to the node (or its nomination cleared), the victims
// are deleted from the snapshot (their claims released, see
// releaseClaims), the pods of lower priority nominated to
// the node lose their nomination, and the parked pods the deletions may
// help are moved back to the active queue (the preemptor among them). It
// returns the preemption, nil when nothing was evicted.
func (s *Scheduler) preempt(q *queue, e *entry, r *framework.PostFilterResult) (*Preemption, error) {
	if r == nil {
		return nil, nil
	}
	q.nominate(e, r.NominatedNodeName)
	if r.NominatedNodeName == "" || len(r.Victims) == 0 {
		return nil, nil
	}
	prio := framework.PodPriority(e.qpi.Pod)
	var claimEvents []framework.Event
	for _, v := range r.Victims {
		if err := s.snapshot.RemovePod(v); err != nil {
			return nil, err
		}
		evs, err := s.releaseClaims(v)
		if err != nil {
			return nil, err
		}
		claimEvents = append(claimEvents, evs...)
		if ve, ok := q.byKey[keyOf(v)]; ok && ve.where == isPlaced && ve.node != "" {
			ve.node, ve.preemptedBy = "", e.qpi.Pod
		}
	}
	for _, pi := range append([]*cluster.PodInfo(nil), q.nominated[r.NominatedNodeName]...) {
		if framework.PodPriority(pi.Pod) >= prio {
			continue
		}
		for _, other := range q.all {
			if other.pi == pi {
				q.nominate(other, "")
			}
		}
	}
	s.emit(q, claimEvents...)
	q.moveOnEvent(framework.AssignedPodDelete)
	if q != s.q {
		s.q.moveOnEvent(framework.AssignedPodDelete)
	}
	return &Preemption{Attempt: e.qpi.Attempts, Node: r.NominatedNodeName, Victims: r.Victims, NumPDBViolations: r.NumPDBViolations}, nil
}
