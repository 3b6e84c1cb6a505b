package qos

import (
	"fmt"
	"sort"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// Signal is a kubelet eviction signal.
type Signal string

// The eviction signals modelled, as the kubelet names them.
const (
	// MemoryAvailable is memory.available: capacity minus working set.
	MemoryAvailable Signal = "memory.available"
	// NodeFsAvailable is nodefs.available: free bytes on the kubelet's
	// filesystem (pods' logs and emptyDir volumes, and their writable
	// layers without a dedicated image filesystem).
	NodeFsAvailable Signal = "nodefs.available"
	// ImageFsAvailable is imagefs.available: free bytes on the dedicated
	// image filesystem (images and writable layers).
	ImageFsAvailable Signal = "imagefs.available"
	// PIDAvailable is pid.available: free process IDs.
	PIDAvailable Signal = "pid.available"
)

// Threshold is an eviction threshold: the signal is in pressure while
// its available amount is below Value (a quantity, or Percentage of the
// capacity when Value is nil). A soft threshold (GracePeriod > 0) acts
// only once it has been met for GracePeriod; a hard one at once. Once
// met, a threshold stays met until available is back above Value plus
// MinReclaim.
type Threshold struct {
	// Signal is what the threshold watches.
	Signal Signal
	// Value is the least available amount; nil to use Percentage.
	Value *resource.Quantity
	// Percentage is the least available share of the capacity, in
	// [0, 1], when Value is nil.
	Percentage float32
	// GracePeriod is how long a soft threshold must be met before the
	// kubelet acts; 0 makes the threshold hard.
	GracePeriod time.Duration
	// MinReclaim is how far above Value the signal must come back before
	// the threshold is no longer met.
	MinReclaim *resource.Quantity
}

func (t Threshold) quantity(capacity int64) int64 {
	if t.Value != nil {
		return t.Value.Value()
	}
	return int64(float64(capacity) * float64(t.Percentage))
}

// NodeStats is what the kubelet observes of its node, per signal.
type NodeStats struct {
	// Capacity of each signal (bytes, or PIDs).
	Capacity map[Signal]int64
	// Available amount of each signal.
	Available map[Signal]int64
}

// PodStats is one pod's usage, per signal (memory working set, nodefs
// and imagefs bytes, process count). NoStats marks a pod the kubelet has
// no stats for: it is evicted first.
type PodStats struct {
	// Pod is the pod.
	Pod *api.Pod
	// Usage is what the pod uses of each signal; evicting it frees that.
	Usage map[Signal]int64
	// NoStats marks a pod without stats.
	NoStats bool
}

// PressureEviction is one eviction of a node-pressure what-if.
type PressureEviction struct {
	// At is the time of the kubelet's housekeeping pass that evicted.
	At time.Duration
	// Signal is the threshold's signal that was being reclaimed.
	Signal Signal
	// Pod is the pod evicted.
	Pod *api.Pod
	// Available is the signal's available amount after the eviction.
	Available int64
}

// MonitoringInterval is the kubelet's eviction housekeeping interval.
const MonitoringInterval = 10 * time.Second

// NodePressureEvictions replays the kubelet's eviction manager on a node
// whose usage stays as given, one housekeeping pass every
// MonitoringInterval from time 0: each pass finds the thresholds met
// (soft ones met for their grace period), reclaims the memory signal
// first and otherwise the first met, ranks the pods not yet evicted for
// it as the kubelet does (memory: usage above request first, then lower
// priority, then most memory above request; nodefs and imagefs: the same
// with ephemeral-storage; pid: lower priority, then most processes) and
// evicts one pod, whose usage is then freed. Critical pods (static and
// mirror pods, and priority 2000000000 or more) are never evicted. It
// stops when no threshold is met, nothing is left to evict, or after
// maxPasses. Node-level reclaim (image and container garbage collection)
// is not modelled: pass Available after it.
func NodePressureEvictions(node NodeStats, pods []PodStats, thresholds []Threshold, maxPasses int) ([]PressureEviction, error) {
	for _, t := range thresholds {
		if _, ok := node.Capacity[t.Signal]; !ok {
			return nil, fmt.Errorf("threshold %s: the node reports no capacity for it", t.Signal)
		}
	}
	avail := map[Signal]int64{}
	for k, v := range node.Available {
		avail[k] = v
	}
	left := append([]PodStats(nil), pods...)
	met := map[Signal]bool{}
	first := map[int]time.Duration{}
	var out []PressureEviction
	for pass := 0; pass < maxPasses; pass++ {
		now := time.Duration(pass) * MonitoringInterval
		// Thresholds met now, keeping those met before until min reclaim.
		var active []int
		for i, t := range thresholds {
			q := t.quantity(node.Capacity[t.Signal])
			if met[t.Signal] && t.MinReclaim != nil {
				q += t.MinReclaim.Value()
			}
			if q > avail[t.Signal] {
				if _, ok := first[i]; !ok {
					first[i] = now
				}
				if now-first[i] >= t.GracePeriod {
					active = append(active, i)
				}
			} else {
				delete(first, i)
			}
		}
		clear(met)
		for _, i := range active {
			met[thresholds[i].Signal] = true
		}
		if len(active) == 0 {
			if len(first) == 0 {
				return out, nil
			}
			continue // a soft threshold is met, within its grace period
		}
		sig := thresholds[active[0]].Signal
		for _, i := range active {
			if thresholds[i].Signal == MemoryAvailable {
				sig = MemoryAvailable
				break
			}
		}
		rankFor(sig, left)
		evicted := -1
		for i, ps := range left {
			if !criticalPod(ps.Pod) {
				evicted = i
				break
			}
		}
		if evicted < 0 {
			return out, nil
		}
		ps := left[evicted]
		left = append(left[:evicted], left[evicted+1:]...)
		for k, v := range ps.Usage {
			avail[k] += v
		}
		out = append(out, PressureEviction{At: now, Signal: sig, Pod: ps.Pod, Available: avail[sig]})
	}
	return out, nil
}

func criticalPod(p *api.Pod) bool {
	if p.Annotations["kubernetes.io/config.mirror"] != "" {
		return true
	}
	if src, ok := p.Annotations["kubernetes.io/config.source"]; ok && src != "api" {
		return true
	}
	return p.Spec.Priority != nil && *p.Spec.Priority >= 2000000000
}

// pressureRank sorts PodStats with the kubelet's comparisons for a
// signal, with sort.Sort as the kubelet does.
type pressureRank struct {
	pods []PodStats
	keys []pressureKey
	pid  bool
}

type pressureKey struct {
	found, exceeds bool
	priority       int32
	above          resource.Quantity
	procs          int64
}

func rankFor(sig Signal, pods []PodStats) {
	r := &pressureRank{pods: pods, keys: make([]pressureKey, len(pods)), pid: sig == PIDAvailable}
	req := api.ResourceEphemeralStorage
	if sig == MemoryAvailable {
		req = api.ResourceMemory
	}
	for i, ps := range pods {
		k := &r.keys[i]
		k.found, k.priority = !ps.NoStats, priority(ps.Pod)
		used := resource.NewQuantity(ps.Usage[sig], resource.BinarySI)
		request := resource.RequestQuantity(ps.Pod, req)
		k.exceeds = used.Cmp(request) > 0
		used.Sub(request)
		k.above = used
		k.procs = ps.Usage[PIDAvailable]
	}
	sort.Sort(r)
}

func (r *pressureRank) Len() int { return len(r.pods) }
func (r *pressureRank) Swap(i, j int) {
	r.pods[i], r.pods[j] = r.pods[j], r.pods[i]
	r.keys[i], r.keys[j] = r.keys[j], r.keys[i]
}
func (r *pressureRank) Less(i, j int) bool {
	a, b := &r.keys[i], &r.keys[j]
	prio := func() int {
		switch {
		case a.priority == b.priority:
			return 0
		case a.priority > b.priority:
			return 1
		}
		return -1
	}
	found := func() (int, bool) {
		if !a.found || !b.found {
			return cmpBool(!a.found, !b.found), true
		}
		return 0, false
	}
	if r.pid {
		if c := prio(); c != 0 {
			return c < 0
		}
		if c, ok := found(); ok {
			return c < 0
		}
		return b.procs-a.procs < 0
	}
	if c, ok := found(); ok {
		if c != 0 {
			return c < 0
		}
	} else if c := cmpBool(a.exceeds, b.exceeds); c != 0 {
		return c < 0
	}
	if c := prio(); c != 0 {
		return c < 0
	}
	if c, ok := found(); ok {
		return c < 0
	}
	return b.above.Cmp(a.above) < 0
}
