// Package workload makes the pods Kubernetes' workload controllers would
// create: Deployments, ReplicaSets, ReplicationControllers, StatefulSets,
// DaemonSets and Jobs, by the rules of Kubernetes v1.37.2.
//
// Most users never call it: manifest.Load with Options.ExpandWorkloads
// adds these pods to the pending ones and admits them. To see what the
// controllers create before admission, read the manifests, then expand:
//
//	opts := manifest.Options{Seed: 1}
//	objs, report, err := manifest.ReadFiles(opts, "manifests/")
//	// ... check err and report
//	pods, warnings := workload.Expand(manifest.Workloads(objs, opts))
//
// ExpandAll also returns what the controllers create on the way, which
// exists in a cluster before the pods: Deployments' new ReplicaSets,
// StatefulSets' claims, and the ControllerRevisions StatefulSets and
// DaemonSets create (manifest.NewCluster stores the first two).
//
// ClaimController is the resourceclaim controller: it makes the
// ResourceClaims of a pod's resourceClaimTemplateName entries and the
// pod's status.resourceClaimStatuses (manifest.NewCluster runs it on
// every pod it creates or reads).
//
// The same objects and seed give the same pods, names included.
// PodTemplateHash, DefaultPodTemplate and EqualIgnoreHash are the
// Deployment controller's hash and template comparison on a template's
// JSON, for a user who names or matches ReplicaSets by hand.
//
// # Controllers
//
// Expand runs each controller once, as its sync would on the objects
// given: it claims pods (and a Deployment its ReplicaSets) by controller
// reference and selector, then creates what is missing. expand.go holds
// the claiming and the ReplicaSet controller, controllers.go the
// Deployment (its scaling in proportion to max-replicas), StatefulSet,
// Job and DaemonSet controllers, jobs.go the Job controller's failure
// and success policies, revisions.go the ControllerRevisions of
// StatefulSets and DaemonSets. What a controller would refuse, or cannot
// decide from a dump, is a Warning, not an error: the other workloads
// still expand.
//
// # Hashes
//
// The pod-template-hash and the controller-revision-hash cover every
// field of the template Kubernetes knows, those schedkit does not model
// included. They are computed by internal/podhash from the JSON the
// object was read from (Input.Raw), along a schema of upstream's Go types
// that the conformance module generates and checks.
package workload
