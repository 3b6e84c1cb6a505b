// Package api holds schedkit's object types, with Kubernetes' JSON names,
// so that a manifest or a `kubectl get -o json` dump decodes straight into
// them.
//
// Decode an object with encoding/json, or read whole files with package
// manifest, then hand the objects to the other packages:
//
//	var pod api.Pod
//	err := json.Unmarshal(data, &pod)
//	owner := api.GetControllerOf(&pod.ObjectMeta)
//	copy := pod.DeepCopy()
//
// # Kinds
//
// Pod and Node; Namespace, LimitRange, ResourceQuota,
// PriorityClass and PodDisruptionBudget; the workloads Service,
// ReplicationController, ReplicaSet, StatefulSet, Deployment, DaemonSet,
// ControllerRevision, Job and CronJob; and storage: PersistentVolume,
// PersistentVolumeClaim, StorageClass, CSINode, CSIDriver,
// CSIStorageCapacity and VolumeAttachment.
//
// The types carry Kubernetes' own JSON field names and shapes (core/v1,
// apps/v1, batch/v1, storage/v1, policy/v1, scheduling/v1, at
// k8s.io/api v0.37.2), so a manifest from `kubectl get -o json` (or
// YAML converted to JSON) decodes straight into them; fields schedkit does
// not model are ignored on decode. Each type models the fields that
// scheduling, admission, quota, the storage plugins or a controller
// expanding templates read; within a spec or status it models, the
// subtree is kept close to complete, so that a manifest reader can report
// the fields it drops. Pod volumes and PersistentVolume sources follow
// upstream in having separate types where upstream has them
// (RBDVolumeSource and RBDPersistentVolumeSource, ...) and shared ones
// where it shares them; a Volume holds its source fields directly, where
// upstream embeds a VolumeSource (the JSON is the same). They hold data only: the rules over them
// live in the packages above (resource for requests and limits, qos,
// affinity, taints, ...), in the same way that Kubernetes splits core/v1
// from its helpers.
//
// # Copies
//
// DeepCopy is generated (zz_generated_deepcopy.go) from the types by
// TestDeepCopyGenerated, which fails when the file is stale, so a field
// added later cannot go uncopied; regenerate it with
//
//	go test ./api -tags deepcopygen -run TestDeepCopyGenerated -update-deepcopy
//
// A property test checks each copy against a reflection walker.
//
// The layering is
//
//	quantity → api → resource, qos, affinity, taints → cluster → framework → plugins → scheduler
//
// api imports only quantity, for the values in a ResourceList.
package api
