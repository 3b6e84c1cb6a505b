package scheduler

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
)

// WithAdmission makes the scheduler admit each new pod it is given as
// the API server would create it (admission.Admit over p: defaulting,
// requests copied from limits, LimitRanger, Priority,
// DefaultTolerationSeconds, matchLabelKeys, ResourceQuota) before
// Schedule, Explain, Assume, Enqueue and Simulate read it. A pod is new
// when admission.IsStored says it has not been through an API server;
// stored pods are read as they are. A pod admission rejects is an error
// of the call, the API server's message.
//
// Without it the scheduler reads every pod as the API server stored it,
// as kube-scheduler does: a hand-written pod with only a limit then
// requests nothing, since the defaulting that copies limits into
// requests never ran.
func WithAdmission(p admission.Policies) Option {
	return func(o *options) { o.admission = &p }
}

// admit is the pod the scheduler reads: the admitted copy of a new pod
// under WithAdmission, else pod itself.
func (s *Scheduler) admit(pod *api.Pod) (*api.Pod, error) {
	if s.admission == nil || pod == nil || admission.IsStored(pod) {
		return pod, nil
	}
	a, err := admission.Admit(pod, *s.admission)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return a, nil
}
