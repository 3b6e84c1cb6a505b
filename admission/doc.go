// Package admission does to a pod what the Kubernetes API server does
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
