package main

import (
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/conformance/internal/controlplane"
)

// timeline is upstream's history in the order the scheduler lived it,
// which the lockstep replays.
//
// Placements come from the scheduler's own record (Cycles), not from the
// watch: kube-scheduler assumes a pod in its cache at Reserve, in its
// one-pod-at-a-time scheduling loop, and binds it in a goroutine of its
// own, so the bindings reach the API server, and the watch, in any order.
// The next cycle already sees the assumed pod, so the Reserve order is
// the order of the states the pods were judged in.
//
// A nomination is observed on the watch after the cycle that made it; it
// is moved back to that cycle's start: the last start of the pod before
// it was seen whose cycle did not end in a Reserve. Its victims are the
// deletions started on the nominated node nearest it on the watch. A pod
// whose deletion started still holds its room in the scheduler's cache
// until the object is removed; the removals are where the scheduler's
// own informer delivered them (Cycles), which the runner's watch may see
// after the cycle they woke. The deletions of the pods in userDeleted
// (keys), which the runner made (deleteAfterSettle), are no preemption's
// victims.
func timeline(watch []podEvent, cycles []controlplane.Cycle, userDeleted map[string]bool) []podEvent {
	type entry struct {
		ev  podEvent
		seq int
	}
	var out []entry
	add := func(ev podEvent) { out = append(out, entry{ev, len(out)}) }

	starts := map[string][]time.Time{}
	reserves := map[string][]time.Time{}
	for _, c := range cycles {
		key := c.Namespace + "/" + c.Name
		switch c.Step {
		case controlplane.CycleStart:
			starts[key] = append(starts[key], c.At)
		case controlplane.CycleReserve:
			reserves[key] = append(reserves[key], c.At)
			add(podEvent{kind: evBind, key: key, node: c.Node, at: c.At})
		case controlplane.CycleUnreserve:
			add(podEvent{kind: evUnreserve, key: key, node: c.Node, at: c.At})
		case controlplane.CycleRemoved:
			add(podEvent{kind: evGone, key: key, node: c.Node, at: c.At})
		}
	}

	victims := victimsOf(watch, userDeleted)
	for i, ev := range watch {
		switch ev.kind {
		case evNominate:
			ev.at = preemptionCycle(starts[ev.key], reserves[ev.key], ev.at)
			ev.victims = nil
			for _, j := range victims[i] {
				ev.victims = append(ev.victims, watch[j].key)
			}
			add(ev)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].ev.at.Equal(out[j].ev.at) {
			return out[i].ev.at.Before(out[j].ev.at)
		}
		return out[i].seq < out[j].seq
	})
	evs := make([]podEvent, len(out))
	for i, e := range out {
		evs[i] = e.ev
	}
	return evs
}

// preemptionCycle is the start of the cycle that made a nomination seen
// at seen: the last start before it whose cycle did not end in a Reserve
// (a cycle that placed the pod did not preempt; the watch may see the
// nomination after the next cycle began). Without such a start it is
// seen.
func preemptionCycle(starts, reserves []time.Time, seen time.Time) time.Time {
	for i := len(starts) - 1; i >= 0; i-- {
		s := starts[i]
		if s.After(seen) {
			continue
		}
		placed := false
		for _, r := range reserves {
			if r.After(s) && (i+1 == len(starts) || r.Before(starts[i+1])) {
				placed = true
				break
			}
		}
		if !placed {
			return s
		}
	}
	return seen
}

// victimsOf assigns each deletion on the watch to the nomination on its
// node nearest before it, or else nearest after it: a preemption deletes
// its victims right after it nominates the node. It returns the victims
// (watch indexes) of each nomination. Deletions of pods in userDeleted
// are left out.
func victimsOf(watch []podEvent, userDeleted map[string]bool) map[int][]int {
	victims := map[int][]int{}
	for i, ev := range watch {
		if ev.kind != evDelete || userDeleted[ev.key] {
			continue
		}
		best := -1
		for j := i - 1; j >= 0; j-- {
			if watch[j].kind == evNominate && watch[j].node == ev.node {
				best = j
				break
			}
		}
		if best < 0 {
			for j := i + 1; j < len(watch); j++ {
				if watch[j].kind == evNominate && watch[j].node == ev.node {
					best = j
					break
				}
			}
		}
		if best >= 0 {
			victims[best] = append(victims[best], i)
		}
	}
	return victims
}

// compareBindings checks the record against the API server: a pod the
// scheduler bound is bound to the node of its last Reserve. A line here
// is the runner's failure, not schedkit's.
func (c *comparer) compareBindings(events []podEvent, final map[string]*v1.Pod) {
	last := map[string]string{}
	for _, ev := range events {
		switch ev.kind {
		case evBind:
			last[ev.key] = ev.node
		case evUnreserve:
			delete(last, ev.key)
		}
	}
	keys := make([]string, 0, len(final))
	for k := range final {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := final[k]
		if p.Spec.NodeName == "" || !scheduled(p) {
			continue
		}
		if n, ok := last[k]; !ok || n != p.Spec.NodeName {
			if !ok {
				n = "no Reserve recorded"
			}
			c.add("recorder", "Pod "+k, "bound node", p.Spec.NodeName, "(last Reserve) "+n)
		}
	}
}
