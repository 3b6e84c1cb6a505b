package upstream

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/quota/v1/evaluator/core"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/schedkit/schedkit/internal/testing/regression"
)

// legacyCounts are the core kinds counted under a legacy name too.
var legacyCounts = map[string]corev1.ResourceName{
	"configmaps": "configmaps", "resourcequotas": "resourcequotas",
	"replicationcontrollers": "replicationcontrollers", "secrets": "secrets",
}

func groupResource(r string) schema.GroupResource {
	res, group, _ := strings.Cut(r, ".")
	return schema.GroupResource{Group: group, Resource: res}
}

// quotaObject converts a counted object to upstream's, with its group
// resource.
func quotaObject(o *regression.CountedObject) (runtime.Object, schema.GroupResource) {
	switch {
	case o.Pod != nil:
		return MustConvert[corev1.Pod](o.Pod), schema.GroupResource{Resource: "pods"}
	case o.Service != nil:
		return MustConvert[corev1.Service](o.Service), schema.GroupResource{Resource: "services"}
	case o.Claim != nil:
		return MustConvert[corev1.PersistentVolumeClaim](o.Claim), schema.GroupResource{Resource: "persistentvolumeclaims"}
	case o.ResourceClaim != nil:
		return MustConvert[resourceapi.ResourceClaim](o.ResourceClaim), resourceClaimsGR
	}
	m := &metav1.PartialObjectMetadata{}
	if o.Meta != nil {
		m.ObjectMeta = *MustConvert[metav1.ObjectMeta](o.Meta)
	}
	return m, groupResource(o.Resource)
}

var resourceClaimsGR = schema.GroupResource{Group: "resource.k8s.io", Resource: "resourceclaims"}

// draQuota is what upstream's ResourceClaim evaluator reads besides the
// claim: the extended resource cache of the input's DeviceClasses, the
// existing pods and the existing claims a pod owns.
type draQuota struct {
	classes *extendedresourcecache.ExtendedResourceCache
	pods    corev1listers.PodLister
	claims  []*resourceapi.ResourceClaim
}

func newDRAQuota(in *regression.ResourceQuotaInput) *draQuota {
	d := &draQuota{classes: extendedresourcecache.NewExtendedResourceCache(klog.Background())}
	for _, c := range in.DeviceClasses {
		d.classes.OnAdd(MustConvert[resourceapi.DeviceClass](c), true)
	}
	ix := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for i := range in.Existing {
		o := &in.Existing[i]
		switch {
		case o.Pod != nil:
			if err := ix.Add(MustConvert[corev1.Pod](o.Pod)); err != nil {
				panic(err)
			}
		case o.ResourceClaim != nil:
			d.claims = append(d.claims, MustConvert[resourceapi.ResourceClaim](o.ResourceClaim))
		}
	}
	d.pods = corev1listers.NewPodLister(ix)
	return d
}

// owned is the claim getter of the evaluator: the extended resource
// claims of namespace ns whose controller is the pod uid.
func (d *draQuota) owned(ns string, uid types.UID) ([]*resourceapi.ResourceClaim, error) {
	var out []*resourceapi.ResourceClaim
	for _, c := range d.claims {
		if c.Namespace != ns || c.Annotations[resourceapi.ExtendedResourceClaimAnnotation] != "true" {
			continue
		}
		if ref := metav1.GetControllerOfNoCopy(c); ref != nil && ref.Kind == "Pod" && ref.APIVersion == "v1" && ref.UID == uid {
			out = append(out, c)
		}
	}
	return out, nil
}

func quotaEvaluator(gr schema.GroupResource, f quota.ListerForResourceFunc, clk *clocktesting.FakeClock, d *draQuota) quota.Evaluator {
	switch gr {
	case resourceClaimsGR:
		return core.NewResourceClaimEvaluator(f, d.classes, d.pods, d.owned)
	case schema.GroupResource{Resource: "pods"}:
		return core.NewPodEvaluator(f, clk)
	case schema.GroupResource{Resource: "services"}:
		return core.NewServiceEvaluator(f)
	case schema.GroupResource{Resource: "persistentvolumeclaims"}:
		return core.NewPersistentVolumeClaimEvaluator(f)
	}
	var list generic.ListFuncByNamespace
	if f != nil {
		list = generic.ListResourceUsingListerFunc(f, gr.WithVersion("v1"))
	}
	return generic.NewObjectCountEvaluator(gr, list, legacyCounts[gr.String()])
}

