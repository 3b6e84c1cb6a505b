package plugins

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/defaultpreemption"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
	"github.com/schedkit/schedkit/plugins/gangscheduling"
	"github.com/schedkit/schedkit/plugins/imagelocality"
	"github.com/schedkit/schedkit/plugins/interpodaffinity"
	"github.com/schedkit/schedkit/plugins/legacy"
	"github.com/schedkit/schedkit/plugins/nodeaffinity"
	"github.com/schedkit/schedkit/plugins/nodedeclaredfeatures"
	"github.com/schedkit/schedkit/plugins/nodename"
	"github.com/schedkit/schedkit/plugins/nodeports"
	"github.com/schedkit/schedkit/plugins/noderesources"
	"github.com/schedkit/schedkit/plugins/nodeunschedulable"
	"github.com/schedkit/schedkit/plugins/nodevolumelimits"
	"github.com/schedkit/schedkit/plugins/podtopologyspread"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/plugins/schedulinggates"
	"github.com/schedkit/schedkit/plugins/tainttoleration"
	"github.com/schedkit/schedkit/plugins/volumebinding"
	"github.com/schedkit/schedkit/plugins/volumerestrictions"
	"github.com/schedkit/schedkit/plugins/volumezone"
)

// NewInTreeRegistry returns the factories of the in-tree plugins under
// kube-scheduler's names, one factory per plugin folder.
func NewInTreeRegistry() framework.Registry {
	return framework.Registry{
		queuesort.Name:                             queuesort.New,
		schedulinggates.Name:                       schedulinggates.New,
		defaultbinder.Name:                         defaultbinder.New,
		config.NodeNameName:                        nodename.New,
		config.NodeUnschedulableName:               nodeunschedulable.New,
		config.NodePortsName:                       nodeports.New,
		config.TaintTolerationName:                 tainttoleration.New,
		config.NodeResourcesFitName:                noderesources.NewFit,
		config.NodeAffinityName:                    nodeaffinity.New,
		config.PodTopologySpreadName:               podtopologyspread.New,
		config.InterPodAffinityName:                interpodaffinity.New,
		config.NodeResourcesBalancedAllocationName: noderesources.NewBalancedAllocation,
		config.ImageLocalityName:                   imagelocality.New,
		config.VolumeBindingName:                   volumebinding.New,
		config.VolumeRestrictionsName:              volumerestrictions.New,
		config.NodeVolumeLimitsName:                nodevolumelimits.New,
		config.VolumeZoneName:                      volumezone.New,
		config.NodeDeclaredFeaturesName:            nodedeclaredfeatures.New,
		config.DynamicResourcesName:                dynamicresources.New,
		defaultpreemption.Name:                     defaultpreemption.New,
		gangscheduling.Name:                        gangscheduling.New,

		// Optional: removed upstream, enabled by a Policy or a profile.
		config.NodeLabelName:               legacy.NewNodeLabel,
		config.ServiceAffinityName:         legacy.NewServiceAffinity,
		config.NodePreferAvoidPodsName:     legacy.NewNodePreferAvoidPods,
		config.EqualPriorityName:           legacy.NewEqualPriority,
		config.SelectorSpreadName:          legacy.NewSelectorSpread,
		config.CheckNodeMemoryPressureName: legacy.NewCheckNodeMemoryPressure,
		config.CheckNodeDiskPressureName:   legacy.NewCheckNodeDiskPressure,
		config.CheckNodePIDPressureName:    legacy.NewCheckNodePIDPressure,
	}
}

// EventsOf returns the cluster events kube-scheduler registers for an
// in-tree plugin that has no plugin type here to register them. It is
// the fallback for a plugin that does not implement
// framework.EnqueueExtensions.
func EventsOf(plugin string) (framework.ClusterEvent, bool) {
	switch plugin {
	case config.DynamicResourcesName:
		// A new node or a node's new labels may offer the devices a
		// claim needs; claims, classes and slices change what is free.
		return framework.NodeAdd | framework.NodeUpdate |
			framework.ResourceClaimAdd | framework.ResourceClaimUpdate | framework.ResourceClaimDelete |
			framework.PodGeneratedResourceClaim | framework.DeviceClassAdd | framework.DeviceClassUpdate |
			framework.ResourceSliceAdd | framework.ResourceSliceUpdate, true
	}
	return 0, false
}
