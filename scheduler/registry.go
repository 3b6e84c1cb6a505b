package scheduler

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/preemption"
	"github.com/schedkit/schedkit/priorities"
)

// inTreeRegistry returns the factories of the kube-scheduler plugins
// implemented in packages predicates and priorities, a filter half and a
// score half combined under one name where a plugin has both.
func inTreeRegistry() framework.Registry {
	return framework.Registry{
		config.NodeNameName:          predicates.NewNodeName,
		config.NodeUnschedulableName: predicates.NewNodeUnschedulable,
		config.NodePortsName:         predicates.NewNodePorts,
		config.TaintTolerationName: framework.CombineFactories(config.TaintTolerationName,
			predicates.NewTaintToleration, priorities.NewTaintToleration),
		config.NodeResourcesFitName: framework.CombineFactories(config.NodeResourcesFitName,
			predicates.NewNodeResourcesFit, priorities.NewNodeResourcesFit),
		config.NodeAffinityName: framework.CombineFactories(config.NodeAffinityName,
			predicates.NewNodeAffinity, priorities.NewNodeAffinity),
		config.PodTopologySpreadName: framework.CombineFactories(config.PodTopologySpreadName,
			predicates.NewPodTopologySpread, priorities.NewPodTopologySpread),
		config.InterPodAffinityName: framework.CombineFactories(config.InterPodAffinityName,
			predicates.NewInterPodAffinity, priorities.NewInterPodAffinity),
		config.NodeResourcesBalancedAllocationName: priorities.NewNodeResourcesBalancedAllocation,
		config.ImageLocalityName:                   priorities.NewImageLocality,
		config.VolumeBindingName: framework.CombineFactories(config.VolumeBindingName,
			predicates.NewVolumeBinding, priorities.NewVolumeBinding),
		config.VolumeRestrictionsName:   predicates.NewVolumeRestrictions,
		config.NodeVolumeLimitsName:     predicates.NewNodeVolumeLimits,
		config.VolumeZoneName:           predicates.NewVolumeZone,
		config.NodeDeclaredFeaturesName: predicates.NewNodeDeclaredFeatures,
		config.DefaultPreemptionName:    preemption.New,

		// Optional: removed upstream, enabled by a Policy or a profile.
		config.NodeLabelName: framework.CombineFactories(config.NodeLabelName,
			predicates.NewNodeLabel, priorities.NewNodeLabel),
		config.ServiceAffinityName: framework.CombineFactories(config.ServiceAffinityName,
			predicates.NewServiceAffinity, priorities.NewServiceAffinity),
		config.NodePreferAvoidPodsName:     priorities.NewNodePreferAvoidPods,
		config.EqualPriorityName:           priorities.NewEqualPriority,
		config.SelectorSpreadName:          priorities.NewSelectorSpread,
		config.CheckNodeMemoryPressureName: predicates.NewCheckNodeMemoryPressure,
		config.CheckNodeDiskPressureName:   predicates.NewCheckNodeDiskPressure,
		config.CheckNodePIDPressureName:    predicates.NewCheckNodePIDPressure,
	}
}
