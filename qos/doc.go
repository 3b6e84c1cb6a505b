// Package qos computes a pod's quality-of-service class and the kubelet's
// eviction order, as Kubernetes v1.37.2 does.
//
//	class := qos.Of(pod) // Guaranteed, Burstable or BestEffort
//	qos.RankForMemoryEviction(pods, usage)
//
// # Scope
//
// It computes a pod's quality-of-service class (Guaranteed,
// Burstable or BestEffort) and the order in which the kubelet evicts pods
// under memory pressure, both as in Kubernetes v1.37.2.
//
// Of and Compute follow k8s.io/kubernetes/pkg/apis/core/v1/helper/qos
// (GetPodQOS and ComputePodQOS) with the PodLevelResources and
// PodLevelResourcesFixKubeletQOSClass features on, as they are by
// default. Only cpu and memory count; init containers count like regular
// ones; pod-level resources, when set for a supported resource, decide
// alone.
//
// RankForMemoryEviction follows the kubelet's rankMemoryPressure: pods
// whose memory use exceeds their request go first, then lower priority,
// then larger use above request. NodePressureEvictions replays the
// kubelet's eviction manager over time: hard and soft thresholds (with
// grace periods and minimum reclaim) on memory.available,
// nodefs.available, imagefs.available and pid.available, one eviction per
// housekeeping pass, ranked per signal as the kubelet ranks, critical pods
// spared.
package qos