// ResourceQuota is the ResourceQuota admission plugin's answer
// (resourcequota.CheckRequest with the core evaluators and the default
// configuration), after the quota controller's status computation
// (quota.CalculateUsage as syncResourceQuota uses it) when asked.
func ResourceQuota(in *regression.ResourceQuotaInput) regression.ResourceQuotaAnswer {
	clk := clocktesting.NewFakeClock(regression.QuotaNow())
	d := newDRAQuota(in)
	var a regression.ResourceQuotaAnswer
	quotas := make([]corev1.ResourceQuota, len(in.Quotas))
	for i := range in.Quotas {
		quotas[i] = *MustConvert[corev1.ResourceQuota](&in.Quotas[i])
	}
	if in.ComputeStatus {
		indexers := map[schema.GroupResource]cache.Indexer{}
		pos := map[runtime.Object]int{}
		for i := range in.Existing {
			obj, gr := quotaObject(&in.Existing[i])
			pos[obj] = i
			ix, ok := indexers[gr]
			if !ok {
				ix = cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
				indexers[gr] = ix
			}
			if err := ix.Add(obj); err != nil {
				panic(err)
			}
		}
		lister := func(gvr schema.GroupVersionResource) (cache.GenericLister, error) {
			ix, ok := indexers[gvr.GroupResource()]
			if !ok {
				ix = cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			}
			return inputOrder{cache.NewGenericLister(ix, gvr.GroupResource()), pos}, nil
		}
		// The controller counts the core kinds and every other
		// resource its quotas name (it discovers every listable one).
		evals := []quota.Evaluator{
			quotaEvaluator(schema.GroupResource{Resource: "pods"}, lister, clk, d),
			quotaEvaluator(schema.GroupResource{Resource: "services"}, lister, clk, d),
			quotaEvaluator(schema.GroupResource{Resource: "persistentvolumeclaims"}, lister, clk, d),
			quotaEvaluator(resourceClaimsGR, lister, clk, d),
		}
		seen := map[schema.GroupResource]bool{}
		for _, q := range quotas {
			for n := range q.Spec.Hard {
				var gr schema.GroupResource
				if r, ok := strings.CutPrefix(string(n), "count/"); ok {
					gr = groupResource(r)
				} else if _, ok := legacyCounts[string(n)]; ok {
					gr = schema.GroupResource{Resource: string(n)}
				} else {
					continue
				}
				switch gr.String() {
				case "pods", "services", "persistentvolumeclaims", "resourceclaims.resource.k8s.io":
					continue
				}
				if !seen[gr] {
					seen[gr] = true
					evals = append(evals, quotaEvaluator(gr, lister, clk, d))
				}
			}
		}
		registry := generic.NewRegistry(evals)
		for i := range quotas {
			q := &quotas[i]
			used := corev1.ResourceList{}
			if q.Status.Used != nil {
				used = quota.Add(corev1.ResourceList{}, q.Status.Used)
			}
			hard := quota.Add(corev1.ResourceList{}, q.Spec.Hard)
			newUsage, err := quota.CalculateUsage(q.Namespace, q.Spec.Scopes, hard, registry, q.Spec.ScopeSelector)
			if err != nil {
				panic(err)
			}
			for k, v := range newUsage {
				used[k] = v
			}
			used = quota.Mask(used, quota.ResourceNames(hard))
			q.Status = corev1.ResourceQuotaStatus{Hard: hard, Used: used}
			a.Status = append(a.Status, listStrings(used))
		}
	}
	obj, gr := quotaObject(&in.Object)
	acc, err := meta.Accessor(obj)
	if err != nil {
		panic(err)
	}
	ns := acc.GetNamespace()
	attrs := admission.NewAttributesRecord(obj, nil, schema.GroupVersionKind{}, ns, acc.GetName(), gr.WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	out, err := resourcequota.CheckRequest(quotas, attrs, quotaEvaluator(gr, nil, clk, d), nil)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	for i := range out {
		a.Used = append(a.Used, listStrings(out[i].Status.Used))
	}
	return a
}

// inputOrder lists an informer's objects in the input's order. An
// informer's indexer lists them in map order, which decides the format of
// a usage sum when the objects' quantities differ in format (the first
// non-zero addend's format wins in Quantity.Add): schedkit sums in the
// input's order, and the comparison uses that one of upstream's orders.
type inputOrder struct {
	cache.GenericLister
	pos map[runtime.Object]int
}

func (l inputOrder) List(s labels.Selector) ([]runtime.Object, error) {
	return l.sorted(l.GenericLister.List(s))
}

func (l inputOrder) ByNamespace(ns string) cache.GenericNamespaceLister {
	return inputOrderNS{l.GenericLister.ByNamespace(ns), l}
}

func (l inputOrder) sorted(objs []runtime.Object, err error) ([]runtime.Object, error) {
	slices.SortFunc(objs, func(a, b runtime.Object) int { return l.pos[a] - l.pos[b] })
	return objs, err
}

type inputOrderNS struct {
	cache.GenericNamespaceLister
	l inputOrder
}

func (n inputOrderNS) List(s labels.Selector) ([]runtime.Object, error) {
	return n.l.sorted(n.GenericNamespaceLister.List(s))
}
