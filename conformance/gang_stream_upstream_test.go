package conformance

import (
	"errors"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
)

// noActivator is the PodActivator of a queue that holds no pods:
// GangScheduling's Permit activates a waiting gang's other members, which
// the gang stream has all in its cycle already.
type noActivator struct{}

func (noActivator) Activate(klog.Logger, map[string]*v1.Pod) {}

// addGroup is what the scheduler's informers do when a PodGroup and its
// unscheduled pods appear: the cache records the group and its members.
func (u *upStream) addGroup(pg *schedulingv1beta1.PodGroup, pods []*v1.Pod) {
	u.cache.AddPodGroup(pg)
	for _, p := range pods {
		u.cache.AddPodGroupMember(p)
	}
}

// upMember is one member's outcome in upstream's PodGroup cycle.
type upMember struct {
	pod    *v1.Pod
	state  *schedframework.CycleState
	node   string
	tied   []string
	status *fwk.Status
}

// placeGroup is scheduleOnePodGroup for a leaf PodGroup without the queue
// and the API server (schedule_one_podgroup.go, TopologyAwareWorkloadScheduling
// and CompositePodGroup off): UpdateSnapshot; the group from the snapshot;
// podGroupSchedulingDefaultAlgorithm (PlacementFeasible, then each member
// in order: schedulePod with a cycle state marked as the group's, assumed
// in the snapshot and reserved so that the next members see it,
// PlacementFeasible after each); the snapshot's assumptions reverted; on
// success each placed member assumed in the cache, reserved and through
// Permit (GangScheduling waits until the gang's minCount is assumed, then
// allows the waiting members), as submitPodGroupAlgorithmResult and
// prepareForBindingCycle do. pods are in the queue's member order.
//
// With want set (the lockstep check) member i takes want[i] when it is
// among the nodes tied at its best total. It returns each member's node
// ("" for none) and tied nodes, and the group's status. Not driven:
// validatePodGroup, PodGroupPostFilter (a group that does not fit stays
// unplaced), binding.
func (u *upStream) placeGroup(pg *schedulingv1beta1.PodGroup, pods []*v1.Pod, want []string) ([]upMember, *fwk.Status, error) {
	ctx, logger := u.ctx, u.logger
	if err := u.cache.UpdateSnapshot(logger, u.snap); err != nil {
		return nil, nil, err
	}
	snapPG, err := u.snap.PodGroups().Get(pg.Namespace, pg.Name)
	if err != nil {
		return nil, nil, err
	}
	pgi := &schedframework.PodGroupInfo{Namespace: pg.Namespace, Name: pg.Name, Type: fwk.PodGroupKeyType,
		UnscheduledPods: pods, PodGroup: snapPG}
	pgState := schedframework.NewCycleState()
	placement := schedframework.NewCycleState()
	placement.SetPodGroupSchedulingCycle(pgState)
	groupState, err := u.snap.PodGroupStates().Get(pg.Namespace, pg.Name)
	if err != nil {
		return nil, nil, err
	}
	progress := schedframework.PlacementProgress{Remaining: len(pods), Scheduled: groupState.ScheduledPodsCount()}
	var reverts []func() error
	members := make([]upMember, len(pods))
	status := u.fw.RunPlacementFeasiblePlugins(ctx, placement, pgi, progress)
	anyScheduled := false
	if status.Code() != fwk.Unschedulable && !status.IsError() {
		for i, pod := range pods {
			state := schedframework.NewCycleState()
			state.Write(schedframework.PodsToActivateKey, schedframework.NewPodsToActivate())
			state.SetPodGroupSchedulingCycle(pgState)
			state.SetPlacementCycleState(placement)
			m := &members[i]
			m.pod, m.state = pod, state
			c, err := u.schedulePod(state, pod, want != nil)
			switch {
			case errors.Is(err, errUpNoFit):
				m.status = fwk.NewStatus(fwk.Unschedulable, "no fit")
			case err != nil:
				return nil, nil, err
			default:
				m.node, m.tied = c.node, c.tied
				if want != nil && slices.Contains(c.tied, want[i]) {
					m.node = want[i]
				}
				revert, err := u.assumeInSnapshot(state, pod, m.node)
				if err != nil {
					return nil, nil, err
				}
				reverts = append(reverts, revert)
			}
			progress.Remaining--
			if m.status.IsSuccess() {
				progress.Scheduled++
			}
			status = u.fw.RunPlacementFeasiblePlugins(ctx, placement, pgi, progress)
			if status.Code() == fwk.Unschedulable || status.IsError() {
				break
			}
			anyScheduled = anyScheduled || m.status.IsSuccess()
		}
	}
	if status.IsWait() {
		status = fwk.NewStatus(fwk.Unschedulable, status.Reasons()...)
	}
	if status.IsSuccess() && !anyScheduled {
		status = fwk.NewStatus(fwk.Unschedulable)
	}
	for i := len(reverts) - 1; i >= 0; i-- {
		if err := reverts[i](); err != nil {
			return nil, nil, err
		}
	}
	if !status.IsSuccess() {
		for i := range members {
			members[i].node = ""
		}
		return members, status, nil
	}
	var waiting []*v1.Pod
	for i := range members {
		m := &members[i]
		if m.node == "" {
			continue
		}
		m.state.SetPodGroupSchedulingCycle(nil)
		assumed := m.pod.DeepCopy()
		assumed.Spec.NodeName = m.node
		if err := u.cache.AssumePod(logger, assumed); err != nil {
			return nil, nil, err
		}
		if st := u.fw.RunReservePluginsReserve(ctx, m.state, assumed, m.node); !st.IsSuccess() {
			return nil, nil, st.AsError()
		}
		waits, st := u.fw.RunPermitPlugins(ctx, m.state, assumed, m.node)
		switch {
		case st.IsWait():
			u.fw.AddWaitingPod(assumed, waits)
			waiting = append(waiting, assumed)
		case !st.IsSuccess():
			return nil, nil, fmt.Errorf("permit %s: %v", assumed.Name, st.AsError())
		}
	}
	// The binding cycles wait on Permit; the last member's Permit
	// allowed the others.
	for _, p := range waiting {
		if st := u.fw.WaitOnPermit(ctx, p); !st.IsSuccess() {
			return nil, nil, fmt.Errorf("wait on permit %s: %v", p.Name, st.AsError())
		}
	}
	return members, status, nil
}

// assumeInSnapshot is assumeAndReserveWithRevert in a PodGroup cycle: the
// pod is assumed in the cycle's snapshot (not the cache) and reserved;
// the revert unreserves it and forgets it from the snapshot.
func (u *upStream) assumeInSnapshot(state *schedframework.CycleState, pod *v1.Pod, node string) (func() error, error) {
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = node
	pi, err := schedframework.NewPodInfo(assumed)
	if err != nil {
		return nil, err
	}
	if err := u.snap.AssumePod(pi); err != nil {
		return nil, err
	}
	if st := u.fw.RunReservePluginsReserve(u.ctx, state, assumed, node); !st.IsSuccess() {
		return nil, st.AsError()
	}
	return func() error {
		u.fw.RunReservePluginsUnreserve(u.ctx, state, assumed, node)
		return u.snap.ForgetPod(u.logger, assumed)
	}, nil
}
