package qos_test

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/resource"
)

func container(name, cpuReq, cpuLim, memReq, memLim string) api.Container {
	c := api.Container{Name: name}
	set := func(l *api.ResourceList, k api.ResourceName, v string) {
		if v == "" {
			return
		}
		if *l == nil {
			*l = api.ResourceList{}
		}
		(*l)[k] = resource.MustParse(v)
	}
	set(&c.Resources.Requests, "cpu", cpuReq)
	set(&c.Resources.Limits, "cpu", cpuLim)
	set(&c.Resources.Requests, "memory", memReq)
	set(&c.Resources.Limits, "memory", memLim)
	return c
}

// A pod is Guaranteed when every container requests exactly its cpu and
// memory limits, BestEffort when none asks for any, and Burstable
// otherwise.
func ExampleCompute() {
	pods := map[string]*api.Pod{
		"guaranteed":  {Spec: api.PodSpec{Containers: []api.Container{container("a", "1", "1", "1Gi", "1Gi")}}},
		"limits-only": {Spec: api.PodSpec{Containers: []api.Container{container("a", "", "1", "", "1Gi")}}},
		"burstable":   {Spec: api.PodSpec{Containers: []api.Container{container("a", "500m", "1", "1Gi", "1Gi")}}},
		"best-effort": {Spec: api.PodSpec{Containers: []api.Container{container("a", "", "", "", "")}}},
		"mixed": {Spec: api.PodSpec{
			InitContainers: []api.Container{container("init", "", "", "", "")},
			Containers:     []api.Container{container("a", "1", "1", "1Gi", "1Gi")},
		}},
	}
	for _, name := range []string{"guaranteed", "limits-only", "burstable", "best-effort", "mixed"} {
		fmt.Println(name, qos.Compute(pods[name]))
	}
	// Output:
	// guaranteed Guaranteed
	// limits-only Burstable
	// burstable Burstable
	// best-effort BestEffort
	// mixed Burstable
}

// Under memory pressure the kubelet evicts pods over their memory request
// first, then lower priority, then the largest use above request.
func ExampleRankForMemoryEviction() {
	prio := func(p int32) *int32 { return &p }
	mk := func(name string, priority int32, memReq string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{
			Priority: prio(priority), Containers: []api.Container{container("c", "", "", memReq, "")}}}
	}
	db := mk("db", 1000, "4Gi")
	batch := mk("batch", 0, "1Gi")
	web := mk("web", 100, "512Mi")
	cache := mk("cache", 100, "")
	used := map[*api.Pod]int64{db: 3 << 30, batch: 2 << 30, web: 600 << 20, cache: 300 << 20}
	pods := []*api.Pod{db, batch, web, cache}
	qos.RankForMemoryEviction(pods, func(p *api.Pod) (int64, bool) { u, ok := used[p]; return u, ok })
	for _, p := range pods {
		fmt.Println(p.Name)
	}
	// Output:
	// batch
	// cache
	// web
	// db
}
