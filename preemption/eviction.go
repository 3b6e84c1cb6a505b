package preemption

import (
	"fmt"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// MaxDisruptedPodSize is how many evictions a budget's
// status.disruptedPods may hold before the eviction API refuses more
// (upstream's MaxDisruptedPodSize).
const MaxDisruptedPodSize = 2000

// EvictionError is the eviction subresource's refusal: Code is the HTTP
// status (429 Too Many Requests while a budget allows no disruption, 500
// for a pod with several budgets, 403 for a budget in a bad state),
// Message the status message and Cause the budget's cause, as the API
// server words them.
type EvictionError struct {
	// Pod is the pod not evicted.
	Pod *api.Pod
	// Budget names the budget that refused, empty for Code 500.
	Budget string
	// Code is the HTTP status code.
	Code int
	// Message is the status message.
	Message string
	// Cause is the DisruptionBudget cause's message, if any.
	Cause string
}

func (e *EvictionError) Error() string {
	if e.Cause == "" {
		return e.Message
	}
	return e.Message + " " + e.Cause
}

const tooManyRequests = "Cannot evict pod as it would violate the pod's disruption budget."

// Budgets is a set of PodDisruptionBudgets as the eviction subresource
// sees and updates them: each eviction a budget allows uses one of its
// status.disruptionsAllowed and adds the pod to status.disruptedPods,
// until the disruption controller recomputes the budget (which Budgets
// does not model). Budgets holds copies; the objects given are not
// modified.
type Budgets struct {
	pdbs []*api.PodDisruptionBudget
	sels []affinity.Selector
	ok   []bool
}

// NewBudgets copies pdbs.
func NewBudgets(pdbs []*api.PodDisruptionBudget) *Budgets {
	b := &Budgets{}
	for _, p := range pdbs {
		c := *p
		c.Status.DisruptedPods = make(map[string]api.Time, len(p.Status.DisruptedPods))
		for k, v := range p.Status.DisruptedPods {
			c.Status.DisruptedPods[k] = v
		}
		sel, err := affinity.CompileLabelSelector(c.Spec.Selector)
		b.pdbs = append(b.pdbs, &c)
		b.sels = append(b.sels, sel)
		b.ok = append(b.ok, err == nil)
	}
	return b
}

// Budget returns the current state of the named budget.
func (b *Budgets) Budget(namespace, name string) (*api.PodDisruptionBudget, bool) {
	for _, p := range b.pdbs {
		if p.Namespace == namespace && p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// matching is the eviction API's getPodDisruptionBudgets: the budgets of
// the pod's namespace whose selector (valid; an empty one matches every
// pod, a nil one none) matches its labels.
func (b *Budgets) matching(pod *api.Pod) []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for i, p := range b.pdbs {
		if p.Namespace != pod.Namespace || !b.ok[i] || !b.sels[i].Matches(pod.Labels) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func podReady(pod *api.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// Evict decides whether the eviction subresource evicts pod at now, as
// the API server's EvictionREST.Create does, and records the disruption
// in the budget that allowed it. It returns nil when the pod is evicted:
// a pod Succeeded, Failed, Pending or already being deleted at once; a
// pod without budget; an unready pod whose budget has
// unhealthyPodEvictionPolicy AlwaysAllow or enough healthy pods (without
// using a disruption); otherwise when its one budget allows a disruption.
// It returns an *EvictionError otherwise.
func (b *Budgets) Evict(pod *api.Pod, now time.Time) error {
	switch pod.Status.Phase {
	case api.PodSucceeded, api.PodFailed, api.PodPending:
		return nil
	}
	if pod.DeletionTimestamp != nil && !pod.DeletionTimestamp.IsZero() {
		return nil
	}
	pdbs := b.matching(pod)
	if len(pdbs) > 1 {
		return &EvictionError{Pod: pod, Code: 500, Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}
	}
	if len(pdbs) == 0 {
		return nil
	}
	pdb := pdbs[0]
	if !podReady(pod) {
		if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil && *p == "AlwaysAllow" {
			return nil
		}
		if pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0 {
			return nil
		}
	}
	refuse := func(code int, msg, cause string) error {
		return &EvictionError{Pod: pod, Budget: pdb.Name, Code: code, Message: msg, Cause: cause}
	}
	st := &pdb.Status
	switch {
	case st.ObservedGeneration < pdb.Generation:
		return refuse(429, tooManyRequests, fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb.Name))
	case st.DisruptionsAllowed < 0:
		return refuse(403, fmt.Sprintf("poddisruptionbudget.policy %q is forbidden: pdb disruptions allowed is negative", pdb.Name),
			fmt.Sprintf("The disruption budget %s does not allow evicting pods currently: pdb disruptions allowed is negative", pdb.Name))
	case len(st.DisruptedPods) > MaxDisruptedPodSize:
		return refuse(403, fmt.Sprintf("poddisruptionbudget.policy %q is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller", pdb.Name),
			fmt.Sprintf("The disruption budget %s does not allow evicting pods currently: too many pending evictions not confirmed by PDB controller", pdb.Name))
	case st.DisruptionsAllowed == 0:
		cause := fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", pdb.Name)
		if st.CurrentHealthy <= st.DesiredHealthy {
			cause = fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, st.DesiredHealthy, st.CurrentHealthy)
		}
		return refuse(429, tooManyRequests, cause)
	}
	st.DisruptionsAllowed--
	st.DisruptedPods[pod.Name] = api.NewTime(now)
	return nil
}
