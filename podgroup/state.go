package podgroup

import "github.com/schedkit/schedkit/api"

// Key names a PodGroup: its namespace and name.
type Key struct {
	// Namespace of the group (a pod's namespace).
	Namespace string
	// Name of the group.
	Name string
}

// KeyOf returns the key of the group pod belongs to, false when the pod
// names none.
func KeyOf(pod *api.Pod) (Key, bool) {
	sg := pod.Spec.SchedulingGroup
	if sg == nil || sg.PodGroupName == nil {
		return Key{}, false
	}
	ns := pod.Namespace
	if ns == "" {
		ns = "default"
	}
	return Key{Namespace: ns, Name: *sg.PodGroupName}, true
}

// Lister is what the scheduler knows of pod groups, as its cache's
// PodGroupStates answer: the group object and how many of its pods
// exist and how many are scheduled (assumed or bound).
type Lister interface {
	// PodGroup returns the group named by k.
	PodGroup(k Key) (*api.PodGroup, bool)
	// AllPodsCount is the number of non-terminal pods of the group known
	// to the scheduler: pending, assumed and bound.
	AllPodsCount(k Key) int
	// ScheduledPodsCount is the number of the group's pods assumed or
	// bound.
	ScheduledPodsCount(k Key) int
}
