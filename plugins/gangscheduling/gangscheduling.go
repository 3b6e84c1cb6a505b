package gangscheduling

import (
	"context"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/podgroup"
)

// Name is the plugin's name in a profile.
const Name = config.GangSchedulingName

// PermitTimeout is how long a gang's pods wait at Permit for the
// quorum before they are rejected, as upstream's.
const PermitTimeout = 5 * time.Minute

// Reasons, word for word as v1.37.2's.
const (
	// ReasonWaitingForPods is PreEnqueue's reason while fewer than
	// minCount pods of the gang exist.
	ReasonWaitingForPods = "waiting for minCount pods from a gang to appear in scheduling queue"
	// ReasonWaitingAtPermit is Permit's reason while fewer than minCount
	// pods of the gang are scheduled.
	ReasonWaitingAtPermit = "waiting for minCount pods from a gang to be scheduled"
)

// GangScheduling is kube-scheduler's all-or-nothing plugin for pods of a
// PodGroup with a gang policy.
type GangScheduling struct {
	groups podgroup.Lister
}

var (
	_ framework.PreEnqueuePlugin  = (*GangScheduling)(nil)
	_ framework.EnqueueExtensions = (*GangScheduling)(nil)
)

// New is the GangScheduling factory; it takes no arguments. The handle
// must implement podgroup.Lister (the scheduler's does); otherwise every
// group is missing.
func New(_ any, h framework.Handle) (framework.Plugin, error) {
	l, _ := h.(podgroup.Lister)
	return &GangScheduling{groups: l}, nil
}

// NewWithLister returns the plugin reading groups from l.
func NewWithLister(l podgroup.Lister) *GangScheduling { return &GangScheduling{groups: l} }

// Name returns "GangScheduling".
func (pl *GangScheduling) Name() string { return Name }

// EventsToRegister returns AssignedPodAdd: a pod bound to a node may be
// the member that completes a gang. The other events upstream registers
// (an unscheduled pod or a PodGroup added, minCount lowered) are the
// queue's: it runs PreEnqueue again for a group's waiting pods when a
// member arrives.
func (pl *GangScheduling) EventsToRegister() framework.ClusterEvent { return framework.AssignedPodAdd }

func (pl *GangScheduling) group(k podgroup.Key) (*api.PodGroup, bool) {
	if pl.groups == nil {
		return nil, false
	}
	return pl.groups.PodGroup(k)
}

// PreEnqueue admits a pod of no group, of a basic group, or of a gang
// whose pods number at least minCount. A pod whose PodGroup does not
// exist waits for it.
func (pl *GangScheduling) PreEnqueue(_ context.Context, pod *api.Pod) *framework.Status {
	k, ok := podgroup.KeyOf(pod)
	if !ok {
		return nil
	}
	pg, ok := pl.group(k)
	if !ok {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("waiting for pods's pod group %q to appear in scheduling queue", k.Name))
	}
	gang := pg.Spec.SchedulingPolicy.Gang
	if gang == nil {
		return nil
	}
	if pl.groups.AllPodsCount(k) < int(gang.MinCount) {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonWaitingForPods)
	}
	return nil
}

// Permit lets a gang's pod through once minCount of its pods are
// scheduled (assumed or bound), and otherwise makes it Wait for at most
// PermitTimeout. A pod of no group or of a basic group passes.
func (pl *GangScheduling) Permit(_ context.Context, pod *api.Pod) (*framework.Status, time.Duration) {
	k, ok := podgroup.KeyOf(pod)
	if !ok {
		return nil, 0
	}
	pg, ok := pl.group(k)
	if !ok {
		return framework.AsStatus(fmt.Errorf("failed to get podGroup %s/%s: podgroup.scheduling.k8s.io %q not found", k.Namespace, k.Name, k.Name)), 0
	}
	gang := pg.Spec.SchedulingPolicy.Gang
	if gang == nil {
		return nil, 0
	}
	if pl.groups.ScheduledPodsCount(k) < int(gang.MinCount) {
		return framework.NewStatus(framework.Wait, ReasonWaitingAtPermit), PermitTimeout
	}
	return nil, 0
}

// Progress is how far a PodGroup cycle got: the group's pods still to
// try and those scheduled (assumed in this cycle, or earlier).
type Progress struct {
	// Remaining pods of the cycle not tried yet.
	Remaining int
	// Scheduled pods of the group.
	Scheduled int
}

// PlacementFeasible enforces minCount in a PodGroup cycle: Unschedulable
// once the remaining pods cannot make up minCount (the cycle stops), Wait
// while they still may, success once minCount pods are scheduled. A basic
// group's minCount is 1.
func PlacementFeasible(pg *api.PodGroup, p Progress) *framework.Status {
	minCount := pg.MinCount()
	if p.Remaining+p.Scheduled < minCount {
		return framework.NewStatus(framework.Unschedulable, fmt.Sprintf("minCount (%d) cannot be satisfied: %d scheduled, %d remaining", minCount, p.Scheduled, p.Remaining))
	}
	if p.Scheduled < minCount {
		return framework.NewStatus(framework.Wait, fmt.Sprintf("minCount (%d) is not yet satisfied: %d scheduled, %d remaining", minCount, p.Scheduled, p.Remaining))
	}
	return nil
}

// PlacementFeasible is the plugin's PlacementFeasible extension point
// (the package function).
func (pl *GangScheduling) PlacementFeasible(_ context.Context, pg *api.PodGroup, p Progress) *framework.Status {
	return PlacementFeasible(pg, p)
}
