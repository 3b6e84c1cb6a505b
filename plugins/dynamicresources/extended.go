package dynamicresources

import (
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

// UndelegatedExtendedResources returns, sorted, the extended resources pod
// requests that a DeviceClass maps (spec.extendedResourceName or the
// implicit deviceclass.resource.kubernetes.io/<class>) and that some node
// does not advertise. kube-scheduler v1.37.2 hands such a resource to
// DynamicResources (DRAExtendedResource); schedkit does not yet, so a
// decision for such a pod is not verified.
func UndelegatedExtendedResources(pod *api.Pod, snap *cluster.Snapshot) []api.ResourceName {
	o := snap.Objects()
	if o.Len(cluster.KindDeviceClass) == 0 {
		return nil
	}
	mapped := map[api.ResourceName]bool{}
	for c := range cluster.AllObjects[api.DeviceClass](o) {
		mapped[api.ResourceName("deviceclass.resource.kubernetes.io/"+c.Name)] = true
		if n := c.Spec.ExtendedResourceName; n != nil {
			mapped[api.ResourceName(*n)] = true
		}
	}
	var out []api.ResourceName
	for name, q := range resource.SchedulerRequests(pod) {
		if !mapped[name] || q.IsZero() {
			continue
		}
		for _, ni := range snap.View().Nodes() {
			if _, ok := ni.Node().Status.Allocatable[name]; !ok {
				out = append(out, name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}
