package conformance

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// quotaNames are the resource names generated quotas limit: every kind
// of name the core evaluators and the object counter know, and one that
// none tracks.
var quotaNames = []api.ResourceName{
	"pods", "count/pods", "cpu", "memory", "ephemeral-storage",
	"requests.cpu", "requests.memory", "requests.ephemeral-storage",
	"limits.cpu", "limits.memory", "limits.ephemeral-storage",
	"requests.example.com/gpu", "hugepages-2Mi", "requests.hugepages-2Mi",
	"services", "count/services", "services.loadbalancers", "services.nodeports",
	"persistentvolumeclaims", "count/persistentvolumeclaims", "requests.storage",
	"gold.storageclass.storage.k8s.io/requests.storage", "gold.storageclass.storage.k8s.io/persistentvolumeclaims",
	"count/deployments.apps", "configmaps", "count/configmaps", "example.com/untracked",
	"count/resourceclaims.resource.k8s.io", "gpu.deviceclass.resource.k8s.io/devices", "tpu.deviceclass.resource.k8s.io/devices",
	"requests.deviceclass.resource.kubernetes.io/gpu", "requests.deviceclass.resource.kubernetes.io/tpu",
}

// quotaDeviceClasses draws the cluster's DeviceClasses for the
// ResourceClaim evaluator: gpu (mapping example.com/gpu, sometimes) and
// tpu.
func quotaDeviceClasses() *rapid.Generator[[]*api.DeviceClass] {
	return rapid.Custom(func(t *rapid.T) []*api.DeviceClass {
		var out []*api.DeviceClass
		for _, name := range []string{"gpu", "tpu"} {
			if rapid.IntRange(0, 3).Draw(t, "noClass") == 0 {
				continue
			}
			c := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: name}}
			if name == "gpu" && rapid.Bool().Draw(t, "extended") {
				c.Spec.ExtendedResourceName = ptr("example.com/gpu")
			}
			out = append(out, c)
		}
		return out
	})
}

// quotaResourceClaim draws a DRA claim of one or two requests, exact
// (ExactCount or All) or prioritized lists over gpu and tpu; sometimes
// the extended resource claim the scheduler makes for a pod.
func quotaResourceClaim(ns string) *rapid.Generator[*api.ResourceClaim] {
	return rapid.Custom(func(t *rapid.T) *api.ResourceClaim {
		c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: "rc", Namespace: ns}}
		mode := func() (api.DeviceAllocationMode, int64) {
			if rapid.IntRange(0, 4).Draw(t, "all") == 0 {
				return api.DeviceAllocationModeAll, 0
			}
			return api.DeviceAllocationModeExactCount, int64(rapid.IntRange(1, 3).Draw(t, "count"))
		}
		class := func() string { return rapid.SampledFrom([]string{"gpu", "tpu"}).Draw(t, "class") }
		for i := range rapid.IntRange(1, 2).Draw(t, "requests") {
			r := api.DeviceRequest{Name: fmt.Sprintf("req-%d", i)}
			if rapid.IntRange(0, 2).Draw(t, "firstAvailable") == 0 {
				for j := range 2 {
					m, n := mode()
					r.FirstAvailable = append(r.FirstAvailable, api.DeviceSubRequest{Name: fmt.Sprintf("sub-%d", j), DeviceClassName: class(), AllocationMode: m, Count: n})
				}
			} else {
				m, n := mode()
				r.Exactly = &api.ExactDeviceRequest{DeviceClassName: class(), AllocationMode: m, Count: n}
			}
			c.Spec.Devices.Requests = append(c.Spec.Devices.Requests, r)
		}
		if rapid.IntRange(0, 2).Draw(t, "extendedClaim") == 0 {
			// Its owner is set to an existing pod by resourceQuotaInput.
			c.Annotations = map[string]string{api.ExtendedResourceClaimAnnotation: "true"}
		}
		return c
	})
}

var priorityClasses = []string{"", "low", "high"}

func quotaQuantity(t *rapid.T, n api.ResourceName, label string) quantity.Quantity {
	switch n {
	case "cpu", "requests.cpu", "limits.cpu":
		return resourcegen.CPU().Draw(t, label)
	case "memory", "requests.memory", "limits.memory", "ephemeral-storage", "requests.ephemeral-storage", "limits.ephemeral-storage",
		"requests.storage", "gold.storageclass.storage.k8s.io/requests.storage":
		return resourcegen.Bytes().Draw(t, label)
	case "hugepages-2Mi", "requests.hugepages-2Mi":
		return resourcegen.HugePages().Draw(t, label)
	}
	return quantity.NewQuantity(int64(rapid.IntRange(0, 4).Draw(t, label)), quantity.DecimalSI)
}

