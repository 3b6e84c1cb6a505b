package qos

import (
	"sort"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// RankForMemoryEviction orders pods in place, first to be evicted first,
// exactly as the kubelet's eviction manager ranks pods under memory
// pressure (rankMemoryPressure in pkg/kubelet/eviction):
//
//  1. pods for which usage reports no stats go first; then pods whose
//     memory usage exceeds their memory request (resource.RequestQuantity:
//     pod-level request if the pod sets pod-level resources, else the
//     containers' total, plus overhead when not zero);
//  2. then lower priority first (a pod without spec.priority counts as 0);
//  3. then the pod using the most memory above its request first.
//
// usage returns a pod's memory working set in bytes, and false when there
// are no stats for the pod. Pods that tie on all three keep no particular
// order: like the kubelet, RankForMemoryEviction uses sort.Sort, which is
// not stable, and yields the same permutation as the kubelet for the same
// input order. usage is called once per pod. A nil pod counts as a pod
// without stats and priority 0.
func RankForMemoryEviction(pods []*api.Pod, usage func(*api.Pod) (memoryBytes int64, ok bool)) {
	r := ranking{pods: pods, keys: make([]rankKey, len(pods))}
	for i, p := range pods {
		k := &r.keys[i]
		if p == nil {
			continue
		}
		bytes, ok := usage(p)
		k.found = ok
		k.priority = priority(p)
		if ok {
			used := resource.NewQuantity(bytes, resource.BinarySI)
			req := resource.RequestQuantity(p, api.ResourceMemory)
			k.exceeds = used.Cmp(req) > 0
			used.Sub(req)
			k.aboveRequest = used
		}
	}
	sort.Sort(&r)
}

func priority(p *api.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

type rankKey struct {
	found        bool
	exceeds      bool
	priority     int32
	aboveRequest resource.Quantity
}

// ranking sorts pods and their precomputed keys together.
type ranking struct {
	pods []*api.Pod
	keys []rankKey
}

// Len is the number of pods.
func (r *ranking) Len() int { return len(r.pods) }

// Swap exchanges two pods and their keys.
func (r *ranking) Swap(i, j int) {
	r.pods[i], r.pods[j] = r.pods[j], r.pods[i]
	r.keys[i], r.keys[j] = r.keys[j], r.keys[i]
}

// Less applies the kubelet's three comparisons in turn; the last one
// decides.
func (r *ranking) Less(i, j int) bool {
	a, b := &r.keys[i], &r.keys[j]
	if c := exceedsCmp(a, b); c != 0 {
		return c < 0
	}
	if c := priorityCmp(a, b); c != 0 {
		return c < 0
	}
	return memoryCmp(a, b) < 0
}

// cmpBool orders true before false.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !b:
		return -1
	default:
		return 1
	}
}

func exceedsCmp(a, b *rankKey) int {
	if !a.found || !b.found {
		return cmpBool(!a.found, !b.found)
	}
	return cmpBool(a.exceeds, b.exceeds)
}

func priorityCmp(a, b *rankKey) int {
	switch {
	case a.priority == b.priority:
		return 0
	case a.priority > b.priority:
		return 1
	default:
		return -1
	}
}

func memoryCmp(a, b *rankKey) int {
	if !a.found || !b.found {
		return cmpBool(!a.found, !b.found)
	}
	return b.aboveRequest.Cmp(a.aboveRequest)
}
