package predicates

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// ErrReasonNodeDeclaredFeatures is NodeDeclaredFeatures' reason, as
// upstream's.
const ErrReasonNodeDeclaredFeatures = "node(s) didn't match Pod's required features"

// SchedulerVersion is the kube-scheduler version schedkit models; a node
// feature whose last version is older is no longer required of nodes.
const SchedulerVersion = "1.37.2"

// NodeFeature is a feature a node may declare in status.DeclaredFeatureMask,
// as v1.37.2's component-helpers registry (nodedeclaredfeatures) knows it.
type NodeFeature struct {
	// Name is the feature's name, as nodes declare it.
	Name string
	// MaxVersion is the last scheduler version that requires the feature
	// of nodes ("" for none: every version).
	MaxVersion string
	// Required reports whether a pod to schedule needs the feature; nil
	// for features only pod updates need.
	Required func(spec *api.PodSpec) bool
}

// NodeFeatures returns the features of v1.37.2's registry, sorted by name
// (their bit order). Three are inferred for scheduling:
// RestartAllContainersOnContainerExits (a container or init container
// with a restart rule whose action is RestartAllContainers),
// UserNamespacesHostNetworkSupport (hostNetwork with hostUsers false) and
// VolumeBindMountOptions (a volume mount of a container, init container
// or ephemeral container with bindMountOptions). The others are only
// required by pod updates (in-place resize), which schedkit does not
// model, or by DRA.
func NodeFeatures() []NodeFeature {
	return []NodeFeature{
		{Name: "DRANodeAllocatableResources"},
		{Name: "DRAOptionalNodeOperations"},
		{Name: "ExtendWebSocketsToKubelet"},
		{Name: "InPlacePodLevelResourcesVerticalScaling"},
		{Name: "InPlacePodVerticalScalingInitContainers"},
		{Name: "InPlacePodVerticalScalingMemoryBackedVolumes"},
		{Name: "RestartAllContainersOnContainerExits", Required: needsRestartAllContainers},
		{Name: "UserNamespacesHostNetworkSupport", Required: needsUserNamespacesHostNetwork},
		{Name: "VolumeBindMountOptions", Required: needsBindMountOptions},
	}
}

// nodeFeatures is NodeFeatures, built once.
var nodeFeatures = NodeFeatures()

func needsRestartAllContainers(spec *api.PodSpec) bool {
	for _, cs := range [][]api.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			for _, r := range cs[i].RestartPolicyRules {
				if r.Action == api.ContainerRestartRuleActionRestartAllContainers {
					return true
				}
			}
		}
	}
	return false
}

func needsUserNamespacesHostNetwork(spec *api.PodSpec) bool {
	return spec.HostNetwork && spec.HostUsers != nil && !*spec.HostUsers
}

func needsBindMountOptions(spec *api.PodSpec) bool {
	has := func(c *api.Container) bool {
		for j := range c.VolumeMounts {
			if len(c.VolumeMounts[j].BindMountOptions) > 0 {
				return true
			}
		}
		return false
	}
	for _, cs := range [][]api.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			if has(&cs[i]) {
				return true
			}
		}
	}
	for i := range spec.EphemeralContainers {
		if has(&spec.EphemeralContainers[i].Container) {
			return true
		}
	}
	return false
}

// versionAfter reports whether version a ("1.37.2") is after b, comparing
// dot-separated numbers.
func versionAfter(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			fmt.Sscan(as[i], &x)
		}
		if i < len(bs) {
			fmt.Sscan(bs[i], &y)
		}
		if x != y {
			return x > y
		}
	}
	return false
}

// FeatureMask is a set of NodeFeatures, bit i for NodeFeatures()[i].
// A pod fits a node when its required mask has no bit the node's
// declared mask lacks.
type FeatureMask uint64

// RequiredNodeFeatures returns the names of the features pod requires of
// its node, in name order, as v1.37.2's scheduler infers them (see
// NodeFeatures; features whose MaxVersion is before SchedulerVersion are
// not required).
func RequiredNodeFeatures(pod *api.Pod) []string {
	return RequiredFeatureMask(pod).names()
}

// RequiredFeatureMask returns the features pod requires of its node as a
// mask, the set RequiredNodeFeatures names.
func RequiredFeatureMask(pod *api.Pod) FeatureMask {
	var m FeatureMask
	for i, f := range nodeFeatures {
		if f.Required == nil || (f.MaxVersion != "" && versionAfter(SchedulerVersion, f.MaxVersion)) {
			continue
		}
		if f.Required(&pod.Spec) {
			m |= 1 << i
		}
	}
	return m
}

func (m FeatureMask) names() []string {
	var out []string
	for m != 0 {
		i := bits.TrailingZeros64(uint64(m))
		out = append(out, nodeFeatures[i].Name)
		m &^= 1 << i
	}
	return out
}

// DeclaredFeatureMask maps a node's status.DeclaredFeatureMask to a mask as
// upstream's FeatureMapper.TryMap does: one merge pass over the list
// (expected sorted) and the sorted registry, unknown names ignored — so
// a known feature listed after a greater name is missed, as upstream
// misses it.
func DeclaredFeatureMask(node *api.Node) FeatureMask {
	if node == nil {
		return 0
	}
	var m FeatureMask
	list := node.Status.DeclaredFeatures
	i, j := 0, 0
	for i < len(list) && j < len(nodeFeatures) {
		switch name := nodeFeatures[j].Name; {
		case list[i] == name:
			m |= 1 << j
			i++
			j++
		case list[i] < name:
			i++
		default:
			j++
		}
	}
	return m
}

// NodeHasRequiredFeatures reports whether the node declares every feature
// the pod requires (RequiredNodeFeatures).
func NodeHasRequiredFeatures(pod *api.Pod, node *api.Node) bool {
	req := RequiredFeatureMask(pod)
	return req&^DeclaredFeatureMask(node) == 0
}

// NodeDeclaredFeatures is the NodeDeclaredFeatures filter as a plain
// function: nil if the node declares every feature the pod requires,
// else UnschedulableAndUnresolvable with ErrReasonNodeDeclaredFeatures.
func NodeDeclaredFeatures(pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if NodeHasRequiredFeatures(pod, nodeInfo.Node()) {
		return nil
	}
	return nodeDeclaredFeaturesStatus
}

var nodeDeclaredFeaturesStatus = framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeDeclaredFeatures)
