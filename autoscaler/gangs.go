package autoscaler

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/scheduler"
)

// cluster-autoscaler v1.37 has no gang awareness: its scheduling
// simulation checks each pending pod on its own and keeps no PodGroups
// (kubernetes/autoscaler issues #8783, gang scheduling support, closed
// unimplemented, and #9570: "current code pretends that PodGroups don't
// exist"). PlanScaleUp given a scheduler with GenericWorkload off makes
// its plan; GangsAfterScaleUp is the gang-aware answer beside it.

// GangHelp is one pending PodGroup on the cluster with a scale-up's new
// nodes, its pods scheduled as one unit by the PodGroup cycle.
type GangHelp struct {
	scheduler.GangSummary
	// Helped: the whole gang (at least minCount of its pods) places with
	// the new nodes, all or nothing as kube-scheduler places it.
	Helped bool `json:"helped"`
}

// GangsAfterScaleUp schedules the pending pods (preemption off, as
// PlanScaleUp counts them) on a fork of s with up's new nodes, and
// summarises each PodGroup of theirs: a gang is helped only if the
// whole gang fits with the new nodes. s must have GenericWorkload on
// (nil otherwise). s is not changed.
func GangsAfterScaleUp(ctx context.Context, s *scheduler.Scheduler, pending []*api.Pod, up *ScaleUp) ([]GangHelp, error) {
	if !s.FeatureGates().GenericWorkload() {
		return nil, nil
	}
	f, err := s.Fork()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	for _, n := range up.Nodes {
		if err := f.AddNode(n.Node); err != nil {
			return nil, err
		}
	}
	sim := make([]*api.Pod, len(pending))
	for i, p := range pending {
		sim[i] = noPreemption(p)
	}
	placed, err := f.Simulate(ctx, sim)
	if err != nil {
		return nil, err
	}
	var out []GangHelp
	for _, g := range f.Gangs(placed) {
		out = append(out, GangHelp{GangSummary: g, Helped: g.Placed > 0})
	}
	return out, nil
}

// gangMember reports whether p joins a PodGroup on s: its replacement
// must keep its preemption policy, which validatePodGroup requires to
// be one across the group's scheduled and queued pods.
func gangMember(s *scheduler.Scheduler, p *api.Pod) bool {
	_, ok := podgroup.KeyOf(p)
	return ok && s.FeatureGates().GenericWorkload()
}
