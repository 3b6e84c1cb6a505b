// Package admission does to a new pod what the Kubernetes API server does
// before the scheduler sees it.
//
// A pod written by hand has not been defaulted: its requests may be
// missing, its priority unresolved. Admit it with the namespace's
// policies, then schedule the result:
//
//	pol := admission.Policies{PriorityClasses: classes, LimitRanges: ranges}
//	admitted, err := admission.Admit(pod, pol) // err: the API server's rejection
//	d, err := s.Schedule(ctx, admitted)
//
// A pod read back from a cluster is stored already: AdmitStored keeps its
// priority. A Chain admits pods one after another and charges each to the
// namespace's ResourceQuotas.
//
// # What it does
//
// It does to a pod what the Kubernetes API server does
// before the scheduler ever sees it: defaulting (requests from limits,
// scheduler name, port protocols, host-network ports), the mutating
// admission plugins LimitRanger (defaults), Priority (priorityClassName →
// priority and preemption policy) and DefaultTolerationSeconds (the
// not-ready and unreachable NoExecute tolerations of 300 s), the pod
// strategy's merge of matchLabelKeys/mismatchLabelKeys into pod affinity
// selectors, and the validating plugins LimitRanger and ResourceQuota.
//
// The scheduling packages (qos, affinity, predicates, …) read pods the way
// kube-scheduler does: as stored by the API server. Pods read back from a
// cluster need only AdmitStored (which keeps what the API server stored);
// pods written by hand or taken from manifests that were never applied
// should go through Admit first, so that schedkit sees what the cluster
// would. Rejections print as the API server prints them, such as
// `pods "web" is forbidden: no PriorityClass with name gold was found`.
package admission
