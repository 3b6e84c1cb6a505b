package taints

import (
	"time"

	"github.com/schedkit/schedkit/api"
)

// DecisionKind says whether and when a pod is evicted by NoExecute taints.
type DecisionKind int

// Decision kinds.
const (
	// EvictNever: the pod tolerates every NoExecute taint forever (or
	// there are none); any pending eviction is cancelled.
	EvictNever DecisionKind = iota
	// EvictNow: some NoExecute taint is not tolerated; the pod is
	// evicted at once.
	EvictNow
	// EvictAt: every taint is tolerated, but only for a while; the pod
	// is evicted at Decision.Time.
	EvictAt
)

// String names the kind.
func (k DecisionKind) String() string {
	switch k {
	case EvictNever:
		return "Never"
	case EvictNow:
		return "Now"
	case EvictAt:
		return "At"
	}
	return "DecisionKind(?)"
}

// Decision is the taint eviction controller's verdict for one pod.
type Decision struct {
	// Kind is Never, Now or At.
	Kind DecisionKind
	// Time is when the pod is evicted: the start time for Now, start +
	// the smallest tolerationSeconds for At, zero for Never.
	Time time.Time
}

// String renders the decision, e.g. "At(2026-01-02T15:04:05Z)".
func (d Decision) String() string {
	if d.Kind == EvictAt {
		return "At(" + d.Time.UTC().Format(time.RFC3339) + ")"
	}
	return d.Kind.String()
}

// EvictionTime decides, with the default Options, when pod is evicted
// from a node with taints. See Options.EvictionTime.
func EvictionTime(pod *api.Pod, taints []api.Taint, now time.Time) Decision {
	return Options{}.EvictionTime(pod, taints, now)
}

// EvictionTime decides when pod is evicted from a node with taints, as
// the taint eviction controller's processPodOnNode does. Only NoExecute
// taints count. With none, Never. Each taint is matched to the first of
// the pod's tolerations that tolerates it; if some taint has none, Now.
// Otherwise the smallest tolerationSeconds among those matched
// tolerations decides (getMinTolerationTime): a zero or negative one
// means At(now), all nil means Never (tolerated forever), else
// At(now + seconds).
//
// now is when the toleration window starts: the controller uses the time
// it observes the taint (or, if it already scheduled this pod's eviction
// earlier, keeps that earlier deadline when it is sooner — a caller
// replaying history should pass the first observation time). The
// controller does not read Taint.TimeAdded. A nil pod has no
// tolerations.
func (o Options) EvictionTime(pod *api.Pod, taints []api.Taint, now time.Time) Decision {
	var tols []api.Toleration
	if pod != nil {
		tols = pod.Spec.Tolerations
	}
	found := false
	minSecs := int64(-1) // -1: no bound seen yet (forever)
	for i := range taints {
		if taints[i].Effect != api.TaintEffectNoExecute {
			continue
		}
		found = true
		j := 0
		for ; j < len(tols); j++ {
			if o.Tolerates(tols[j], taints[i]) {
				break
			}
		}
		if j == len(tols) {
			return Decision{Kind: EvictNow, Time: now}
		}
		if s := tols[j].TolerationSeconds; s != nil {
			v := *s
			if v < 0 {
				v = 0
			}
			if minSecs < 0 || v < minSecs {
				minSecs = v
			}
		}
	}
	if !found || minSecs < 0 {
		return Decision{Kind: EvictNever}
	}
	return Decision{Kind: EvictAt, Time: now.Add(time.Duration(minSecs) * time.Second)}
}

// Eviction is a pod and the decision about it.
type Eviction struct {
	// Pod is the pod concerned.
	Pod *api.Pod
	// Decision is when it is evicted.
	Decision Decision
}

// PodsToEvict returns, with the default Options, the pods on a node whose
// taints changed from oldTaints to newTaints that must be evicted. See
// Options.PodsToEvict.
func PodsToEvict(pods []*api.Pod, oldTaints, newTaints []api.Taint, now time.Time) []Eviction {
	return Options{}.PodsToEvict(pods, oldTaints, newTaints, now)
}

// PodsToEvict returns, in order, the pods (bound to one node) that the
// taint eviction controller evicts, now or later, after the node's
// taints change from oldTaints to newTaints, with their decisions. As the
// controller's NodeUpdated, nothing happens (nil) if the NoExecute taints
// are unchanged, in order, including timeAdded; otherwise every pod is
// re-decided against the new NoExecute taints with EvictionTime. Pods
// left out are not evicted, and any eviction pending for them is
// cancelled. Nil pods are skipped.
func (o Options) PodsToEvict(pods []*api.Pod, oldTaints, newTaints []api.Taint, now time.Time) []Eviction {
	if sameNoExecute(oldTaints, newTaints) {
		return nil
	}
	var out []Eviction
	for _, p := range pods {
		if p == nil {
			continue
		}
		if d := o.EvictionTime(p, newTaints, now); d.Kind != EvictNever {
			out = append(out, Eviction{Pod: p, Decision: d})
		}
	}
	return out
}

// sameNoExecute compares the NoExecute taints of a and b, in order.
func sameNoExecute(a, b []api.Taint) bool {
	i, j := 0, 0
	for {
		for i < len(a) && a[i].Effect != api.TaintEffectNoExecute {
			i++
		}
		for j < len(b) && b[j].Effect != api.TaintEffectNoExecute {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		x, y := a[i], b[j]
		if x.Key != y.Key || x.Value != y.Value || !sameTime(x.TimeAdded, y.TimeAdded) {
			return false
		}
		i++
		j++
	}
}

func sameTime(a, b *api.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b.Time)
}
