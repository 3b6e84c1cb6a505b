package resource

import (
	"strings"

	"github.com/schedkit/schedkit/api"
)

// Resource name prefixes and names beyond those in package api.
const (
	// ResourceRequestsPrefix prefixes quota names for requests
	// (requests.cpu, requests.nvidia.com/gpu).
	ResourceRequestsPrefix = "requests."
	// ResourceAttachableVolumesPrefix prefixes the node resources that
	// count attachable volumes.
	ResourceAttachableVolumesPrefix = "attachable-volumes-"
)

// IsHugePageResourceName reports whether name is hugepages-<size>.
func IsHugePageResourceName(name api.ResourceName) bool {
	return strings.HasPrefix(string(name), api.ResourceHugePagesPrefix)
}

// IsPrefixedNativeResource reports whether name contains kubernetes.io/.
// Upstream tests for the substring anywhere in the name, not just at the
// start, and so does this function (api.ResourceName.IsNativeResource
// tests the prefix only).
func IsPrefixedNativeResource(name api.ResourceName) bool {
	return strings.Contains(string(name), api.ResourceDefaultNamespacePrefix)
}

// IsNativeResource reports whether name is in the kubernetes.io
// namespace: it has no domain, or it contains kubernetes.io/.
func IsNativeResource(name api.ResourceName) bool {
	return !strings.Contains(string(name), "/") || IsPrefixedNativeResource(name)
}

// IsExtendedResourceName reports whether name is an extended resource: a
// name outside the kubernetes.io namespace, not a requests. quota name,
// that stays a qualified name with requests. in front of it.
func IsExtendedResourceName(name api.ResourceName) bool {
	if IsNativeResource(name) || strings.HasPrefix(string(name), ResourceRequestsPrefix) {
		return false
	}
	return len(qualifiedNameErrors(ResourceRequestsPrefix+string(name))) == 0
}

// IsAttachableVolumeResourceName reports whether name counts attachable
// volumes.
func IsAttachableVolumeResourceName(name api.ResourceName) bool {
	return strings.HasPrefix(string(name), ResourceAttachableVolumesPrefix)
}

// IsScalarResourceName reports whether the scheduler tracks name as a
// scalar resource: extended, huge pages, prefixed native or attachable
// volumes.
func IsScalarResourceName(name api.ResourceName) bool {
	return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
		IsPrefixedNativeResource(name) || IsAttachableVolumeResourceName(name)
}

// IsOvercommitAllowed reports whether requests of name may be below its
// limit: native resources other than huge pages. Extended resources and
// huge pages must request exactly their limit.
func IsOvercommitAllowed(name api.ResourceName) bool {
	return IsNativeResource(name) && !IsHugePageResourceName(name)
}

// IsStandardContainerResourceName reports whether a container may name
// the unprefixed resource name: cpu, memory, ephemeral-storage or huge
// pages.
func IsStandardContainerResourceName(name api.ResourceName) bool {
	switch name {
	case api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage:
		return true
	}
	return IsHugePageResourceName(name)
}

var standardResources = map[api.ResourceName]bool{
	"cpu": true, "memory": true, "ephemeral-storage": true,
	"requests.cpu": true, "requests.memory": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
	"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true,
	"secrets": true, "configmaps": true, "persistentvolumeclaims": true, "storage": true,
	"requests.storage": true, "services.nodeports": true, "services.loadbalancers": true,
}

// IsStandardResourceName reports whether name is a resource the API
// server knows: the container resources, the object-count quotas and
// their requests./limits. forms, and hugepages-<size> with or without
// requests. in front.
func IsStandardResourceName(name api.ResourceName) bool {
	return standardResources[name] || IsHugePageResourceName(name) ||
		strings.HasPrefix(string(name), ResourceRequestsPrefix+api.ResourceHugePagesPrefix)
}

var integerResources = map[api.ResourceName]bool{
	"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true,
	"secrets": true, "configmaps": true, "persistentvolumeclaims": true,
	"services.nodeports": true, "services.loadbalancers": true,
}

// IsIntegerResourceName reports whether quantities of name must be whole
// numbers: object counts and extended resources.
func IsIntegerResourceName(name api.ResourceName) bool {
	return integerResources[name] || IsExtendedResourceName(name)
}

// IsSupportedPodLevelResource reports whether name may be set in
// pod.spec.resources: cpu, memory and huge pages.
func IsSupportedPodLevelResource(name api.ResourceName) bool {
	return name == api.ResourceCPU || name == api.ResourceMemory || IsHugePageResourceName(name)
}

// SupportedPodLevelResources returns the names IsSupportedPodLevelResource
// accepts, with huge pages as their prefix, sorted.
func SupportedPodLevelResources() []api.ResourceName {
	return []api.ResourceName{api.ResourceCPU, api.ResourceHugePagesPrefix, api.ResourceMemory}
}

// IsPodLevelResourcesSet reports whether the pod sets pod-level requests
// or limits for at least one supported resource.
func IsPodLevelResourcesSet(pod *api.Pod) bool {
	if pod == nil || pod.Spec.Resources == nil {
		return false
	}
	r := pod.Spec.Resources
	return hasSupported(r.Requests) || hasSupported(r.Limits)
}

// IsPodLevelRequestsSet reports whether the pod sets pod-level requests
// for at least one supported resource.
func IsPodLevelRequestsSet(pod *api.Pod) bool {
	return pod != nil && pod.Spec.Resources != nil && hasSupported(pod.Spec.Resources.Requests)
}

// IsPodLevelLimitsSet reports whether the pod sets pod-level limits for at
// least one supported resource.
func IsPodLevelLimitsSet(pod *api.Pod) bool {
	return pod != nil && pod.Spec.Resources != nil && hasSupported(pod.Spec.Resources.Limits)
}

func hasSupported(l api.ResourceList) bool {
	for k := range l {
		if IsSupportedPodLevelResource(k) {
			return true
		}
	}
	return false
}

const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
const dnsSubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
const dnsSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"

// qualifiedNameErrors checks s the way Kubernetes checks a qualified name
// (a label key): an optional DNS-subdomain prefix and '/', then a name of
// at most 63 characters. It returns the problems, none for a valid name.
func qualifiedNameErrors(s string) []string {
	var errs []string
	prefix, name, hasPrefix := strings.Cut(s, "/")
	if hasPrefix && strings.Contains(name, "/") {
		return []string{"a valid label key " + qualifiedNameErrMsg + " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" + qualifiedNameFmt + "') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if !hasPrefix {
		name = s
	} else if prefix == "" {
		errs = append(errs, "prefix part must be non-empty")
	} else {
		if len(prefix) > 253 {
			errs = append(errs, "prefix part must be no more than 253 bytes")
		}
		if !isDNSSubdomain(prefix) {
			errs = append(errs, "prefix part "+dnsSubdomainErrMsg+" (e.g. 'example.com', regex used for validation is '"+dnsSubdomainFmt+"')")
		}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part must be no more than 63 bytes")
	}
	if !isQualifiedNamePart(name) {
		errs = append(errs, "name part "+qualifiedNameErrMsg+" (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '"+qualifiedNameFmt+"')")
	}
	return errs
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isQualifiedNamePart(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isDNSSubdomain(s string) bool {
	if s == "" {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" {
			return false
		}
		first, last := label[0], label[len(label)-1]
		if !isLowerAlnum(first) || !isLowerAlnum(last) {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isLowerAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
