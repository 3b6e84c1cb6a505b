package admission

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

var propNames = []api.ResourceName{"pods", "count/pods", "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory",
	"requests.ephemeral-storage", "requests.example.com/gpu", "hugepages-2Mi"}

func propQuota() *rapid.Generator[api.ResourceQuota] {
	return rapid.Custom(func(t *rapid.T) api.ResourceQuota {
		q := api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "ns"}}
		q.Spec.Hard, q.Status.Used = api.ResourceList{}, api.ResourceList{}
		for _, n := range rapid.SliceOfNDistinct(rapid.SampledFrom(propNames), 1, 4, rapid.ID[api.ResourceName]).Draw(t, "names") {
			q.Spec.Hard[n] = quantity.NewMilliQuantity(int64(rapid.IntRange(0, 8000).Draw(t, "hard")), quantity.DecimalSI)
			q.Status.Used[n] = quantity.NewMilliQuantity(int64(rapid.IntRange(0, 4000).Draw(t, "used")), quantity.DecimalSI)
		}
		q.Status.Hard = q.Spec.Hard
		q.Spec.Scopes = rapid.SliceOfNDistinct(rapid.SampledFrom([]api.ResourceQuotaScope{
			api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort, api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating}), 0, 1, rapid.ID[api.ResourceQuotaScope]).Draw(t, "scopes")
		return q
	})
}

func propPod() *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := resourcegen.Pod().Draw(t, "pod")
		p.Name, p.Namespace = "p", "ns"
		return p
	})
}

// TestPropQuotaGrowHard: a pod that fits a quota still fits when the
// quota's hard limits grow.
func TestPropQuotaGrowHard(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := propQuota().Draw(t, "quota")
		p := propPod().Draw(t, "pod")
		if _, err := CheckQuota([]api.ResourceQuota{q}, CountedPod(p), time.Time{}); err != nil {
			t.Skip("does not fit")
		}
		grown := q
		grown.Status.Hard = api.ResourceList{}
		for n, v := range q.Status.Hard {
			v.Add(quantity.NewMilliQuantity(int64(rapid.IntRange(0, 5000).Draw(t, "more")), quantity.DecimalSI))
			grown.Status.Hard[n] = v
		}
		if _, err := CheckQuota([]api.ResourceQuota{grown}, CountedPod(p), time.Time{}); err != nil {
			t.Fatalf("fits %v but not %v: %v", q.Status.Hard, grown.Status.Hard, err)
		}
	})
}

// TestPropQuotaUsageAfter: usage after admission is usage before plus
// the pod's charge on the quota's names (when the quota counts the pod),
// and unchanged otherwise.
func TestPropQuotaUsageAfter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := propQuota().Draw(t, "quota")
		p := propPod().Draw(t, "pod")
		out, err := CheckQuota([]api.ResourceQuota{q}, CountedPod(p), time.Time{})
		if err != nil {
			return
		}
		e := podEval{pod: p}
		counts, err := quotaMatches(&q, e)
		if err != nil {
			t.Fatal(err)
		}
		want := q.Status.Used
		if counts {
			want = resource.Add(q.Status.Used, resource.Mask(PodQuotaUsage(p, time.Time{}), resource.ResourceNames(q.Status.Hard)))
		}
		if !resource.Equals(out[0].Status.Used, want) {
			t.Fatalf("used after = %v, want %v", out[0].Status.Used, want)
		}
	})
}

// TestPropBestEffortNeverChargesRequests: a BestEffort-scoped quota never
// charges a pod that requests or limits cpu or memory.
func TestPropBestEffortNeverChargesRequests(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := propQuota().Draw(t, "quota")
		q.Spec.Scopes = []api.ResourceQuotaScope{api.ResourceQuotaScopeBestEffort}
		p := propPod().Draw(t, "pod")
		if qos.Of(p) == api.PodQOSBestEffort {
			t.Skip("best effort pod")
		}
		out, err := CheckQuota([]api.ResourceQuota{q}, CountedPod(p), time.Time{})
		if err != nil {
			t.Fatalf("a BestEffort quota rejected a %s pod: %v", qos.Of(p), err)
		}
		if !resource.Equals(out[0].Status.Used, q.Status.Used) {
			t.Fatalf("charged: %v → %v", q.Status.Used, out[0].Status.Used)
		}
	})
}

// TestPropChainMatchesStatus: after admitting pods one by one through a
// Chain, each quota's used equals what the quota controller measures on
// the admitted pods (QuotaStatus), for quotas that started empty.
func TestPropChainMatchesStatus(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := propQuota().Draw(t, "quota")
		for n := range q.Status.Used {
			q.Status.Used[n] = quantity.Quantity{Format: quantity.DecimalSI}
		}
		c := NewChain(Policies{ResourceQuotas: []api.ResourceQuota{q}}, time.Time{})
		var admitted []*api.Pod
		for i := range rapid.IntRange(1, 5).Draw(t, "pods") {
			p := propPod().Draw(t, "pod")
			p.Name = string(rune('a' + i))
			if a, err := c.AdmitPod(p); err == nil {
				admitted = append(admitted, a)
			}
		}
		got := c.Quotas()[0].Status.Used
		want := QuotaStatus(&q, NamespaceObjects{Pods: admitted}).Used
		if !resource.Equals(got, want) {
			t.Fatalf("chain used %v, controller %v", got, want)
		}
	})
}
