package qos

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// evictionPod mirrors the kubelet eviction test's newPod: one container
// with a memory request and limit ("" for none) and a priority.
func evictionPod(name string, priority int32, memRequest, memLimit string) *api.Pod {
	c := api.Container{Name: name, Resources: api.ResourceRequirements{Requests: list("", memRequest), Limits: list("", memLimit)}}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: name}, Spec: api.PodSpec{Containers: []api.Container{c}, Priority: &priority}}
}

func usageOf(m map[*api.Pod]string) func(*api.Pod) (int64, bool) {
	return func(p *api.Pod) (int64, bool) {
		s, ok := m[p]
		if !ok {
			return 0, false
		}
		q := resource.MustParse(s)
		return q.Value(), true
	}
}

func wantOrder(t *testing.T, got, want []*api.Pod) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pod[%d] = %s, want %s", i, got[i].Name, want[i].Name)
		}
	}
}

// TestOrderedByExceedsRequestMemory ports the kubelet test of the same
// name: the pod over its request goes first.
func TestOrderedByExceedsRequestMemory(t *testing.T) {
	below := evictionPod("below-requests", -1, "200Mi", "")
	exceeds := evictionPod("exceeds-requests", 1, "100Mi", "")
	pods := []*api.Pod{below, exceeds}
	RankForMemoryEviction(pods, usageOf(map[*api.Pod]string{below: "199Mi", exceeds: "101Mi"}))
	wantOrder(t, pods, []*api.Pod{exceeds, below})
}

// TestOrderedByPriority ports the kubelet test of the same name: without
// stats, lower priority goes first.
func TestOrderedByPriority(t *testing.T) {
	low := evictionPod("low-priority", -134, "", "")
	medium := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "medium-priority"}, Spec: api.PodSpec{Priority: new(int32(1)), Containers: []api.Container{
		{Resources: api.ResourceRequirements{Requests: list("100m", "100Mi"), Limits: list("200m", "200Mi")}}}}}
	high := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "high-priority"}, Spec: api.PodSpec{Priority: new(int32(12534)), Containers: []api.Container{
		{Resources: api.ResourceRequirements{Requests: list("200m", "200Mi"), Limits: list("200m", "200Mi")}}}}}
	pods := []*api.Pod{high, medium, low}
	RankForMemoryEviction(pods, usageOf(nil))
	wantOrder(t, pods, []*api.Pod{low, medium, high})
}

// TestOrderedByMemory ports the kubelet test of the same name: the
// largest use above request goes first.
func TestOrderedByMemory(t *testing.T) {
	pod1 := evictionPod("best-effort-high", 0, "", "")
	pod2 := evictionPod("best-effort-low", 0, "", "")
	pod3 := evictionPod("burstable-high", 0, "100Mi", "1Gi")
	pod4 := evictionPod("burstable-low", 0, "100Mi", "1Gi")
	pod5 := evictionPod("guaranteed-high", 0, "1Gi", "1Gi")
	pod6 := evictionPod("guaranteed-low", 0, "1Gi", "1Gi")
	usage := usageOf(map[*api.Pod]string{
		pod1: "500Mi", // 500 above request
		pod2: "300Mi", // 300
		pod3: "800Mi", // 700
		pod4: "300Mi", // 200
		pod5: "800Mi", // -200
		pod6: "200Mi", // -800
	})
	pods := []*api.Pod{pod1, pod2, pod3, pod4, pod5, pod6}
	RankForMemoryEviction(pods, usage)
	wantOrder(t, pods, []*api.Pod{pod3, pod1, pod2, pod4, pod5, pod6})
}

// TestOrderedByPriorityMemory ports the kubelet test of the same name:
// over-request first, then priority, then use above request.
func TestOrderedByPriorityMemory(t *testing.T) {
	const low, high = -1, 1
	pod1 := evictionPod("above-requests-low-priority-high-usage", low, "", "")
	pod2 := evictionPod("above-requests-low-priority-low-usage", low, "", "")
	pod3 := evictionPod("above-requests-high-priority-high-usage", high, "100Mi", "")
	pod4 := evictionPod("above-requests-high-priority-low-usage", high, "100Mi", "")
	pod5 := evictionPod("below-requests-low-priority-high-usage", low, "1Gi", "")
	pod6 := evictionPod("below-requests-low-priority-low-usage", low, "1Gi", "")
	pod7 := evictionPod("below-requests-high-priority-high-usage", high, "1Gi", "")
	pod8 := evictionPod("below-requests-high-priority-low-usage", high, "1Gi", "")
	usage := usageOf(map[*api.Pod]string{
		pod1: "500Mi", pod2: "50Mi", pod3: "600Mi", pod4: "150Mi",
		pod5: "800Mi", pod6: "200Mi", pod7: "800Mi", pod8: "200Mi",
	})
	pods := []*api.Pod{pod8, pod7, pod6, pod5, pod4, pod3, pod2, pod1}
	RankForMemoryEviction(pods, usage)
	wantOrder(t, pods, []*api.Pod{pod1, pod2, pod3, pod4, pod5, pod6, pod7, pod8})
}

// TestRankMemoryNoStatsAndPodLevel pins two rules of the kubelet's
// ranking: a pod without stats goes first, and a pod with pod-level
// resources is measured against its pod-level request (plus overhead).
func TestRankMemoryNoStatsAndPodLevel(t *testing.T) {
	noStats := evictionPod("no-stats", 1000, "", "")
	plr := evictionPod("pod-level", 0, "100Mi", "")
	plr.Spec.Resources = &api.ResourceRequirements{Requests: list("", "1Gi")}
	plr.Spec.Overhead = list("", "100Mi")
	over := evictionPod("over", 0, "100Mi", "")
	pods := []*api.Pod{plr, over, noStats}
	// pod-level: 1Gi request + 100Mi overhead, 1Gi used: under its request.
	RankForMemoryEviction(pods, usageOf(map[*api.Pod]string{plr: "1Gi", over: "200Mi"}))
	wantOrder(t, pods, []*api.Pod{noStats, over, plr})
	if got := resource.RequestQuantity(plr, api.ResourceMemory); got.Cmp(resource.MustParse("1124Mi")) != 0 {
		t.Errorf("pod-level memory request = %s", got.String())
	}
}
