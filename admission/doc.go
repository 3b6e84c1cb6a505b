// Package admission does to a pod what the Kubernetes API server does
// before the scheduler ever sees it: defaulting (requests from limits,
// scheduler name, port protocols, host-network ports), the pod strategy's
// merge of matchLabelKeys/mismatchLabelKeys into pod affinity selectors,
// the Priority admission plugin (priorityClassName → priority and
// preemption policy) and the LimitRanger admission plugin.
//
// The scheduling packages (qos, affinity, predicates, …) read pods the way
// kube-scheduler does: as stored by the API server. Pods read back from a
// cluster need nothing from this package; pods written by hand or taken
// from manifests that were never applied should go through Admit first,
// so that schedkit sees what the cluster would.
package admission
