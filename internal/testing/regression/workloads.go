package regression

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// Workloads are the workload objects of a plugins input, which the
// snapshot's object store holds.
type Workloads struct {
	Services               []*api.Service               `json:"services,omitempty"`
	ReplicaSets            []*api.ReplicaSet            `json:"replicaSets,omitempty"`
	StatefulSets           []*api.StatefulSet           `json:"statefulSets,omitempty"`
	ReplicationControllers []*api.ReplicationController `json:"replicationControllers,omitempty"`
}

// Objects returns the workloads as one list, for Snapshot.AddObjects.
func (w *Workloads) Objects() []any {
	var objs []any
	for _, o := range w.Services {
		objs = append(objs, o)
	}
	for _, o := range w.ReplicaSets {
		objs = append(objs, o)
	}
	for _, o := range w.StatefulSets {
		objs = append(objs, o)
	}
	for _, o := range w.ReplicationControllers {
		objs = append(objs, o)
	}
	return objs
}

func (w *Workloads) addTo(snap *cluster.Snapshot) error {
	objs := w.Objects()
	if len(objs) == 0 {
		return nil
	}
	return snap.AddObjects(objs...)
}