func scopeSelector() *rapid.Generator[*api.ScopeSelector] {
	return rapid.Custom(func(t *rapid.T) *api.ScopeSelector {
		if rapid.IntRange(0, 3).Draw(t, "hasSelector") != 0 {
			return nil
		}
		s := &api.ScopeSelector{}
		for range rapid.IntRange(1, 2).Draw(t, "exprs") {
			r := api.ScopedResourceSelectorRequirement{
				ScopeName: rapid.SampledFrom([]api.ResourceQuotaScope{api.ResourceQuotaScopePriorityClass, api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopeVolumeAttributesClass}).Draw(t, "scope"),
				Operator:  rapid.SampledFrom([]api.ScopeSelectorOperator{api.ScopeSelectorOpIn, api.ScopeSelectorOpNotIn, api.ScopeSelectorOpExists, api.ScopeSelectorOpDoesNotExist}).Draw(t, "op"),
			}
			if r.Operator == api.ScopeSelectorOpIn || r.Operator == api.ScopeSelectorOpNotIn {
				r.Values = rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"low", "high", "fast"}), 0, 2, rapid.ID[string]).Draw(t, "values")
			}
			s.MatchExpressions = append(s.MatchExpressions, r)
		}
		return s
	})
}

func resourceQuota(i int) *rapid.Generator[api.ResourceQuota] {
	return rapid.Custom(func(t *rapid.T) api.ResourceQuota {
		q := api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("q%d", i), Namespace: "ns"}}
		q.Spec.Hard = api.ResourceList{}
		for _, n := range rapid.SliceOfNDistinct(rapid.SampledFrom(quotaNames), 1, 5, rapid.ID[api.ResourceName]).Draw(t, "hard") {
			q.Spec.Hard[n] = quotaQuantity(t, n, "hard")
		}
		q.Spec.Scopes = rapid.SliceOfNDistinct(rapid.SampledFrom([]api.ResourceQuotaScope{
			api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopeBestEffort,
			api.ResourceQuotaScopeNotBestEffort, api.ResourceQuotaScopeCrossNamespacePodAffinity}), 0, 2, rapid.ID[api.ResourceQuotaScope]).Draw(t, "scopes")
		if rapid.IntRange(0, 2).Draw(t, "noScopes") == 0 {
			q.Spec.Scopes = nil
		}
		q.Spec.ScopeSelector = scopeSelector().Draw(t, "scopeSelector")
		// A status as the controller would have left it: hard, and used
		// for most hard names (sometimes one is missing).
		q.Status.Hard = q.Spec.Hard
		q.Status.Used = api.ResourceList{}
		for n := range q.Spec.Hard {
			if rapid.IntRange(0, 9).Draw(t, "missingUsed") != 0 {
				q.Status.Used[n] = quotaQuantity(t, n, "used")
			}
		}
		return q
	})
}

func quotaPod(ns string) *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := podWithStatus().Draw(t, "pod")
		p.Name, p.Namespace = rapid.SampledFrom([]string{"web", ""}).Draw(t, "name"), ns
		if p.Name == "" {
			p.GenerateName = "web-"
		}
		p.Spec.PriorityClassName = rapid.SampledFrom(priorityClasses).Draw(t, "class")
		if rapid.IntRange(0, 3).Draw(t, "terminating") == 0 {
			p.Spec.ActiveDeadlineSeconds = ptr(int64(rapid.IntRange(-1, 100).Draw(t, "deadline")))
		}
		if rapid.IntRange(0, 4).Draw(t, "cross") == 0 {
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				Namespaces: []string{"other"}, TopologyKey: "kubernetes.io/hostname"}}}}
		}
		switch rapid.IntRange(0, 9).Draw(t, "phase") {
		case 0:
			p.Status.Phase = api.PodSucceeded
		case 1:
			p.Status.Phase = api.PodFailed
		case 2:
			ts := api.NewTime(regression.QuotaNow().Add(-60e9))
			p.DeletionTimestamp = &ts
			p.DeletionGracePeriodSeconds = ptr(int64(rapid.SampledFrom([]int{30, 120}).Draw(t, "grace")))
		}
		return p
	})
}

