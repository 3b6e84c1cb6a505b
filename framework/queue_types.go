package framework

import (
	"time"

	"github.com/schedkit/schedkit/api"
)

// QueuedPodInfo is a pod waiting in the scheduling queue.
type QueuedPodInfo struct {
	// Pod is the pod.
	Pod *api.Pod
	// Timestamp is when the pod was (re-)added to the queue.
	Timestamp time.Time
	// InitialAttemptTimestamp is when the pod was first added.
	InitialAttemptTimestamp time.Time
	// Attempts counts scheduling attempts.
	Attempts int
	// UnschedulablePlugins are the plugins that rejected the pod last.
	UnschedulablePlugins map[string]struct{}
}

// Priority returns the pod's priority, 0 if unset.
func (q *QueuedPodInfo) Priority() int32 {
	if q.Pod.Spec.Priority != nil {
		return *q.Pod.Spec.Priority
	}
	return 0
}
