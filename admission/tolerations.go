package admission

import "github.com/schedkit/schedkit/api"

// The taints the node lifecycle controller puts on a node whose Ready
// condition is False (not-ready) or Unknown (unreachable).
const (
	TaintNodeNotReady    = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable = "node.kubernetes.io/unreachable"
)

// DefaultTolerationSeconds is how long the DefaultTolerationSeconds
// admission plugin lets a pod stay on a not-ready or unreachable node
// (the API server's --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds, 300 by default).
const DefaultTolerationSeconds = int64(300)

// AddDefaultTolerations is the DefaultTolerationSeconds admission plugin,
// in place: a pod without a toleration for TaintNodeNotReady:NoExecute
// gets {key: not-ready, operator: Exists, effect: NoExecute,
// tolerationSeconds: 300} appended, and likewise for
// TaintNodeUnreachable (not-ready first). As upstream decides it, a
// toleration counts as one for the taint when its key is the taint's or
// empty and its effect is NoExecute or empty; its operator, value and
// tolerationSeconds are not looked at, so a `key: not-ready, operator:
// Equal, value: x` toleration suppresses the default although it does not
// tolerate the taint the controller sets. The API server does this on
// create and on update, so a stored pod already carries them.
func AddDefaultTolerations(pod *api.Pod) {
	notReady, unreachable := false, false
	for _, t := range pod.Spec.Tolerations {
		if t.Effect != "" && t.Effect != api.TaintEffectNoExecute {
			continue
		}
		notReady = notReady || t.Key == "" || t.Key == TaintNodeNotReady
		unreachable = unreachable || t.Key == "" || t.Key == TaintNodeUnreachable
	}
	if !notReady {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, defaultToleration(TaintNodeNotReady))
	}
	if !unreachable {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, defaultToleration(TaintNodeUnreachable))
	}
}

func defaultToleration(key string) api.Toleration {
	s := DefaultTolerationSeconds
	return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &s}
}
