// Package scheduler places pods on the nodes of a cluster.Snapshot with
// kube-scheduler's scheduling cycle (v1.37.2's schedulePod).
//
// # Start here
//
// Build a snapshot, then a scheduler over it, then ask it about pods:
//
//	snap, _ := cluster.NewSnapshot(nodes, boundPods)
//	s, _ := scheduler.New(snap)    // kube-scheduler's default profile
//	defer s.Close()                // stops its helper goroutines
//	d, err := s.Schedule(ctx, pod)   // the Decision: where would the pod go?
//	ex, _ := s.Explain(ctx, pod)     // the Decision and why: every node, every plugin
//	placements, _ := s.Simulate(ctx, pods) // queue and place many pods
//	ex, _ = s.ExplainWhyNot(ctx, pod) // a pod that fits nowhere: what would fix it
//	ex.LeaveOneOut()                  // which score plugin decided the winner
//
// The scheduler reads pods as the API server stored them, as
// kube-scheduler does: defaulted (requests copied from limits), priority
// resolved, LimitRange defaults applied. A pod written by hand has been
// through none of that; WithAdmission(policies) admits such new pods as
// the API server would create them (package admission), so that a pod
// with only a 7-cpu limit requests 7 cpus and does not land on a 4-cpu
// node:
//
//	s, _ := scheduler.New(snap, scheduler.WithAdmission(admission.Policies{LimitRanges: ranges, PriorityClasses: classes}))
//
// Every result names the pod's Outcome in one vocabulary (placed,
// preempting, unschedulable, gated) and Summary counts them, with the
// line every report of the command ends with.
//
// Schedule does not change the snapshot; Assume adds a placement, so that
// the next decision sees it. A pod that fits nowhere gets a *FitError
// whose message is kube-scheduler's; a gated pod a *GatedError. Explain
// reports the PreEnqueue and PreFilter verdicts, each node's first failing
// filter (code, plugin, reasons), each feasible node's per-plugin scores
// and weights, the nodes tied at the best total and the pick, and, for a
// pod that fits nowhere, what preemption would do (a dry run of the
// PostFilter plugins: the nominated node, the victims, and per node the
// victims or why it cannot help); for a pod with ResourceClaims, per node
// DynamicResources' own verdict and the devices each claim gets there
// (NodeExplanation.Devices). Explain's Decision is the one Schedule
// returns, and it moves the rotating start index and the random source
// on as Schedule does; neither assumes, nominates or evicts.
//
// # What-ifs
//
// ExplainWhyNot adds, for a pod that fits nowhere, per node the smallest
// single change that makes the node feasible (WhyNot: lower a request,
// tolerate taints, drop a taken host port, label or uncordon the node,
// add the pods a spread constraint needs, evict preemption's victims)
// and a count of why nodes fail. Each suggestion is verified by the
// cycle's PreFilter and Filter steps for its node with the change
// applied: to the pod, to copies of the node and PreFilter state as
// preemption's dry run does, or to a copy of the cluster (sandbox.go,
// the one place a fork would replace). LeaveOneOut re-ranks an
// explanation's totals without each score plugin, and finds the nearest
// integer weight that changes the winner.
//
// Decision.Unverified says why a decision may differ from
// kube-scheduler's: features the pod uses whose plugins the profile
// lists as not evaluated (unverified.go), with the fields
// WithUnmodelledFields names, and extended resources DRA would decide.
//
// # The cycle
//
// cycle.go is the cycle written plainly, one node and one plugin at a
// time, and is the definition of what a cycle decides: the pod's profile
// by spec.schedulerName, PreEnqueue, PreFilter, the nominated node first,
// Filter from a rotating start index until the sampling target
// (percentageOfNodesToScore) is met, PreScore, Score with normalisation,
// the range check and weights, and the best node, ties broken as
// upstream's heap does (or, with TieBreakRandom, by a seeded random
// source). Explain runs it.
//
// Schedule runs the same PreFilter and nominated node, then hands Filter
// and Score to the engine (package internal/engine): parallel chunks,
// batch plugin calls, normalisation by the highest score, scoring as
// nodes pass Filter. The engine decides what the plain cycle decides,
// node for node and error for error, whatever the parallelism; which of
// its fast paths apply is decided per cycle from the plugins active in it
// (framework.FastPathPlugin), and a cycle they do not cover is run the
// plain way. The tests compare the two; WithEngineCheck runs both in
// every cycle and fails on any difference.
//
// The engine shares large cycles with helper goroutines that belong to
// the Scheduler: Close stops them (a closed Scheduler still works, on one
// goroutine). Helpers are used only where they pay: a cycle that filters
// and scores every node from 256 nodes, one that only filters when it
// must find 2,000 nodes, a separate score pass from 2,000 nodes; a
// sampled cycle of a 5,000-node cluster stays on one goroutine. A
// cycle's CycleState and NodeToStatus are reused by the next cycle
// unless a FitError takes them.
//
// # The queue
//
// The scheduling queue (Enqueue, RunQueue, Simulate) orders pods with the
// profile's QueueSort plugin (PrioritySort: priority, then arrival),
// holds back gated pods (SchedulingGates) and parks unschedulable pods
// until a cluster change one of their rejecting plugins cares about.
//
// A pod that fits nowhere goes to the profile's PostFilter plugins:
// DefaultPreemption (package preemption) nominates a node and names the
// victims (Decision.PostFilterResult; the FitError's message ends with the
// PostFilter message). Schedule only reports it; RunQueue and Simulate
// act on it as the preemption executor and the API server would: the
// victims leave the snapshot, the pod is nominated (and pods of lower
// priority nominated to that node lose their nomination), and the pod is
// retried on the nominated node first (Placement.Preemptions lists each
// preemption). Other cycles' filters count nominated pods of equal or
// higher priority on their nodes. Drain and TaintNode are what-ifs over
// evictions: Drain is `kubectl drain` with its flags (DrainOptions), its
// filters and texts, evicting through the eviction API's
// PodDisruptionBudget checks; TaintNode applies NoExecute taints over
// time. Both schedule the evicted pods' replacements.
//
// # Transactions
//
// Fork returns a scheduler that starts in its origin's state and then
// changes on its own: every method works on it as on the origin, over a
// copy-on-write fork of the snapshot (cluster.Snapshot.Fork), so a fork
// of 5,000 nodes running 150,000 pods costs a few hundred microseconds
// with 100 placements. Commit gives the fork's state to the origin (and
// fails with ErrForkConflict if the origin moved since); Revert brings
// the fork back to the origin's state. Forks are independent: each may
// run on its own goroutine. The fork's plugins are its own and share
// with the origin only what they declare costly and safe to share
// (framework.SharedValues, such as DynamicResources' CEL compiler).
//
// # Gangs
//
// With WithFeatureGates and GenericWorkload on, the pods of a PodGroup
// (spec.schedulingGroup, the group in the snapshot's object store) are
// scheduled as kube-scheduler's PodGroup cycle schedules them
// (schedule_one_podgroup.go, gang.go here): GangScheduling's PreEnqueue
// holds the group back until minCount of its pods exist; the queue takes
// the group's waiting pods out together; they are tried in upstream's
// member order, each assumed so that the next see it, PlacementFeasible
// stopping the cycle once minCount is out of reach; a group that does
// not succeed has every assumption reverted, runs PodGroupPostFilter
// (workload-aware preemption, gang_preemption.go) and its pods go back to
// the queue with their own fit error or the group's status (GangError).
// A gang is thus placed whole or not at all, and never waits at Permit
// holding resources. Each cycle writes the PodGroup's
// PodGroupInitiallyScheduled condition; a failed group backs off and is
// retried once the active queue is empty, if a cluster event came since,
// one group at a time in the order their backoffs end on the simulated
// clock (queue.go, flushBackoff). GangCapacity counts the gangs of a shape that
// still fit; Drain's replacements of a group's pods join the group as
// new pods.
//
// Plugins are looked up by name in a framework.Registry: DefaultRegistry
// has the plugins this build implements; plugins of the default profile
// it lacks are reported in Decision.NotEvaluated.
package scheduler
