package resource

import "github.com/schedkit/schedkit/api"

// DeepCopyPod is pod.DeepCopy(): a copy of pod that shares no maps,
// slices or pointers with it, nil for nil. New code calls
// (*api.Pod).DeepCopy; DeepCopyPod remains for the workload emulation's
// one caller and goes when that code moves.
func DeepCopyPod(pod *api.Pod) *api.Pod { return pod.DeepCopy() }
