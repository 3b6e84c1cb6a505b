// Package autoscaler answers cluster-autoscaler's two questions with
// kube-scheduler's placements: how many nodes of which node group would
// place the pending pods (PlanScaleUp), and which nodes could go with
// every pod rescheduled elsewhere (PlanScaleDown).
//
//	up, _ := autoscaler.PlanScaleUp(ctx, s, pending, autoscaler.ScaleUpOptions{
//		Groups: []autoscaler.NodeGroup{{Template: template}}, Expander: autoscaler.LeastWaste})
//	down, _ := autoscaler.PlanScaleDown(ctx, s, autoscaler.ScaleDownOptions{UtilizationThreshold: 0.5})
//
// cluster-autoscaler simulates with the scheduler's filters only and
// takes the first node that fits; here every placement is the one
// scheduler.Scheduler's cycle makes (scores, spreading, tie-breaks,
// the queue's order), so an answer is what kube-scheduler would do with
// the nodes added or removed.
//
// With GenericWorkload on, PlanScaleDown places a gang member's
// replacement as a new pod joining its PodGroup, so a node stays when the
// gang's replacements cannot be placed together. cluster-autoscaler
// v1.37 ignores PodGroups: PlanScaleUp given a scheduler with the gate
// off makes its plan, and GangsAfterScaleUp says beside it which gangs
// fit whole with the new nodes.
//
// # Internals
//
// Both run on forks of the scheduler (scheduler.Scheduler.Fork): a
// what-if is tried on a fork and kept by Commit or dropped by Revert, so
// the caller's scheduler never changes. PlanScaleUp adds nodes step by
// step, each step's group chosen by the expander among every group's
// offer, then leaves each node out in turn and drops those the pods do
// without: with any one node fewer some pod stays pending. PlanScaleDown
// tries the candidates one at a time, each on the state the removals
// before it left, with cluster-autoscaler's drain rules and texts, its
// utilisation (the higher of the cpu and memory shares requested) and the
// budgets' remaining disruptions.
package autoscaler
