package admission

import (
	"strings"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// ResourceResourceClaims is the resource of DRA ResourceClaims, whose
// object count quota is count/resourceclaims.resource.k8s.io.
const ResourceResourceClaims = "resourceclaims.resource.k8s.io"

// DeviceClassDevicesSuffix joins a DeviceClass name into its quota name:
// "gpu" + DeviceClassDevicesSuffix is gpu.deviceclass.resource.k8s.io/devices,
// the devices a namespace's claims may request of the class.
const DeviceClassDevicesSuffix = ".deviceclass.resource.k8s.io/devices"

// implicitExtendedQuotaPrefix names, with a class name, the quota of the
// implicit extended resource of a DeviceClass.
const implicitExtendedQuotaPrefix = "requests." + deviceClassPrefix

// DRAQuota is what the ResourceClaim quota evaluator reads besides the
// claim: the cluster's DeviceClasses (their extendedResourceName maps
// an extended resource to a class) and, for a claim the scheduler made
// for a pod's extended resources, the pods and claims of its namespace,
// so that what the pod already charges is not charged twice.
type DRAQuota struct {
	DeviceClasses []*api.DeviceClass
	Pods          []*api.Pod
	Claims        []*api.ResourceClaim
}

// CountedResourceClaim is the Counted of a DRA ResourceClaim, evaluated
// with q (nil: no DeviceClass maps an extended resource).
func CountedResourceClaim(c *api.ResourceClaim, q *DRAQuota) Counted {
	return Counted{Resource: ResourceResourceClaims, Object: c, Meta: &c.ObjectMeta, DRA: q}
}

// resourceClaimEval is upstream's claimEvaluator with DRAExtendedResource
// on, as v1.37.2 has it.
type resourceClaimEval struct {
	claim *api.ResourceClaim
	q     *DRAQuota
	now   time.Time
}

// classOfExtended is the DeviceClass an extended resource name maps to,
// as upstream's extended resource cache picks it: the implicit
// deviceclass.resource.kubernetes.io/<class> always; an
// extendedResourceName two classes share goes to the newer class, the
// lower name on equal creation times.
func (q *DRAQuota) classOfExtended(name string) *api.DeviceClass {
	if q == nil {
		return nil
	}
	var best *api.DeviceClass
	for _, c := range q.DeviceClasses {
		if deviceClassPrefix+c.Name == name {
			return c
		}
		if c.Spec.ExtendedResourceName == nil || *c.Spec.ExtendedResourceName != name {
			continue
		}
		if best == nil {
			best = c
			continue
		}
		switch t, b := c.CreationTimestamp.UnixNano(), best.CreationTimestamp.UnixNano(); {
		case t > b, t == b && c.Name < best.Name:
			best = c
		}
	}
	return best
}

// extendedOfClass is the class's extendedResourceName, "" if none or
// the class is unknown.
func (q *DRAQuota) extendedOfClass(class string) string {
	if q == nil {
		return ""
	}
	for _, c := range q.DeviceClasses {
		if c.Name == class && c.Spec.ExtendedResourceName != nil {
			return *c.Spec.ExtendedResourceName
		}
	}
	return ""
}

// matching is upstream's MatchingResources: the object count, every
// per-class devices name, the implicit requests.deviceclass… name of a
// class that has an extendedResourceName, and requests.<name> of an
// extended resource name some class maps.
func (e resourceClaimEval) matching(input []api.ResourceName) []api.ResourceName {
	out := []api.ResourceName{}
	for _, n := range input {
		s := string(n)
		if n == CountResourceName(ResourceResourceClaims) || strings.HasSuffix(s, DeviceClassDevicesSuffix) {
			out = append(out, n)
			continue
		}
		if class, ok := strings.CutPrefix(s, implicitExtendedQuotaPrefix); ok && e.q.extendedOfClass(class) != "" {
			out = append(out, n)
			continue
		}
		if isQuotaExtended(n) && e.q.classOfExtended(s[len("requests."):]) != nil {
			out = append(out, n)
		}
	}
	return out
}

func (resourceClaimEval) matchesScope(api.ScopedResourceSelectorRequirement) (bool, error) {
	return false, nil
}
func (resourceClaimEval) constraints([]api.ResourceName) error { return nil }

func (e resourceClaimEval) usage() api.ResourceList {
	return ResourceClaimQuotaUsage(e.claim, e.q, e.now)
}

// ResourceClaimQuotaUsage is what a ResourceClaim charges a
// ResourceQuota (upstream's claimEvaluator.Usage): count 1; per
// DeviceClass the devices its requests may get, an All request counting
// as many as one allocation holds (32) and a prioritized list its
// largest alternative per class, an unknown mode nothing; and each
// class's devices again under requests.deviceclass.resource.kubernetes.io/<class>
// and requests.<extendedResourceName>, less what the owning pod already
// charges there when the claim is the one the scheduler made for the
// pod's extended resources (the first such claim of the pod, unless the
// pod's status names another).
func ResourceClaimQuotaUsage(c *api.ResourceClaim, q *DRAQuota, now time.Time) api.ResourceList {
	out := api.ResourceList{CountResourceName(ResourceResourceClaims): one()}
	devices := func(mode api.DeviceAllocationMode, count int64) int64 {
		switch mode {
		case api.DeviceAllocationModeExactCount:
			return count
		case api.DeviceAllocationModeAll:
			return api.AllocationResultsMaxSize
		}
		return 0
	}
	add := func(n api.ResourceName, v int64) {
		cur, ok := out[n]
		if !ok {
			cur = quantity.Quantity{Format: quantity.DecimalSI}
		}
		cur.Add(quantity.NewQuantity(v, quantity.DecimalSI))
		out[n] = cur
	}
	for _, r := range c.Spec.Devices.Requests {
		switch {
		case len(r.FirstAvailable) > 0:
			most := map[api.ResourceName]int64{}
			for _, s := range r.FirstAvailable {
				n := api.ResourceName(s.DeviceClassName + DeviceClassDevicesSuffix)
				v := devices(s.AllocationMode, s.Count)
				if old, ok := most[n]; !ok || v > old {
					most[n] = v
				}
			}
			for n, v := range most {
				add(n, v)
			}
		case r.Exactly != nil:
			add(api.ResourceName(r.Exactly.DeviceClassName+DeviceClassDevicesSuffix), devices(r.Exactly.AllocationMode, r.Exactly.Count))
		}
	}
	podUsage := q.verifiedPodUsage(c, now)
	extended := api.ResourceList{}
	for n, v := range out {
		class, ok := strings.CutSuffix(string(n), DeviceClassDevicesSuffix)
		if !ok || class == "" {
			continue
		}
		extended[api.ResourceName(implicitExtendedQuotaPrefix+class)] = v
		if ext := q.extendedOfClass(class); ext != "" {
			extended[api.ResourceName("requests."+ext)] = v
		}
	}
	for n, v := range extended {
		if p, ok := podUsage[n]; ok {
			v.Sub(p)
		}
		if v.CmpInt64(0) > 0 {
			out[n] = v
		}
	}
	return out
}

// verifiedPodUsage is the quota usage of the pod a claim made for its
// extended resources belongs to, when the pod confirms it (upstream's
// getVerifiedPodUsage); nil otherwise.
func (q *DRAQuota) verifiedPodUsage(c *api.ResourceClaim, now time.Time) api.ResourceList {
	if q == nil || c.Annotations[api.ExtendedResourceClaimAnnotation] != "true" {
		return nil
	}
	var ref *api.OwnerReference
	for i := range c.OwnerReferences {
		if o := &c.OwnerReferences[i]; o.Controller != nil && *o.Controller {
			ref = o
			break
		}
	}
	if ref == nil || ref.Kind != "Pod" || ref.APIVersion != "v1" {
		return nil
	}
	var pod *api.Pod
	for _, p := range q.Pods {
		if p.Namespace == c.Namespace && p.Name == ref.Name {
			pod = p
			break
		}
	}
	if pod == nil || pod.UID != ref.UID {
		return nil
	}
	if st := pod.Status.ExtendedResourceClaimStatus; st != nil {
		if st.ResourceClaimName != c.Name {
			return nil
		}
	} else {
		// Without the pod's word, only its first extended resource
		// claim (by creation time, then name) is exempted.
		for _, o := range q.Claims {
			if o == c || o.Namespace != c.Namespace || o.Annotations[api.ExtendedResourceClaimAnnotation] != "true" || !ownedByPod(o, pod.UID) {
				continue
			}
			switch o.CreationTimestamp.Compare(c.CreationTimestamp.Time) {
			case -1:
				return nil
			case 0:
				if o.Name < c.Name {
					return nil
				}
			}
		}
	}
	return PodQuotaUsage(pod, now)
}

func ownedByPod(c *api.ResourceClaim, uid string) bool {
	for _, o := range c.OwnerReferences {
		if o.Controller != nil && *o.Controller && o.Kind == "Pod" && o.APIVersion == "v1" && o.UID == uid {
			return true
		}
	}
	return false
}