func quotaService(ns string) *rapid.Generator[*api.Service] {
	return rapid.Custom(func(t *rapid.T) *api.Service {
		s := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: ns}}
		s.Spec.Type = rapid.SampledFrom([]api.ServiceType{"", api.ServiceTypeClusterIP, api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer, api.ServiceTypeExternalName}).Draw(t, "type")
		for i := range rapid.IntRange(0, 3).Draw(t, "ports") {
			port := api.ServicePort{Port: int32(80 + i)}
			if rapid.Bool().Draw(t, "nodePort") {
				port.NodePort = int32(30000 + i)
			}
			s.Spec.Ports = append(s.Spec.Ports, port)
		}
		if rapid.IntRange(0, 2).Draw(t, "allocate") == 0 {
			s.Spec.AllocateLoadBalancerNodePorts = ptr(rapid.Bool().Draw(t, "allocateValue"))
		}
		return s
	})
}

func quotaClaim(ns string) *rapid.Generator[*api.PersistentVolumeClaim] {
	return rapid.Custom(func(t *rapid.T) *api.PersistentVolumeClaim {
		c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "claim", Namespace: ns}}
		switch rapid.IntRange(0, 3).Draw(t, "class") {
		case 1:
			c.Spec.StorageClassName = ptr("gold")
		case 2:
			c.Spec.StorageClassName = ptr("")
		case 3:
			c.Annotations = map[string]string{api.BetaStorageClassAnnotation: rapid.SampledFrom([]string{"gold", "silver"}).Draw(t, "beta")}
		}
		if rapid.IntRange(0, 4).Draw(t, "noStorage") != 0 {
			q := resourcegen.Bytes().Draw(t, "storage")
			if rapid.IntRange(0, 5).Draw(t, "fraction") == 0 {
				q = quantity.MustParse(rapid.SampledFrom([]string{"1500m", "0.5", "-1Gi"}).Draw(t, "odd"))
			}
			c.Spec.Resources.Requests = api.ResourceList{api.ResourceStorage: q}
		}
		if rapid.IntRange(0, 3).Draw(t, "allocated") == 0 {
			c.Status.AllocatedResources = api.ResourceList{api.ResourceStorage: resourcegen.Bytes().Draw(t, "alloc")}
		}
		if rapid.IntRange(0, 3).Draw(t, "vac") == 0 {
			c.Spec.VolumeAttributesClassName = ptr(rapid.SampledFrom([]string{"low", "fast"}).Draw(t, "vacName"))
		}
		return c
	})
}

func countedObject(ns string) *rapid.Generator[regression.CountedObject] {
	return rapid.Custom(func(t *rapid.T) regression.CountedObject {
		switch rapid.IntRange(0, 6).Draw(t, "kind") {
		case 6:
			return regression.CountedObject{Resource: "resourceclaims.resource.k8s.io", ResourceClaim: quotaResourceClaim(ns).Draw(t, "resourceClaim")}
		case 0, 1, 2:
			return regression.CountedObject{Resource: "pods", Pod: quotaPod(ns).Draw(t, "pod")}
		case 3:
			return regression.CountedObject{Resource: "services", Service: quotaService(ns).Draw(t, "service")}
		case 4:
			return regression.CountedObject{Resource: "persistentvolumeclaims", Claim: quotaClaim(ns).Draw(t, "claim")}
		}
		r := rapid.SampledFrom([]string{"deployments.apps", "configmaps"}).Draw(t, "resource")
		return regression.CountedObject{Resource: r, Meta: &api.ObjectMeta{Name: "obj", Namespace: ns}}
	})
}

