package qos

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

func benchPod() *api.Pod {
	g := api.ResourceRequirements{Requests: list("500m", "512Mi"), Limits: list("500m", "512Mi")}
	return &api.Pod{Spec: api.PodSpec{
		InitContainers: []api.Container{{Name: "init", Resources: g}},
		Containers:     []api.Container{{Name: "a", Resources: g}, {Name: "b", Resources: g}, {Name: "c", Resources: g}},
	}}
}

// BenchmarkOf measures Of on a Guaranteed pod of three containers and an
// init container with no recorded class, so every container is examined.
// Run with go test -run '^$' -bench . -benchmem ./qos/; it allocates
// nothing.
func BenchmarkOf(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		if Of(p) != api.PodQOSGuaranteed {
			b.Fatal("not Guaranteed")
		}
	}
}

// BenchmarkRankForMemoryEviction ranks 100 pods of mixed requests,
// priorities and usage.
func BenchmarkRankForMemoryEviction(b *testing.B) {
	pods := make([]*api.Pod, 100)
	usage := map[*api.Pod]int64{}
	for i := range pods {
		pods[i] = evictionPod("p", int32(i%7), []string{"", "100Mi", "1Gi"}[i%3], "")
		usage[pods[i]] = int64(i%13) << 27
	}
	f := func(p *api.Pod) (int64, bool) { u, ok := usage[p]; return u, ok }
	b.ReportAllocs()
	for b.Loop() {
		RankForMemoryEviction(pods, f)
	}
}

// TestOfAllocations pins that Of allocates nothing.
func TestOfAllocations(t *testing.T) {
	p := benchPod()
	if n := testing.AllocsPerRun(100, func() { _ = Of(p) }); n != 0 {
		t.Errorf("Of: %v allocs/op", n)
	}
}
