package taints

import (
	"slices"
	"time"

	"github.com/schedkit/schedkit/api"
)

// Taint keys the node lifecycle controller sets for a node's Ready
// condition (admission.AddDefaultTolerations gives pods 300 s for them).
const (
	// NodeNotReady is the taint of a node whose Ready condition is False.
	NodeNotReady = "node.kubernetes.io/not-ready"
	// NodeUnreachable is the taint of a node whose Ready condition is
	// Unknown (the kubelet stopped reporting).
	NodeUnreachable = "node.kubernetes.io/unreachable"
)

// ReadyConditionTaint returns the NoExecute taint the node lifecycle
// controller puts on a node for its Ready condition (status False:
// not-ready, Unknown: unreachable; the two exclude each other), added at
// the given time, and false for a Ready node or one without a Ready
// condition (the controller waits for its grace period, then sets the
// condition Unknown).
func ReadyConditionTaint(node *api.Node, at time.Time) (api.Taint, bool) {
	for _, c := range node.Status.Conditions {
		if c.Type != api.NodeReady {
			continue
		}
		t := api.NewTime(at)
		switch c.Status {
		case api.ConditionFalse:
			return api.Taint{Key: NodeNotReady, Effect: api.TaintEffectNoExecute, TimeAdded: &t}, true
		case api.ConditionUnknown:
			return api.Taint{Key: NodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: &t}, true
		}
		return api.Taint{}, false
	}
	return api.Taint{}, false
}

// conditionTaintKeys are the NoSchedule taints the node lifecycle
// controller derives from node conditions, by condition and status.
var conditionTaintKeys = []struct {
	cond   api.NodeConditionType
	status api.ConditionStatus
	key    string
}{
	{api.NodeReady, api.ConditionFalse, NodeNotReady},
	{api.NodeReady, api.ConditionUnknown, NodeUnreachable},
	{"MemoryPressure", api.ConditionTrue, "node.kubernetes.io/memory-pressure"},
	{"DiskPressure", api.ConditionTrue, "node.kubernetes.io/disk-pressure"},
	{"NetworkUnavailable", api.ConditionTrue, "node.kubernetes.io/network-unavailable"},
	{"PIDPressure", api.ConditionTrue, "node.kubernetes.io/pid-pressure"},
}

// NodeUnschedulable is the NoSchedule taint of a cordoned node.
const NodeUnschedulable = "node.kubernetes.io/unschedulable"

func controllerNoScheduleKey(key string) bool {
	if key == NodeUnschedulable {
		return true
	}
	for _, c := range conditionTaintKeys {
		if c.key == key {
			return true
		}
	}
	return false
}

// WithConditionTaints returns the node's taints as the node lifecycle
// controller leaves them (its NoSchedule tainting pass, then its
// NoExecute pass): a NoSchedule taint for each condition that calls for
// one (Ready False: not-ready, Unknown: unreachable; MemoryPressure,
// DiskPressure, PIDPressure, NetworkUnavailable True) and for
// spec.unschedulable, and the Ready condition's NoExecute taint
// (ReadyConditionTaint, added at the given time). The controller's taints
// no condition calls for any more are removed; those still called for
// are kept as they are; other taints are untouched.
func WithConditionTaints(node *api.Node, at time.Time) []api.Taint {
	var wantNS []string
	for _, c := range node.Status.Conditions {
		for _, k := range conditionTaintKeys {
			if k.cond == c.Type && k.status == c.Status {
				wantNS = append(wantNS, k.key)
			}
		}
	}
	if node.Spec.Unschedulable {
		wantNS = append(wantNS, NodeUnschedulable)
	}
	wantNE, needNE := ReadyConditionTaint(node, at)
	var out []api.Taint
	have := map[string]bool{}
	for _, t := range node.Spec.Taints {
		switch {
		case t.Effect == api.TaintEffectNoSchedule && controllerNoScheduleKey(t.Key):
			if !slices.Contains(wantNS, t.Key) || have[t.Key] {
				continue
			}
			have[t.Key] = true
		case t.Effect == api.TaintEffectNoExecute && (t.Key == NodeNotReady || t.Key == NodeUnreachable):
			if !needNE || t.Key != wantNE.Key {
				continue
			}
			needNE = false
		}
		out = append(out, t)
	}
	for _, k := range wantNS {
		if !have[k] {
			have[k] = true
			out = append(out, api.Taint{Key: k, Effect: api.TaintEffectNoSchedule})
		}
	}
	if needNE {
		out = append(out, wantNE)
	}
	return out
}
