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
// would create now from in, in the order they would create them, and
// warnings on what they could not do. The pods are new: no node, no uid,
// not admitted.
func Expand(in *Input) ([]*api.Pod, []Warning) {
	return newExpander(in, in.Seed).expand()
}
