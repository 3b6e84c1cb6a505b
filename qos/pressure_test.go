package qos_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/resource"
)

func pressurePod(name string, prio int32, memReq string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	p.Spec.Priority = &prio
	p.Spec.Containers = []api.Container{{Name: "c"}}
	if memReq != "" {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: resource.MustParse(memReq), api.ResourceEphemeralStorage: resource.MustParse(memReq)}
	}
	return p
}

const gi = int64(1) << 30

func names(ev []qos.PressureEviction) string {
	s := ""
	for _, e := range ev {
		s += fmt.Sprintf("%v:%s ", e.At, e.Pod.Name)
	}
	return s
}

func TestNodePressureEvictions(t *testing.T) {
	hard := resource.MustParse("1Gi")
	node := qos.NodeStats{
		Capacity:  map[qos.Signal]int64{qos.MemoryAvailable: 16 * gi, qos.NodeFsAvailable: 100 * gi, qos.PIDAvailable: 1000},
		Available: map[qos.Signal]int64{qos.MemoryAvailable: gi / 2, qos.NodeFsAvailable: 50 * gi, qos.PIDAvailable: 900},
	}
	pods := []qos.PodStats{
		{Pod: pressurePod("guaranteed-ish", 0, "4Gi"), Usage: map[qos.Signal]int64{qos.MemoryAvailable: 3 * gi}},
		{Pod: pressurePod("over-request", 1000, "1Gi"), Usage: map[qos.Signal]int64{qos.MemoryAvailable: 2 * gi}},
		{Pod: pressurePod("besteffort", 0, ""), Usage: map[qos.Signal]int64{qos.MemoryAvailable: gi / 4}},
		{Pod: pressurePod("critical", 2000000000, ""), Usage: map[qos.Signal]int64{qos.MemoryAvailable: 5 * gi}},
	}
	// Hard memory threshold: pods over their request go first, lower
	// priority first: besteffort (0), then over-request (1000); then the
	// signal is above 1Gi. The critical pod is never evicted.
	ev, err := qos.NodePressureEvictions(node, pods, []qos.Threshold{{Signal: qos.MemoryAvailable, Value: &hard}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(ev); got != "0s:besteffort 10s:over-request " {
		t.Errorf("hard: %s", got)
	}
	// Min reclaim keeps the threshold met until 1Gi+2Gi are available.
	reclaim := resource.MustParse("2Gi")
	ev, _ = qos.NodePressureEvictions(node, pods, []qos.Threshold{{Signal: qos.MemoryAvailable, Value: &hard, MinReclaim: &reclaim}}, 10)
	if got := names(ev); got != "0s:besteffort 10s:over-request 20s:guaranteed-ish " {
		t.Errorf("min reclaim: %s", got)
	}
	// A soft threshold waits its grace period.
	ev, _ = qos.NodePressureEvictions(node, pods, []qos.Threshold{{Signal: qos.MemoryAvailable, Value: &hard, GracePeriod: 30 * time.Second}}, 10)
	if got := names(ev); got != "30s:besteffort 40s:over-request " {
		t.Errorf("soft: %s", got)
	}
	// PIDs: lower priority first, then the most processes.
	pp := []qos.PodStats{
		{Pod: pressurePod("a", 0, ""), Usage: map[qos.Signal]int64{qos.PIDAvailable: 10}},
		{Pod: pressurePod("b", 0, ""), Usage: map[qos.Signal]int64{qos.PIDAvailable: 50}},
		{Pod: pressurePod("c", -5, ""), Usage: map[qos.Signal]int64{qos.PIDAvailable: 1}},
	}
	node.Available[qos.PIDAvailable] = 100
	ev, _ = qos.NodePressureEvictions(node, pp, []qos.Threshold{{Signal: qos.PIDAvailable, Percentage: 0.2}}, 10)
	if got := names(ev); got != "0s:c 10s:b 20s:a " {
		t.Errorf("pid: %s", got)
	}
	if _, err := qos.NodePressureEvictions(qos.NodeStats{}, nil, []qos.Threshold{{Signal: qos.ImageFsAvailable}}, 1); err == nil {
		t.Error("threshold without capacity accepted")
	}
}

// A node at 500Mi of free memory with a hard threshold of 1Gi: the
// kubelet evicts one pod per housekeeping pass: pods above their request
// first, then lower priority, then the most memory above the request.
func ExampleNodePressureEvictions() {
	hard := resource.MustParse("1Gi")
	node := qos.NodeStats{
		Capacity:  map[qos.Signal]int64{qos.MemoryAvailable: 8 << 30},
		Available: map[qos.Signal]int64{qos.MemoryAvailable: 500 << 20},
	}
	pods := []qos.PodStats{
		{Pod: pressurePod("web", 100, "2Gi"), Usage: map[qos.Signal]int64{qos.MemoryAvailable: 1 << 30}},
		{Pod: pressurePod("cache", 0, "256Mi"), Usage: map[qos.Signal]int64{qos.MemoryAvailable: 300 << 20}},
		{Pod: pressurePod("batch", 0, ""), Usage: map[qos.Signal]int64{qos.MemoryAvailable: 200 << 20}},
	}
	ev, _ := qos.NodePressureEvictions(node, pods, []qos.Threshold{{Signal: qos.MemoryAvailable, Value: &hard}}, 10)
	for _, e := range ev {
		fmt.Printf("%v %s evicts %s (%dMi free after)\n", e.At, e.Signal, e.Pod.Name, e.Available>>20)
	}
	// Output:
	// 0s memory.available evicts batch (700Mi free after)
	// 10s memory.available evicts cache (1000Mi free after)
	// 20s memory.available evicts web (2024Mi free after)
}
