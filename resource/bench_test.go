package resource

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// benchPod is the pod of the allocation benchmarks: three containers and
// one init container, with cpu and memory requests and limits.
func benchPod() *api.Pod {
	r := func(cpu, mem string) api.ResourceRequirements {
		return both(rl("cpu="+cpu, "memory="+mem), rl("cpu="+cpu, "memory="+mem))
	}
	return &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{ctr("init", r("1", "256Mi"))},
		Containers: []api.Container{
			ctr("app", r("500m", "512Mi")),
			ctr("proxy", r("100m", "64Mi")),
			ctr("log", r("50m", "32Mi")),
		},
	}}
}

// BenchmarkPodRequests measures PodRequests of benchPod. Run it with
//
//	go test -run '^$' -bench 'PodRequests|PodLimits|NonZero|Totals' -benchmem ./resource/
//
// and read allocs/op: "new" allocates only its result map (the map
// header and its one bucket group), "reuse" passes
// PodResourcesOptions.Reuse and must report 0 allocs/op, and so must
// PodRequest, Totals.Set (after its first call) and NonZeroRequests.
// TestPodRequestsAllocations enforces the zeros.
func BenchmarkPodRequests(b *testing.B) {
	p := benchPod()
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = PodRequests(p, PodResourcesOptions{})
		}
	})
	b.Run("reuse", func(b *testing.B) {
		b.ReportAllocs()
		reuse := api.ResourceList{}
		for b.Loop() {
			_ = PodRequests(p, PodResourcesOptions{Reuse: reuse})
		}
	})
	b.Run("status", func(b *testing.B) {
		b.ReportAllocs()
		reuse := api.ResourceList{}
		for b.Loop() {
			_ = PodRequests(p, PodResourcesOptions{Reuse: reuse, UseStatusResources: true})
		}
	})
	b.Run("PodRequest-cpu", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = PodRequest(p, api.ResourceCPU, PodResourcesOptions{})
		}
	})
}

// BenchmarkPodLimits measures PodLimits of benchPod with a reused map.
func BenchmarkPodLimits(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	reuse := api.ResourceList{}
	for b.Loop() {
		_ = PodLimits(p, PodResourcesOptions{Reuse: reuse})
	}
}

// BenchmarkTotals measures Totals.Set of benchPod.
func BenchmarkTotals(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	var t Totals
	for b.Loop() {
		t.Set(p, PodResourcesOptions{})
	}
}

// BenchmarkNonZeroRequests measures NonZeroRequests of benchPod.
func BenchmarkNonZeroRequests(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = NonZeroRequests(p)
	}
}

// TestPodRequestsAllocations pins the allocation promises of the fast
// paths on benchPod: nothing beyond the result map.
func TestPodRequestsAllocations(t *testing.T) {
	p := benchPod()
	reuse := api.ResourceList{}
	var tot Totals
	tot.Set(p, PodResourcesOptions{})
	checks := map[string]func(){
		"PodRequests with Reuse": func() { _ = PodRequests(p, PodResourcesOptions{Reuse: reuse}) },
		"PodLimits with Reuse":   func() { _ = PodLimits(p, PodResourcesOptions{Reuse: reuse}) },
		"PodRequest":             func() { _, _ = PodRequest(p, api.ResourceMemory, PodResourcesOptions{}) },
		"Totals.Set":             func() { tot.Set(p, PodResourcesOptions{}) },
		"NonZeroRequests":        func() { _, _ = NonZeroRequests(p) },
		"Request":                func() { _ = Request(p, api.ResourceMemory) },
	}
	for name, f := range checks {
		f()
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocs/op, want 0", name, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = PodRequests(p, PodResourcesOptions{}) }); n > 2 {
		t.Errorf("PodRequests: %v allocs/op, want at most 2 (the result map)", n)
	}
}