func resourceQuotaInput() *rapid.Generator[*regression.ResourceQuotaInput] {
	return rapid.Custom(func(t *rapid.T) *regression.ResourceQuotaInput {
		in := &regression.ResourceQuotaInput{ComputeStatus: rapid.Bool().Draw(t, "computeStatus")}
		for i := range rapid.IntRange(0, 3).Draw(t, "quotas") {
			in.Quotas = append(in.Quotas, resourceQuota(i).Draw(t, "quota"))
		}
		if in.ComputeStatus {
			for i := range in.Quotas {
				// The controller keeps only untracked names of an old
				// status; sometimes there is none at all.
				if rapid.Bool().Draw(t, "noStatus") {
					in.Quotas[i].Status = api.ResourceQuotaStatus{}
				}
			}
			for range rapid.IntRange(0, 6).Draw(t, "existing") {
				ns := "ns"
				if rapid.IntRange(0, 4).Draw(t, "otherNS") == 0 {
					ns = "other"
				}
				o := countedObject(ns).Draw(t, "existing")
				// Names are unique per kind, as in a namespace.
				name := fmt.Sprintf("existing-%d", len(in.Existing))
				switch {
				case o.Pod != nil:
					o.Pod.Name, o.Pod.GenerateName = name, ""
				case o.Service != nil:
					o.Service.Name = name
				case o.Claim != nil:
					o.Claim.Name = name
				case o.ResourceClaim != nil:
					o.ResourceClaim.Name = name
				default:
					o.Meta.Name = name
				}
				in.Existing = append(in.Existing, o)
			}
		}
		in.Object = countedObject("ns").Draw(t, "object")
		in.DeviceClasses = quotaDeviceClasses().Draw(t, "deviceClasses")
		// An extended resource claim is owned by one of the pods, which
		// may name it in its status.
		var pods []*api.Pod
		for _, o := range in.Existing {
			if o.Pod != nil {
				pods = append(pods, o.Pod)
			}
		}
		claims := []*api.ResourceClaim{in.Object.ResourceClaim}
		for _, o := range in.Existing {
			claims = append(claims, o.ResourceClaim)
		}
		for _, c := range claims {
			if c == nil || c.Annotations[api.ExtendedResourceClaimAnnotation] != "true" || len(pods) == 0 {
				continue
			}
			p := rapid.SampledFrom(pods).Draw(t, "owner")
			if p.UID == "" {
				p.UID = "uid-" + p.Name
			}
			c.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: ptr(true)}}
			switch rapid.IntRange(0, 2).Draw(t, "ownerStatus") {
			case 1:
				p.Status.ExtendedResourceClaimStatus = &api.PodExtendedResourceClaimStatus{ResourceClaimName: c.Name}
			case 2:
				p.Status.ExtendedResourceClaimStatus = &api.PodExtendedResourceClaimStatus{ResourceClaimName: "another"}
			}
		}
		return in
	})
}

// TestResourceQuota compares the ResourceQuota admission decision (and
// the quota controller's status.used, when computed) with upstream's
// plugin (resourcequota.CheckRequest) and core evaluators on generated
// namespaces, quotas and objects.
func TestResourceQuota(t *testing.T) {
	Property(t, regression.KindResourceQuota, resourceQuotaInput(), upFn(upstream.ResourceQuota), nil)
}

func validationInput() *rapid.Generator[*regression.ValidationInput] {
	return rapid.Custom(func(t *rapid.T) *regression.ValidationInput {
		p := podWithStatus().Draw(t, "pod")
		p.Status = api.PodStatus{}
		if rapid.Bool().Draw(t, "orderable") {
			// At most one resource per list, so that upstream's order is
			// fixed and compared: containers keep one request and one
			// limit, each possibly invalid.
			for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
				for i := range cs {
					r := requirementsAnyShape().Draw(t, "anyShape")
					keep := rapid.SampledFrom([]api.ResourceName{api.ResourceCPU, api.ResourceMemory, resourcegen.GPU}).Draw(t, "keep")
					cs[i].Resources = api.ResourceRequirements{}
					if q, ok := r.Requests[keep]; ok {
						cs[i].Resources.Requests = api.ResourceList{keep: q}
					}
					if q, ok := r.Limits[keep]; ok {
						cs[i].Resources.Limits = api.ResourceList{keep: q}
					}
				}
			}
			p.Spec.Resources = nil
			if rapid.Bool().Draw(t, "badPolicy") {
				p.Spec.RestartPolicy = "Sometimes"
			}
			if rapid.Bool().Draw(t, "badOverhead") {
				p.Spec.Overhead = api.ResourceList{api.ResourceCPU: quantity.MustParse("-1")}
			}
		}
		switch rapid.IntRange(0, 5).Draw(t, "bend") {
		case 0:
			p.Spec.RestartPolicy = "Sometimes"
		case 1:
			if len(p.Spec.Containers) > 1 {
				p.Spec.Containers[1].Name = p.Spec.Containers[0].Name
			}
		case 2:
			p.Spec.Overhead = api.ResourceList{api.ResourceCPU: quantity.MustParse(rapid.SampledFrom([]string{"-1", "100m"}).Draw(t, "overhead"))}
		case 3:
			never := api.PreemptionPolicy(rapid.SampledFrom([]string{"Never", "Sometimes", ""}).Draw(t, "preemption"))
			p.Spec.PreemptionPolicy = &never
		case 4:
			if len(p.Spec.InitContainers) > 0 {
				p.Spec.InitContainers[0].Name = ""
			}
		}
		return &regression.ValidationInput{Pod: p}
	})
}

// TestValidation compares resource.Validate's paths, texts and order with
// the API server's pod validation on create, on the fields it checks.
func TestValidation(t *testing.T) {
	Property(t, regression.KindValidation, validationInput(), upFn(upstream.Validation), nil)
}
