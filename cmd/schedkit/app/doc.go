// Package app is the schedkit command. Main and Run take its command line
// and return its exit code, so another program (the kubectl-schedkit
// plugin, a test) runs the command in process.
//
// The command answers, from Kubernetes manifests or a cluster dump, what
// kube-scheduler v1.37.2 would do and why: where each pending pod
// lands, every node's verdict, every score, the fit error kubectl describe
// shows, how much more fits, what a configuration change or a drain would
// change.
//
// Usage:
//
//	schedkit explain  -f DUMP [-f MORE]... [--config FILE] [--independent] [--pod NS/NAME|KIND/NS/NAME] [-n NS|-A] [-o table|wide|json|yaml] [--top N] [--html FILE] [--strict]
//	schedkit simulate -f DUMP... [--config FILE] [-o table|json|yaml] [--strict]
//	schedkit describe -f DUMP... [-n NS] [-o table|json|yaml]
//	schedkit capacity -f DUMP... --pod FILE [--pod FILE]... [-o table|json|yaml]
//	schedkit compare  -f DUMP... --config A [--config B] [--all] [-o table|json|yaml] [--strict]
//	schedkit drain    -f DUMP... [kubectl drain's flags] NODE... [-o table|json|yaml] [--strict]
//	schedkit scale-up -f DUMP... --node-template FILE... [--max N] [--expander least-waste|most-pods|priority] [--priorities FILE] [-o table|json|yaml]
//	schedkit scale-down -f DUMP... [--node NODE]... [--utilization-threshold 0.5] [cluster-autoscaler's flags] [-o table|json|yaml]
//	schedkit version
//
// -f takes files, folders (with -R, their subfolders), comma lists and "-"
// for standard input, as kubectl does. Nodes and the pods bound to them
// (spec.nodeName set) form the cluster; pods without spec.nodeName are
// pending: new ones are admitted as the API server would (defaulting,
// PriorityClasses, LimitRanges, ResourceQuotas with the limitedResources
// of --admission-config FILE) and all are scheduled in queue order
// (priority, then stored pods by namespace and name, then new ones in
// reading order). As with kubectl apply, unknown and duplicate fields are
// errors (--validate=strict, the default); --validate=warn makes them
// warnings, --validate=ignore drops them silently.
//
// Exit codes, one rule for every command: 0 done; 1 when some pod is
// unschedulable or fits only by preempting (drain: also a node not
// drained or an eviction blocked) or, with --strict, when some decision
// is unverified or a warning was printed; 2 bad input or bad usage, with
// an error naming the file, line, document and field.
package app
