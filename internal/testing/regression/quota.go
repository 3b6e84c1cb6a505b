package regression

import (
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
)

// QuotaNow is the time both sides measure pods' deletion grace periods
// against in a resource quota input.
func QuotaNow() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }

// CountedObject is one object of a namespace, of any kind a quota counts.
type CountedObject struct {
	// Resource is "pods", "services", "persistentvolumeclaims" or another
	// resource ("deployments.apps", "configmaps").
	Resource string                     `json:"resource"`
	Pod      *api.Pod                   `json:"pod,omitempty"`
	Service  *api.Service               `json:"service,omitempty"`
	Claim    *api.PersistentVolumeClaim `json:"claim,omitempty"`
	// ResourceClaim is a DRA claim (resource resourceclaims.resource.k8s.io).
	ResourceClaim *api.ResourceClaim `json:"resourceClaim,omitempty"`
	Meta          *api.ObjectMeta    `json:"meta,omitempty"`
}

func (o *CountedObject) counted(dq *admission.DRAQuota) admission.Counted {
	switch {
	case o.ResourceClaim != nil:
		return admission.CountedResourceClaim(o.ResourceClaim, dq)
	case o.Pod != nil:
		return admission.CountedPod(o.Pod)
	case o.Service != nil:
		return admission.CountedService(o.Service)
	case o.Claim != nil:
		return admission.CountedClaim(o.Claim)
	}
	return admission.Counted{Resource: o.Resource, Meta: o.Meta}
}

// ResourceQuotaInput is a namespace's quotas, the objects it holds and
// one object being created in it. With ComputeStatus every quota's
// status is first computed from Existing as the quota controller does
// (keeping status.used only for names no evaluator tracks); otherwise the
// quotas' statuses are used as given.
type ResourceQuotaInput struct {
	Quotas   []api.ResourceQuota `json:"quotas"`
	Existing []CountedObject     `json:"existing,omitempty"`
	// DeviceClasses are the cluster's, for the ResourceClaim evaluator.
	DeviceClasses []*api.DeviceClass `json:"deviceClasses,omitempty"`
	ComputeStatus bool               `json:"computeStatus,omitempty"`
	Object        CountedObject      `json:"object"`
}

// ResourceQuotaAnswer is the quota statuses used for the decision (when
// computed), then the decision: the rejection's text, or each quota's
// status.used after admission.
type ResourceQuotaAnswer struct {
	Status []map[string]string `json:"status,omitempty"`
	Err    string              `json:"err,omitempty"`
	Used   []map[string]string `json:"used,omitempty"`
}

// EvalResourceQuota is schedkit's answer for a resource quota input.
func EvalResourceQuota(in *ResourceQuotaInput) ResourceQuotaAnswer {
	var a ResourceQuotaAnswer
	quotas := append([]api.ResourceQuota(nil), in.Quotas...)
	dq := &admission.DRAQuota{DeviceClasses: in.DeviceClasses}
	for i := range in.Existing {
		o := &in.Existing[i]
		switch {
		case o.Pod != nil:
			dq.Pods = append(dq.Pods, o.Pod)
		case o.ResourceClaim != nil:
			dq.Claims = append(dq.Claims, o.ResourceClaim)
		}
	}
	if in.ComputeStatus {
		objs := admission.NamespaceObjects{Now: QuotaNow(), DeviceClasses: in.DeviceClasses}
		for i := range in.Existing {
			o := &in.Existing[i]
			switch {
			case o.ResourceClaim != nil:
				objs.ResourceClaims = append(objs.ResourceClaims, o.ResourceClaim)
			case o.Pod != nil:
				objs.Pods = append(objs.Pods, o.Pod)
			case o.Service != nil:
				objs.Services = append(objs.Services, o.Service)
			case o.Claim != nil:
				objs.Claims = append(objs.Claims, o.Claim)
			default:
				objs.Others = append(objs.Others, o.counted(dq))
			}
		}
		for i := range quotas {
			quotas[i].Status = admission.QuotaStatus(&quotas[i], objs)
			a.Status = append(a.Status, ListStrings(quotas[i].Status.Used))
		}
	}
	out, err := admission.CheckQuota(quotas, in.Object.counted(dq), QuotaNow())
	if err != nil {
		a.Err = err.Error()
		return a
	}
	for i := range out {
		a.Used = append(a.Used, ListStrings(out[i].Status.Used))
	}
	return a
}
