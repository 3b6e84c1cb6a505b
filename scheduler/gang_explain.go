package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/podgroup"
)

// GroupExplanation is what a PodGroup cycle would decide now for the
// group of a pod: which members fit where, in the cycle's order, the
// first that fits nowhere, and whether the gang as a whole fits. Nothing
// is assumed.
type GroupExplanation struct {
	// Group is the pod's PodGroup; MinCount its quorum.
	Group    podgroup.Key
	MinCount int
	// Members are the pods the cycle tried, in its order.
	Members []GroupMember
	// Untried are the pods the cycle stopped before.
	Untried []*api.Pod
	// Fits is the group's success.
	Fits bool
	// Message is the group's status when it does not fit, before
	// PodGroupPostFilter.
	Message string
}

// GroupMember is one tried member: its node, or why it fits nowhere.
type GroupMember struct {
	// Pod is the member.
	Pod *api.Pod
	// Node is where it fits; empty when it does not.
	Node string
	// Err is its fit error when it does not.
	Err error
}

// ErrNotGangMember is ExplainGroup's error for a pod that is not a
// PodGroup member with GenericWorkload on, or whose PodGroup is missing.
var ErrNotGangMember = errors.New("not a member of an existing PodGroup with GenericWorkload on")

// ExplainGroup runs the PodGroup cycle of pod's group as Simulate would
// run it now, over pod and the group's pods waiting in the scheduler's
// queue (Enqueue), then reverts everything it assumed.
func (s *Scheduler) ExplainGroup(ctx context.Context, pod *api.Pod) (*GroupExplanation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.groupOf(pod)
	if !ok {
		return nil, ErrNotGangMember
	}
	pg, ok := handle{s}.PodGroup(k)
	if !ok {
		return nil, fmt.Errorf("pod %s/%s: PodGroup %s/%s: %w", pod.Namespace, pod.Name, k.Namespace, k.Name, ErrNotGangMember)
	}
	pod, err := s.admit(pod)
	if err != nil {
		return nil, err
	}
	q := s.runQueue()
	members := []*entry{{qpi: q.byKeyInfo(pod)}}
	for _, e := range q.all {
		if e.where == isPlaced || e.where == isRejected || q.byKey[keyOf(e.qpi.Pod)] != e || keyOf(e.qpi.Pod) == keyOf(pod) {
			continue
		}
		if pk, ok := podgroup.KeyOf(e.qpi.Pod); ok && pk == k {
			members = append(members, &entry{qpi: e.qpi})
		}
	}
	slices.SortStableFunc(members, podGroupMemberLess)
	ex := &GroupExplanation{Group: k, MinCount: pg.MinCount()}
	if err := s.validatePodGroup(pg, k, members); err != nil {
		return nil, err
	}
	prof, _ := s.profileFor(members[0].qpi.Pod)
	_, gang := prof.Plugin(config.GangSchedulingName)
	out := podGroupAlgorithm(ctx, schedOps{s: s, pg: pg, gang: gang}, members, s.scheduledCount(k))
	out.revert()
	if out.status.IsError() {
		return nil, out.status.AsError()
	}
	tried := map[*entry]bool{}
	for _, r := range out.pods {
		tried[r.e] = true
		ex.Members = append(ex.Members, GroupMember{Pod: r.e.qpi.Pod, Node: r.res.Node, Err: r.err})
	}
	for _, e := range members {
		if !tried[e] {
			ex.Untried = append(ex.Untried, e.qpi.Pod)
		}
	}
	ex.Fits = out.status.IsSuccess()
	if !ex.Fits {
		ex.Message = out.message()
	}
	return ex, nil
}

// byKeyInfo returns the queued info of pod when the queue holds it, else
// a new one.
func (q *queue) byKeyInfo(pod *api.Pod) (qpi framework.QueuedPodInfo) {
	if e, ok := q.byKey[keyOf(pod)]; ok {
		qpi = e.qpi
	}
	qpi.Pod = pod
	return qpi
}
