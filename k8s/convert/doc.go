// Package convert turns the k8s.io/api objects a client-go informer holds
// into schedkit's api objects and back, with typed code (no JSON in
// between):
//
//	node, err := convert.NodeToAPI(k8sNode)   // *corev1.Node -> *api.Node
//	pod, err := convert.PodToAPI(k8sPod)      // *corev1.Pod -> *api.Pod
//	obj, err := convert.ToAPI(anyK8sObject)   // by type, for every kind below
//	back, err := convert.PodFromAPI(pod)      // *api.Pod -> *corev1.Pod
//
//	var b convert.Batch                       // a whole cache, few allocations
//	b.Share()                                 // equal maps shared: read-only results
//	pod, err = b.PodToAPI(k8sPod)
//
// A Batch converts many objects, such as an informer cache's, carving
// their objects, slices and pointers out of shared slabs; after Share it
// also shares equal label maps and resource lists between its results,
// which are then read-only, as informer cache objects are.
//
// The kinds: Node, Pod, Namespace, Service, ReplicationController,
// LimitRange, ResourceQuota, PersistentVolume, PersistentVolumeClaim
// (core/v1); ReplicaSet, Deployment, StatefulSet, DaemonSet,
// ControllerRevision (apps/v1); Job, CronJob (batch/v1);
// PodDisruptionBudget (policy/v1); PriorityClass (scheduling.k8s.io/v1);
// StorageClass, CSINode, CSIDriver, CSIStorageCapacity and
// VolumeAttachment (storage.k8s.io/v1); DeviceClass, ResourceSlice,
// ResourceClaim, ResourceClaimTemplate and DeviceTaintRule
// (resource.k8s.io/v1).
//
// Every field schedkit models is carried; the Kubernetes fields it does
// not model (probes, env, security contexts, ...) are dropped, and the
// header of zz_generated.go lists them by type. A conversion gives what
// the JSON round trip would give: an empty list under omitempty becomes
// nil, a zero value under omitempty becomes a nil pointer, an empty
// ControllerRevision data is JSON null. Times keep their sub-second part
// and location, which the JSON form drops; quantities keep their value and
// print the same canonical text. Strings are shared with the input; maps,
// slices and pointers are copied, so the result may be changed freely.
//
// A failure is an *Error naming the object, the field path and the value,
// such as a quantity the other side cannot hold. schedkit's Quantity holds
// every value apimachinery's does, so in practice only a
// ControllerRevision whose data is an object that cannot be encoded
// fails.
//
// # Internals
//
// zz_generated.go is written by k8s/internal/convgen (go generate), which
// walks each pair of types with reflect, matches fields by JSON name and
// refuses a schedkit field without a Kubernetes counterpart. The
// properties in property_test.go draw random objects of every kind, every
// field filled, and check the typed conversion against the JSON round
// trip in both directions, and that Kubernetes → schedkit → Kubernetes
// keeps everything schedkit models; k8sgen draws the random objects.
// Quantities of whole, milli or nano values convert as a value and a
// scale, without a string. convgen threads an arena through every
// function: nil allocates each value on its own, a Batch's hands out
// slab slots. A pod of a typical informer cache converts in about 23
// allocations alone, 6 with a Batch, and a small fraction of one with a
// sharing Batch (BenchmarkInformerCache*).
package convert
