package qos_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// guaranteedContainer: cpu and memory both limited above zero and
// requested at exactly the limit.
func guaranteedContainer(c *api.Container) bool {
	for _, k := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		lim, ok := c.Resources.Limits[k]
		if !ok || lim.IsZero() {
			return false
		}
		// ComputePodQOS reads the spec as given: a missing request is not
		// the limit (the API server's defaulting is a separate step).
		if req, ok := c.Resources.Requests[k]; !ok || req.Cmp(lim) != 0 {
			return false
		}
	}
	return true
}

// bestEffortContainer: no non-zero cpu or memory request or limit.
func bestEffortContainer(c *api.Container) bool {
	for _, l := range []api.ResourceList{c.Resources.Requests, c.Resources.Limits} {
		for _, k := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			if q, ok := l[k]; ok && !q.IsZero() {
				return false
			}
		}
	}
	return true
}

// TestQOSClassProperties: without pod-level resources a pod is Guaranteed
// iff every container and init container is, BestEffort iff every one is,
// and Burstable otherwise; with pod-level resources the containers do not
// matter.
func TestQOSClassProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		got := qos.Compute(p)
		if resource.IsPodLevelResourcesSet(p) {
			q := p.DeepCopy()
			q.Spec.Containers = []api.Container{resourcegen.Container().Draw(t, "other")}
			q.Spec.InitContainers = nil
			if other := qos.Compute(q); other != got {
				t.Fatalf("containers changed the pod-level class: %s vs %s", got, other)
			}
			return
		}
		all := append(append([]api.Container(nil), p.Spec.InitContainers...), p.Spec.Containers...)
		allG, allBE := true, true
		for i := range all {
			allG = allG && guaranteedContainer(&all[i])
			allBE = allBE && bestEffortContainer(&all[i])
		}
		want := api.PodQOSBurstable
		switch {
		case allBE:
			want = api.PodQOSBestEffort
		case allG:
			want = api.PodQOSGuaranteed
		}
		if got != want {
			t.Fatalf("Compute = %s, want %s", got, want)
		}
		if qos.Of(p) != got {
			t.Fatal("Of differs from Compute without a recorded class")
		}
	})
}

// TestRankIsPermutation: ranking only reorders, and puts every pod over
// its request before every pod under it.
func TestRankIsPermutation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := rapid.SliceOfN(resourcegen.Pod(), 0, 12).Draw(t, "pods")
		usage := map[*api.Pod]int64{}
		for _, p := range pods {
			usage[p] = rapid.Int64Range(0, 8<<30).Draw(t, "usage")
		}
		ranked := append([]*api.Pod(nil), pods...)
		qos.RankForMemoryEviction(ranked, func(p *api.Pod) (int64, bool) { u, ok := usage[p]; return u, ok })
		seen := map[*api.Pod]int{}
		for _, p := range ranked {
			seen[p]++
		}
		for _, p := range pods {
			if seen[p] != 1 {
				t.Fatal("not a permutation")
			}
		}
		over := func(p *api.Pod) bool {
			u := resource.NewQuantity(usage[p], resource.BinarySI)
			return u.Cmp(resource.RequestQuantity(p, api.ResourceMemory)) > 0
		}
		for i := 1; i < len(ranked); i++ {
			if over(ranked[i]) && !over(ranked[i-1]) {
				t.Fatalf("pod %d over its request ranked after one under", i)
			}
		}
	})
}
