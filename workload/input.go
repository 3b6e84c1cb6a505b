package workload

import (
	"time"

	"github.com/schedkit/schedkit/api"
)

// Input is what the workload controllers read: the objects of a cluster,
// the time, and the seed of the names they draw. The objects are not
// modified.
type Input struct {
	// Nodes are where DaemonSets place their pods.
	Nodes []*api.Node
	// Pods are the pods that exist. Controllers claim them by controller
	// reference or by selector, and the names they give new pods avoid
	// theirs.
	Pods []*api.Pod

	ReplicationControllers []*api.ReplicationController
	ReplicaSets            []*api.ReplicaSet
	StatefulSets           []*api.StatefulSet
	Deployments            []*api.Deployment
	DaemonSets             []*api.DaemonSet
	Jobs                   []*api.Job
	// Claims are the PersistentVolumeClaims that exist: a StatefulSet
	// creates the claims of its volumeClaimTemplates that are not among
	// them.
	Claims []*api.PersistentVolumeClaim
	// ControllerRevisions hold the pod templates StatefulSets and
	// DaemonSets rolled out.
	ControllerRevisions []*api.ControllerRevision

	// Raw holds the JSON a Deployment, ReplicaSet, DaemonSet or StatefulSet
	// was read from, keyed by the object's pointer. The pod-template-hash
	// and the controller-revision-hash cover every field Kubernetes knows,
	// so they are computed from it. An object without an entry is hashed
	// from schedkit's types, which lack the fields schedkit does not model.
	Raw map[any][]byte

	// Now is the time the Job controller judges activeDeadlineSeconds and
	// pod failure backoff by. The zero time means this machine's clock,
	// and a Job whose deadline is judged by it gets a warning.
	Now time.Time
	// Seed makes the random name suffixes of the created pods. The same
	// Input and Seed give the same names.
	Seed uint64
}

// Warning is something a controller could not do, said as upstream says
// it, such as a workload without a selector.
type Warning struct {
	// Workload is the object warned about, a pointer held by the Input,
	// or nil.
	Workload any
	// Object names it, as "Deployment shop/web".
	Object string
	// Message says what.
	Message string
}

