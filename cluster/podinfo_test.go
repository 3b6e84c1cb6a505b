package cluster

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
	"pgregory.net/rapid"
)

// TestPodInfoRequests pins the requests PodInfo takes from package
// resource, as upstream PodInfo.CalculateResource (TestPodInfoCalculateResources).
func TestPodInfoRequests(t *testing.T) {
	tests := []struct {
		name           string
		pod            *api.Pod
		want           Resource
		non0CPU, non0M int64
	}{
		{"no requests: defaults only in the non-zero sums",
			mkPod("", "p", "", "").container(nil).obj(),
			Resource{}, resource.DefaultMilliCPURequest, resource.DefaultMemoryRequest},
		{"explicit zero stays zero",
			mkPod("", "p", "", "").container(rl("cpu", "0", "memory", "0")).obj(),
			Resource{}, 0, 0},
		{"quantities are summed before rounding",
			mkPod("", "p", "", "").container(rl("cpu", "0.5m", "memory", "0.5")).container(rl("cpu", "0.5m", "memory", "0.5")).obj(),
			Resource{MilliCPU: 1, Memory: 1}, 1, 1},
		{"sidecar adds to containers and later init containers",
			mkPod("", "p", "", "").container(rl("cpu", "1")).init(true, rl("cpu", "500m")).init(false, rl("cpu", "2")).obj(),
			Resource{MilliCPU: 2500}, 2500, 2 * resource.DefaultMemoryRequest},
		{"extended resources and overhead",
			mkPod("", "p", "", "").container(rl("example.com/gpu", "2", "memory", "1Gi")).overhead(rl("cpu", "100m", "memory", "10Mi")).obj(),
			Resource{MilliCPU: 100, Memory: 1<<30 + 10<<20, Scalars: []Scalar{{"example.com/gpu", 2}}}, 200, 1<<30 + 10<<20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPodInfo(tt.pod)
			if !p.Requests.Equal(tt.want) || p.NonZeroMilliCPU != tt.non0CPU || p.NonZeroMemory != tt.non0M {
				t.Errorf("got %+v non-zero %d/%d, want %+v %d/%d", p.Requests, p.NonZeroMilliCPU, p.NonZeroMemory, tt.want, tt.non0CPU, tt.non0M)
			}
		})
	}
}

// TestPodInfoAffinityTerms: terms are compiled once; a bad selector is an
// error from NewPodInfoChecked (upstream NewPodInfo's aggregate) but a
// Snapshot still accepts the bound pod, as upstream's cache.
func TestPodInfoAffinityTerms(t *testing.T) {
	good := mkPod("ns", "good", "1", "n").antiAffinity("zone").obj()
	good.Spec.Affinity.PodAffinity = &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
		{Weight: 5, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: "rack", LabelSelector: &api.LabelSelector{}}}}}
	p, err := NewPodInfoChecked(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.RequiredAntiAffinityTerms) != 1 || p.RequiredAntiAffinityTerms[0].TopologyKey != "zone" ||
		len(p.PreferredAffinityTerms) != 1 || p.PreferredAffinityTerms[0].Weight != 5 ||
		len(p.RequiredAffinityTerms) != 0 || len(p.PreferredAntiAffinityTerms) != 0 {
		t.Errorf("terms: %+v", p)
	}
	if !p.RequiredAntiAffinityTerms[0].Matches(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Labels: map[string]string{"app": "x"}}}, nil) {
		t.Error("compiled term does not match")
	}

	bad := mkPod("ns", "bad", "2", "n").antiAffinity("zone").obj()
	bad.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector =
		&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}
	if _, err := NewPodInfoChecked(bad); err == nil || !strings.Contains(err.Error(), "ns/bad") {
		t.Errorf("NewPodInfoChecked(bad) = %v", err)
	}
	if p := NewPodInfo(bad); !p.HasAffinity() || !p.HasRequiredAntiAffinity() || len(p.RequiredAntiAffinityTerms) != 0 {
		t.Errorf("lenient PodInfo: %+v", p)
	}
	s, err := NewSnapshot([]*api.Node{mkNode("n", nil, nil)}, []*api.Pod{good, bad})
	if err != nil {
		t.Fatalf("snapshot rejected a bound pod with a bad term: %v", err)
	}
	if got := len(s.HavePodsWithRequiredAntiAffinityNodes()); got != 1 {
		t.Errorf("nodes with required anti-affinity: %d", got)
	}
}

// The requests a PodInfo holds are resource.SchedulerRequests: the named
// options are the ones the snapshot sums by.
func TestPodInfoRequestsAreSchedulerRequests(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p := resourcegen.Pod().Draw(rt, "pod")
		if got, want := NewPodInfo(p).Requests, ResourceFromList(resource.SchedulerRequests(p)); !reflect.DeepEqual(got, want) {
			rt.Fatalf("PodInfo.Requests %+v, SchedulerRequests %+v", got, want)
		}
	})
}

// TestPodInfoPriority: Priority is spec.priority, 0 without one, whether
// NewPodInfo read it or the PodInfo is a literal.
func TestPodInfoPriority(t *testing.T) {
	p7 := int32(7)
	for _, pod := range []*api.Pod{{}, {Spec: api.PodSpec{Priority: &p7}}} {
		want := int32(0)
		if pod.Spec.Priority != nil {
			want = *pod.Spec.Priority
		}
		if got := NewPodInfo(pod).Priority(); got != want {
			t.Errorf("NewPodInfo: Priority() = %d, want %d", got, want)
		}
		if got := (&PodInfo{Pod: pod}).Priority(); got != want {
			t.Errorf("literal: Priority() = %d, want %d", got, want)
		}
	}
}
