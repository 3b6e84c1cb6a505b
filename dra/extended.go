package dra

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// ExtendedResourceClasses maps each extended resource a DeviceClass
// backs to that class: its spec.extendedResourceName and its implicit
// deviceclass.resource.kubernetes.io/<class>. It is the scheduler's
// extended resource cache after it saw the classes in name order, the
// order an informer lists them. Two classes naming the same resource:
// the newer one keeps it, the lower name on equal creation times. A
// class that loses that contest when it is seen gets no mapping at
// all, not even its implicit one, as upstream's cache.
func ExtendedResourceClasses(classes []*api.DeviceClass) map[api.ResourceName]*api.DeviceClass {
	if len(classes) == 0 {
		return nil
	}
	sorted := slices.Clone(classes)
	slices.SortFunc(sorted, func(a, b *api.DeviceClass) int { return cmp.Compare(a.Name, b.Name) })
	out := make(map[api.ResourceName]*api.DeviceClass, len(sorted))
	for _, c := range sorted {
		if n := c.Spec.ExtendedResourceName; n != nil {
			if old, ok := out[api.ResourceName(*n)]; ok {
				switch cmp.Compare(c.CreationTimestamp.UnixNano(), old.CreationTimestamp.UnixNano()) {
				case -1:
					continue
				case 0:
					if c.Name >= old.Name {
						continue
					}
				}
			}
			out[api.ResourceName(*n)] = c
		}
		out[api.ResourceName(api.ResourceDeviceClassPrefix+c.Name)] = c
	}
	return out
}

// IsDRAExtendedResourceName reports whether a DeviceClass may back name:
// an extended resource or a deviceclass.resource.kubernetes.io/ name.
func IsDRAExtendedResourceName(name api.ResourceName) bool {
	return resource.IsExtendedResourceName(name) || strings.HasPrefix(string(name), api.ResourceDeviceClassPrefix)
}

// ExtendedRequests builds the requests of the claim the scheduler makes
// for a pod's extended resources backed by DRA, as upstream's
// createRequestsAndMappings: resources in name order, for each one
// request per long-lived container (regular and sidecar) asking for it,
// named container-<index>-request-<index of the resource among the
// container's sorted requests>, and one request for the largest
// short-lived (non-sidecar init) container's need beyond what the
// long-lived containers after it already request. Requests are sorted
// by name. classOf returns the class backing a resource; resources it
// returns nil for are skipped.
func ExtendedRequests(pod *api.Pod, resources []api.ResourceName, classOf func(api.ResourceName) *api.DeviceClass) ([]api.DeviceRequest, []api.ContainerExtendedResourceRequest) {
	containers := make([]*api.Container, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers))
	for i := range pod.Spec.InitContainers {
		containers = append(containers, &pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		containers = append(containers, &pod.Spec.Containers[i])
	}
	var longLived, shortLived []int
	for i, c := range containers {
		isInit := i < len(pod.Spec.InitContainers)
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways
		if isInit && !sidecar {
			shortLived = append(shortLived, i)
		} else {
			longLived = append(longLived, i)
		}
	}
	names := slices.Clone(resources)
	slices.Sort(names)
	var reqs []api.DeviceRequest
	var mappings []api.ContainerExtendedResourceRequest
	for _, rName := range names {
		class := classOf(rName)
		if class == nil {
			continue
		}
		var shortMaps, longMaps []api.ContainerExtendedResourceRequest
		longReqs := make([]*api.DeviceRequest, len(containers))
		for _, i := range longLived {
			r, m := containerRequest(i, containers[i], rName, class.Name, nil)
			longReqs[i] = r
			longMaps = append(longMaps, m...)
		}
		var maxShort *api.DeviceRequest
		shortNames := map[string]bool{}
		for _, i := range shortLived {
			r, m := containerRequest(i, containers[i], rName, class.Name, longReqs[i:])
			if r != nil {
				shortNames[r.Name] = true
				if maxShort == nil || maxShort.Exactly.Count < r.Exactly.Count {
					maxShort = r
				}
			}
			shortMaps = append(shortMaps, m...)
		}
		if maxShort != nil && len(shortNames) > 1 {
			delete(shortNames, maxShort.Name)
			for i := range shortMaps {
				if shortNames[shortMaps[i].RequestName] {
					shortMaps[i].RequestName = maxShort.Name
				}
			}
		}
		if maxShort != nil {
			reqs = append(reqs, *maxShort)
		}
		for _, r := range longReqs {
			if r != nil {
				reqs = append(reqs, *r)
			}
		}
		mappings = append(mappings, longMaps...)
		mappings = append(mappings, shortMaps...)
	}
	// Upstream sorts with sort.Slice, which is not stable; names are
	// unique per resource and container, so order is the same.
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].Name < reqs[j].Name })
	return reqs, mappings
}

// containerRequest is one container's request for rName, after what the
// reusable requests (of long-lived containers started after it) cover.
func containerRequest(index int, c *api.Container, rName api.ResourceName, class string, reusable []*api.DeviceRequest) (*api.DeviceRequest, []api.ContainerExtendedResourceRequest) {
	creqs := c.Resources.Requests
	if creqs == nil {
		return nil, nil
	}
	q, ok := creqs[rName]
	if !ok {
		return nil, nil
	}
	n, ok := q.AsInt64()
	if !ok || n == 0 {
		return nil, nil
	}
	var mappings []api.ContainerExtendedResourceRequest
	var sum int64
	for _, r := range reusable {
		if r == nil {
			continue
		}
		sum += r.Exactly.Count
		mappings = append(mappings, api.ContainerExtendedResourceRequest{ContainerName: c.Name, ResourceName: string(rName), RequestName: r.Name})
		if sum >= n {
			return nil, mappings
		}
	}
	keys := make([]string, 0, len(creqs))
	for k := range creqs {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	ridx := slices.Index(keys, string(rName))
	name := fmt.Sprintf("container-%d-request-%d", index, ridx)
	req := api.DeviceRequest{Name: name, Exactly: &api.ExactDeviceRequest{
		DeviceClassName: class, AllocationMode: api.DeviceAllocationModeExactCount, Count: n - sum,
	}}
	mappings = append(mappings, api.ContainerExtendedResourceRequest{ContainerName: c.Name, ResourceName: string(rName), RequestName: name})
	return &req, mappings
}
