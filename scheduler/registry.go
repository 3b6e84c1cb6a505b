package scheduler

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
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
		config.InterPodAffinityName: framework.CombineFactories(config.InterPodAffinityName,
			predicates.NewInterPodAffinity, priorities.NewInterPodAffinity),
		config.NodeResourcesBalancedAllocationName: priorities.NewNodeResourcesBalancedAllocation,
		config.ImageLocalityName:                   priorities.NewImageLocality,
	}
}
