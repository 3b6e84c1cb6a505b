package api

import (
	"strings"

	"github.com/schedkit/schedkit/quantity"
)

// ResourceName names a resource: cpu, memory, ephemeral-storage, pods,
// hugepages-<size>, or an extended resource such as nvidia.com/gpu.
type ResourceName string

// Well-known resource names.
const (
	ResourceCPU              ResourceName = "cpu"
	ResourceMemory           ResourceName = "memory"
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
	ResourcePods             ResourceName = "pods"
	ResourceStorage          ResourceName = "storage"
)

// ResourceHugePagesPrefix prefixes the names of huge page resources,
// such as hugepages-2Mi.
const ResourceHugePagesPrefix = "hugepages-"

// ResourceDefaultNamespacePrefix is the prefix of names in the
// kubernetes.io namespace.
const ResourceDefaultNamespacePrefix = "kubernetes.io/"

// IsHugePages reports whether n names a huge page resource.
func (n ResourceName) IsHugePages() bool {
	return strings.HasPrefix(string(n), ResourceHugePagesPrefix)
}

// IsNativeResource reports whether n is in the kubernetes.io namespace:
// it has no domain prefix or contains "kubernetes.io/" (upstream's test is
// a substring match, so "foo.kubernetes.io/x" counts as native too).
func (n ResourceName) IsNativeResource() bool {
	s := string(n)
	return !strings.Contains(s, "/") || strings.Contains(s, ResourceDefaultNamespacePrefix)
}

// IsExtended reports whether n is an extended resource: a
// domain-qualified name outside kubernetes.io that is not a requests.
// quota name.
func (n ResourceName) IsExtended() bool {
	s := string(n)
	return !n.IsNativeResource() && !strings.HasPrefix(s, "requests.")
}

// ResourceList maps resource names to quantities.
type ResourceList map[ResourceName]quantity.Quantity

// Cpu returns the cpu quantity, or zero.
func (l ResourceList) Cpu() quantity.Quantity { return l[ResourceCPU] }

// Memory returns the memory quantity, or zero.
func (l ResourceList) Memory() quantity.Quantity { return l[ResourceMemory] }

// ResourceRequirements are a container's (or pod's) requests and limits.
type ResourceRequirements struct {
	// Limits cap what may be used.
	Limits ResourceList `json:"limits,omitempty"`
	// Requests are what the scheduler reserves.
	Requests ResourceList `json:"requests,omitempty"`
	// Claims name dynamic resource claims the container uses.
	Claims []ContainerResourceClaim `json:"claims,omitempty"`
}

// ContainerResourceClaim names a pod resource claim a container uses
// (core/v1 ResourceClaim; ResourceClaim here is the resource.k8s.io
// object).
type ContainerResourceClaim struct {
	// Name of the claim in pod.spec.resourceClaims.
	Name string `json:"name"`
	// Request within the claim, if any.
	Request string `json:"request,omitempty"`
}
