package config

// Plugin names, as kube-scheduler's (pkg/scheduler/framework/plugins/names).
// The filter half of a plugin in package predicates and its score half in
// package priorities share one name.
const (
	PrioritySortName                    = "PrioritySort"
	DefaultBinderName                   = "DefaultBinder"
	DefaultPreemptionName               = "DefaultPreemption"
	DynamicResourcesName                = "DynamicResources"
	GangSchedulingName                  = "GangScheduling"
	ImageLocalityName                   = "ImageLocality"
	InterPodAffinityName                = "InterPodAffinity"
	NodeAffinityName                    = "NodeAffinity"
	NodeDeclaredFeaturesName            = "NodeDeclaredFeatures"
	NodeNameName                        = "NodeName"
	NodePortsName                       = "NodePorts"
	NodeResourcesBalancedAllocationName = "NodeResourcesBalancedAllocation"
	NodeResourcesFitName                = "NodeResourcesFit"
	NodeUnschedulableName               = "NodeUnschedulable"
	NodeVolumeLimitsName                = "NodeVolumeLimits"
	PodTopologySpreadName               = "PodTopologySpread"
	SchedulingGatesName                 = "SchedulingGates"
	TaintTolerationName                 = "TaintToleration"
	VolumeBindingName                   = "VolumeBinding"
	VolumeRestrictionsName              = "VolumeRestrictions"
	VolumeZoneName                      = "VolumeZone"
)

// SelectorSpreadName names the optional SelectorSpread plugin: a
// kube-scheduler plugin until v1.26 (removed in v1.27), registered by
// schedkit with its last semantics but not in the default profile.
const SelectorSpreadName = "SelectorSpread"