// Expand returns the pods the workload controllers of Kubernetes v1.37.2
// would create now from in, and warnings where a controller could not act
// as upstream's does. The pods come in the order the controllers would
// create them: ReplicaSets (those of Deployments included),
// ReplicationControllers, the new ReplicaSets of Deployments,
// StatefulSets, Jobs, DaemonSets. They are new: no node, no uid, not admitted. The
// objects of in are not changed.
//
// Each controller counts
// the pods it claims as the controllers' ClaimPods does: a pod whose
// controller reference has the controller's uid (for a controller
// without a uid, one not yet through an API server: the reference's kind
// and name) while its labels match the selector; an orphan whose labels
// match is adopted unless it or the controller is being deleted; pods
// being deleted, Succeeded or Failed do not count. Then:
//   - a ReplicaSet or ReplicationController creates replicas minus its
//     active pods, named `<name>-<5 random characters>`;
//   - a Deployment claims ReplicaSets likewise and sets the replicas
//     its ReplicaSets are expanded with: on a scaling event (an active
//     ReplicaSet's deployment.kubernetes.io/desired-replicas differs) or
//     when paused, as the controller's scale does: the one active
//     ReplicaSet's (or, with none active, the newest's) become the
//     Deployment's; a saturated new ReplicaSet scales the old ones to
//     zero; else a RollingUpdate's active ReplicaSets share the
//     difference to replicas plus maxSurge proportionally (each by its
//     deployment.kubernetes.io/max-replicas, the largest first, ties
//     newest first up and oldest first down, the leftover to the
//     first);
//     else the one with its template (EqualIgnoreHash: Semantic.DeepEqual
//     of the stored templates but for the hash label, the oldest first)
//     grows as reconcileNewReplicaSet grows it (within maxSurge; Recreate
//     once old pods are gone); with none, it creates the pods of a new
//     ReplicaSet `<deployment>-<pod-template-hash>`, the hash as the
//     Deployment
//     controller computes it (PodTemplateHash, over the template as the
//     API server stores it: read from the document, fields schedkit does
//     not model included, defaulted for a new Deployment, with
//     status.collisionCount, bumped while the name is another
//     ReplicaSet's), as many as NewRSNewReplicas gives it (all on a
//     first rollout, up to maxSurge above the old ReplicaSets' replicas,
//     none while a Recreate waits for old replicas);
//   - a StatefulSet creates `<name>-<ordinal>` with its claims
//     `<template>-<name>-<ordinal>`, for missing ordinals and its own
//     failed or succeeded pods, one at a time unless podManagementPolicy
//     is Parallel (OrderedReady waits for each pod to be Running and
//     Ready), with the pod-name and pod-index labels, hostname and
//     subdomain (spec.serviceName), and controller-revision-hash the
//     name of the revision they are made from: below a rolling
//     update's partition (or, for a RollingUpdate without parameters,
//     status.currentReplicas) the current revision, its template
//     restored from the ControllerRevision status.currentRevision
//     names (the update revision, with a warning, when that one is not
//     read); else the update revision, as getStatefulSetRevisions finds
//     it among the set's ControllerRevisions (the one with the set's
//     data, else the latest if it restores to the set's template, else
//     `<set>-<hash>` with status.collisionCount, bumped past names
//     taken). An OnDelete set makes every new pod from the update
//     revision, as upstream does;
//   - a Job, unless suspended, finished (a Complete, Failed,
//     FailureTarget or SuccessCriteriaMet condition True) or failed or
//     succeeded in this sync as the Job controller's syncJob decides
//     (a podFailurePolicy FailJob rule a failed pod's exit code or
//     condition matches; failed pods, status.failed and those holding
//     the job-tracking finalizer but not Ignored, beyond backoffLimit,
//     or OnFailure restarts reaching it; activeDeadlineSeconds past
//     status.startTime at Input.Now, or at this machine's clock with a
//     warning; an Indexed Job's successPolicy met), up to parallelism
//     active pods, created at once (a warning says when the
//     controller's pod failure backoff, which a dump does not show, may
//     hold them back) and fewer as completions near (status.succeeded
//     and the succeeded pods still holding the job-tracking finalizer),
//     named `<job>-<random>`, or when Indexed `<job>-<index>-<random>` for the
//     lowest indexes not in status.completedIndexes (nor failedIndexes
//     with backoffLimitPerIndex) nor held by an active pod, with the
//     completion index label and annotation and hostname
//     `<job>-<index>`; podReplacementPolicy Failed waits for
//     terminating pods;
//   - a DaemonSet one pod per eligible node with no active pod of its
//     own (bound there, or bound-to-be by node affinity), with the node
//     affinity and tolerations the DaemonSet controller adds, and its
//     controller-revision-hash (the label, or name, of the newest
//     ControllerRevision it claims whose data is its template's patch;
//     with none, ComputeHash of the stored template with
//     status.collisionCount, bumped while that name is another
//     revision's) and pod-template-generation labels.
//
// Random suffixes come from the API server's alphabet, seeded by
// in.Seed.
func Expand(in *Input) ([]*api.Pod, []Warning) {
	return newExpander(in, in.Seed).expand()
}

// Created is everything the workload controllers create, each kind in
// creation order.
type Created struct {
	// Pods are Expand's pods.
	Pods []*api.Pod
	// ReplicaSets are the new ReplicaSets of Deployments, created before
	// their pods.
	ReplicaSets []*api.ReplicaSet
	// ControllerRevisions are the revisions StatefulSets and DaemonSets
	// create for a template no revision read holds.
	ControllerRevisions []*api.ControllerRevision
	// Claims are the PersistentVolumeClaims of StatefulSets'
	// volumeClaimTemplates not among the objects read, created before
	// their pods, as the StatefulSet controller sends them to the API
	// server (before admission: no storage class defaulted).
	Claims []*api.PersistentVolumeClaim
}

// ExpandAll is Expand with the other objects the controllers create on
// the way: in a cluster they exist before the pods, and the scheduler
// reads them (the ReplicaSet's selector for default spreading, the claims
// for volume binding).
func ExpandAll(in *Input) (*Created, []Warning) {
	e := newExpander(in, in.Seed)
	pods, ws := e.expand()
	return &Created{Pods: pods, ReplicaSets: e.replicaSets, ControllerRevisions: e.revisions, Claims: e.claims}, ws
}
