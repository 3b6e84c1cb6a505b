package cluster

import (
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"sync"

	"github.com/schedkit/schedkit/api"
)

// ErrNotFound is wrapped by the errors of UpdateObject and RemoveObject
// when the snapshot does not hold the object.
var ErrNotFound = errors.New("not found")

// Kind names a kind of object the snapshot's object store holds, as
// Kubernetes names it ("Service", "PersistentVolumeClaim", ...).
type Kind string

// The kinds the object store holds.
const (
	KindNamespace             Kind = "Namespace"
	KindService               Kind = "Service"
	KindReplicationController Kind = "ReplicationController"
	KindReplicaSet            Kind = "ReplicaSet"
	KindStatefulSet           Kind = "StatefulSet"
	KindDeployment            Kind = "Deployment"
	KindDaemonSet             Kind = "DaemonSet"
	KindJob                   Kind = "Job"
	KindCronJob               Kind = "CronJob"
	KindPodDisruptionBudget   Kind = "PodDisruptionBudget"
	KindPersistentVolume      Kind = "PersistentVolume"
	KindPersistentVolumeClaim Kind = "PersistentVolumeClaim"
	KindStorageClass          Kind = "StorageClass"
	KindCSINode               Kind = "CSINode"
	KindCSIDriver             Kind = "CSIDriver"
	KindCSIStorageCapacity    Kind = "CSIStorageCapacity"
	KindVolumeAttachment      Kind = "VolumeAttachment"
	KindResourceQuota         Kind = "ResourceQuota"
	KindLimitRange            Kind = "LimitRange"
	KindPriorityClass         Kind = "PriorityClass"
	KindDeviceClass           Kind = "DeviceClass"
	KindResourceSlice         Kind = "ResourceSlice"
	KindResourceClaim         Kind = "ResourceClaim"
	KindResourceClaimTemplate Kind = "ResourceClaimTemplate"
	KindDeviceTaintRule       Kind = "DeviceTaintRule"
	KindWorkload              Kind = "Workload"
	KindPodGroup              Kind = "PodGroup"
)

// Object is the set of api types the object store holds; the generic
// readers (GetObject, ListObjects, AllObjects) take one of them as their
// type argument, and the writers take a pointer to one.
type Object interface {
	api.Namespace | api.Service | api.ReplicationController | api.ReplicaSet |
		api.StatefulSet | api.Deployment | api.DaemonSet | api.Job | api.CronJob |
		api.PodDisruptionBudget | api.PersistentVolume | api.PersistentVolumeClaim |
		api.StorageClass | api.CSINode | api.CSIDriver | api.CSIStorageCapacity |
		api.VolumeAttachment |
		api.ResourceQuota | api.LimitRange | api.PriorityClass |
		api.DeviceClass | api.ResourceSlice | api.ResourceClaim |
		api.ResourceClaimTemplate | api.DeviceTaintRule |
		api.Workload | api.PodGroup
}

// kind indexes, in the order of Kinds.
const (
	kNamespace = iota
	kService
	kReplicationController
	kReplicaSet
	kStatefulSet
	kDeployment
	kDaemonSet
	kJob
	kCronJob
	kPodDisruptionBudget
	kPersistentVolume
	kPersistentVolumeClaim
	kStorageClass
	kCSINode
	kCSIDriver
	kCSIStorageCapacity
	kVolumeAttachment
	kResourceQuota
	kLimitRange
	kPriorityClass
	kDeviceClass
	kResourceSlice
	kResourceClaim
	kResourceClaimTemplate
	kDeviceTaintRule
	kWorkload
	kPodGroup
	numKinds
)

// Kinds returns the kinds the object store holds.
func Kinds() []Kind {
	ks := make([]Kind, numKinds)
	for i := range ks {
		ks[i] = kindAt(i)
	}
	return ks
}

// kindAt returns the kind of index i.
func kindAt(i int) Kind {
	switch i {
	case kNamespace:
		return KindNamespace
	case kService:
		return KindService
	case kReplicationController:
		return KindReplicationController
	case kReplicaSet:
		return KindReplicaSet
	case kStatefulSet:
		return KindStatefulSet
	case kDeployment:
		return KindDeployment
	case kDaemonSet:
		return KindDaemonSet
	case kJob:
		return KindJob
	case kCronJob:
		return KindCronJob
	case kPodDisruptionBudget:
		return KindPodDisruptionBudget
	case kPersistentVolume:
		return KindPersistentVolume
	case kPersistentVolumeClaim:
		return KindPersistentVolumeClaim
	case kStorageClass:
		return KindStorageClass
	case kCSINode:
		return KindCSINode
	case kCSIDriver:
		return KindCSIDriver
	case kCSIStorageCapacity:
		return KindCSIStorageCapacity
	case kVolumeAttachment:
		return KindVolumeAttachment
	case kResourceQuota:
		return KindResourceQuota
	case kLimitRange:
		return KindLimitRange
	case kPriorityClass:
		return KindPriorityClass
	case kDeviceClass:
		return KindDeviceClass
	case kResourceSlice:
		return KindResourceSlice
	case kResourceClaim:
		return KindResourceClaim
	case kResourceClaimTemplate:
		return KindResourceClaimTemplate
	case kDeviceTaintRule:
		return KindDeviceTaintRule
	case kWorkload:
		return KindWorkload
	case kPodGroup:
		return KindPodGroup
	}
	return ""
}

// index returns k's position in Kinds, or -1.
func (k Kind) index() int {
	for i := range numKinds {
		if kindAt(i) == k {
			return i
		}
	}
	return -1
}

// Namespaced reports whether objects of kind k live in a namespace;
// Namespace, PersistentVolume, StorageClass, CSINode, CSIDriver,
// VolumeAttachment, PriorityClass, DeviceClass, ResourceSlice and
// DeviceTaintRule are cluster-scoped.
func (k Kind) Namespaced() bool {
	switch k {
	case KindNamespace, KindPersistentVolume, KindStorageClass, KindCSINode, KindCSIDriver, KindVolumeAttachment, KindPriorityClass,
		KindDeviceClass, KindResourceSlice, KindDeviceTaintRule:
		return false
	}
	return true
}

// KindOf returns the kind of obj, a pointer to one of the Object types.
func KindOf(obj any) (Kind, bool) {
	i, _ := classify(obj)
	if i < 0 {
		return "", false
	}
	return kindAt(i), true
}

// ObjectKey identifies an object of the store: its kind, namespace
// ("" for cluster-scoped kinds; "default" stands in for an empty
// namespace of a namespaced kind) and name.
type ObjectKey struct {
	Kind      Kind
	Namespace string
	Name      string
}

// String is kind namespace/name, or kind name for cluster-scoped kinds.
func (k ObjectKey) String() string {
	if k.Namespace == "" {
		return string(k.Kind) + " " + k.Name
	}
	return string(k.Kind) + " " + k.Namespace + "/" + k.Name
}

// KeyOf returns the key of obj, a pointer to one of the Object types. It
// fails, wrapping ErrInvalid, on nil, an unsupported type or an empty
// name.
func KeyOf(obj any) (ObjectKey, error) {
	k, _, err := entryOf(obj)
	return k, err
}

// classify returns obj's kind index and metadata, or -1 if obj is not a
// pointer to an Object type; the metadata is nil for a nil pointer.
func classify(obj any) (int, *api.ObjectMeta) {
	switch v := obj.(type) {
	case *api.Namespace:
		return kNamespace, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.Service:
		return kService, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.ReplicationController:
		return kReplicationController, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.ReplicaSet:
		return kReplicaSet, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.StatefulSet:
		return kStatefulSet, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.Deployment:
		return kDeployment, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.DaemonSet:
		return kDaemonSet, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.Job:
		return kJob, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.CronJob:
		return kCronJob, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.PodDisruptionBudget:
		return kPodDisruptionBudget, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.PersistentVolume:
		return kPersistentVolume, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.PersistentVolumeClaim:
		return kPersistentVolumeClaim, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.StorageClass:
		return kStorageClass, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.CSINode:
		return kCSINode, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.CSIDriver:
		return kCSIDriver, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.CSIStorageCapacity:
		return kCSIStorageCapacity, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.VolumeAttachment:
		return kVolumeAttachment, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.ResourceQuota:
		return kResourceQuota, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.LimitRange:
		return kLimitRange, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.PriorityClass:
		return kPriorityClass, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.DeviceClass:
		return kDeviceClass, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.ResourceSlice:
		return kResourceSlice, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.ResourceClaim:
		return kResourceClaim, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.ResourceClaimTemplate:
		return kResourceClaimTemplate, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.DeviceTaintRule:
		return kDeviceTaintRule, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.Workload:
		return kWorkload, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	case *api.PodGroup:
		return kPodGroup, metaOrNil(v, func() *api.ObjectMeta { return &v.ObjectMeta })
	}
	return -1, nil
}

func metaOrNil[P comparable](p P, meta func() *api.ObjectMeta) *api.ObjectMeta {
	var zero P
	if p == zero {
		return nil
	}
	return meta()
}

// newTable returns an empty table for kind index i.
func newTable(i int, epoch uint64) objectTable {
	switch i {
	case kNamespace:
		return newTableOf[api.Namespace](epoch)
	case kService:
		return newTableOf[api.Service](epoch)
	case kReplicationController:
		return newTableOf[api.ReplicationController](epoch)
	case kReplicaSet:
		return newTableOf[api.ReplicaSet](epoch)
	case kStatefulSet:
		return newTableOf[api.StatefulSet](epoch)
	case kDeployment:
		return newTableOf[api.Deployment](epoch)
	case kDaemonSet:
		return newTableOf[api.DaemonSet](epoch)
	case kJob:
		return newTableOf[api.Job](epoch)
	case kCronJob:
		return newTableOf[api.CronJob](epoch)
	case kPodDisruptionBudget:
		return newTableOf[api.PodDisruptionBudget](epoch)
	case kPersistentVolume:
		return newTableOf[api.PersistentVolume](epoch)
	case kPersistentVolumeClaim:
		return newTableOf[api.PersistentVolumeClaim](epoch)
	case kStorageClass:
		return newTableOf[api.StorageClass](epoch)
	case kCSINode:
		return newTableOf[api.CSINode](epoch)
	case kCSIDriver:
		return newTableOf[api.CSIDriver](epoch)
	case kCSIStorageCapacity:
		return newTableOf[api.CSIStorageCapacity](epoch)
	case kVolumeAttachment:
		return newTableOf[api.VolumeAttachment](epoch)
	case kResourceQuota:
		return newTableOf[api.ResourceQuota](epoch)
	case kLimitRange:
		return newTableOf[api.LimitRange](epoch)
	case kPriorityClass:
		return newTableOf[api.PriorityClass](epoch)
	case kDeviceClass:
		return newTableOf[api.DeviceClass](epoch)
	case kResourceSlice:
		return newTableOf[api.ResourceSlice](epoch)
	case kResourceClaim:
		return newTableOf[api.ResourceClaim](epoch)
	case kResourceClaimTemplate:
		return newTableOf[api.ResourceClaimTemplate](epoch)
	case kDeviceTaintRule:
		return newTableOf[api.DeviceTaintRule](epoch)
	case kWorkload:
		return newTableOf[api.Workload](epoch)
	case kPodGroup:
		return newTableOf[api.PodGroup](epoch)
	}
	panic(fmt.Sprintf("cluster: no object kind %d", i))
}

// kindIndexOf returns the kind index of T.
func kindIndexOf[T Object]() int {
	i, _ := classify((*T)(nil))
	return i
}

// entry is a validated object ready to be stored.
type entry struct {
	key   ObjectKey
	index int
	obj   any
}

// entryOf validates obj and returns its key.
func entryOf(obj any) (ObjectKey, entry, error) {
	i, meta := classify(obj)
	if i < 0 {
		if obj == nil {
			return ObjectKey{}, entry{}, fmt.Errorf("%w object: nil", ErrInvalid)
		}
		return ObjectKey{}, entry{}, fmt.Errorf("%w object: unsupported type %T", ErrInvalid, obj)
	}
	kind := kindAt(i)
	if meta == nil {
		return ObjectKey{}, entry{}, fmt.Errorf("%w %s: nil", ErrInvalid, kind)
	}
	k := ObjectKey{Kind: kind, Name: meta.Name}
	if kind.Namespaced() {
		k.Namespace = meta.Namespace
		if k.Namespace == "" {
			k.Namespace = "default"
		}
	}
	if meta.Name == "" {
		return k, entry{}, fmt.Errorf("%w %s: metadata.name: Required value", ErrInvalid, k)
	}
	return k, entry{key: k, index: i, obj: obj}, nil
}

// objectTable is the type-erased interface of a table[T].
type objectTable interface {
	// has reports whether the table holds namespace/name.
	has(namespace, name string) bool
	// writable returns the table itself if it is the writer's at epoch,
	// or a copy of it that is.
	writable(epoch uint64) objectTable
	// put stores obj (a *T) under namespace/name, replacing any object
	// there.
	put(namespace, name string, obj any, epoch uint64)
	// remove deletes namespace/name, which the table holds.
	remove(namespace, name string, epoch uint64)
	// setGeneration stamps the table with a change's generation.
	setGeneration(gen int64)
	// generation is the generation of the table's last change.
	generation() int64
	// size is the number of objects.
	size() int
}

// table holds the objects of one kind, by namespace ("" for
// cluster-scoped kinds) and name. A table, and each of its namespaces,
// is copied before the writer's first change after a view was handed
// out, and changed in place otherwise.
type table[T Object] struct {
	epoch  uint64
	gen    int64
	count  int
	spaces map[string]*space[T]
	// namespaces lists the keys of spaces in increasing order.
	namespaces []string
	// byKey holds the secondary indexes of the table's objects (see
	// indexBy), one per slot, replaced by every change.
	byKey *[indexSlots]keyIndex[T]
}

// indexSlots is how many secondary indexes a table can hold: the
// ResourceSlices are indexed both by node and by driver and pool.
const indexSlots = 2

// keyIndex is a table's objects grouped by a key of theirs (the
// VolumeAttachments by spec.nodeName), built by the first reader that
// asks for it.
type keyIndex[T Object] struct {
	once sync.Once
	m    map[string][]*T
}

// indexBy returns the table's objects grouped by key, each group in
// namespace and name order. The index of a slot is built once per
// version of the table; all calls on one slot must pass the same key.
func (t *table[T]) indexBy(slot int, key func(*T) string) map[string][]*T {
	ix := &t.byKey[slot]
	ix.once.Do(func() {
		ix.m = map[string][]*T{}
		for _, ns := range t.namespaces {
			for _, obj := range t.spaces[ns].sorted {
				k := key(obj)
				ix.m[k] = append(ix.m[k], obj)
			}
		}
	})
	return ix.m
}

// space holds one namespace's objects of a kind.
type space[T Object] struct {
	epoch  uint64
	byName map[string]*T
	// names and sorted list the objects in increasing name order.
	names  []string
	sorted []*T
}

func newTableOf[T Object](epoch uint64) *table[T] {
	return &table[T]{epoch: epoch, spaces: map[string]*space[T]{}, byKey: &[indexSlots]keyIndex[T]{}}
}

func (t *table[T]) has(namespace, name string) bool {
	sp := t.spaces[namespace]
	if sp == nil {
		return false
	}
	_, ok := sp.byName[name]
	return ok
}

func (t *table[T]) writable(epoch uint64) objectTable {
	if t.epoch == epoch {
		return t
	}
	return &table[T]{
		epoch:      epoch,
		gen:        t.gen,
		count:      t.count,
		spaces:     maps.Clone(t.spaces),
		namespaces: slices.Clone(t.namespaces),
		byKey:      &[indexSlots]keyIndex[T]{},
	}
}

// writableSpace returns namespace's space for changing, made or copied
// as needed.
func (t *table[T]) writableSpace(namespace string, epoch uint64) *space[T] {
	sp := t.spaces[namespace]
	switch {
	case sp == nil:
		sp = &space[T]{epoch: epoch, byName: map[string]*T{}}
		i, _ := slices.BinarySearch(t.namespaces, namespace)
		t.namespaces = slices.Insert(t.namespaces, i, namespace)
	case sp.epoch != epoch:
		sp = &space[T]{
			epoch:  epoch,
			byName: maps.Clone(sp.byName),
			names:  slices.Clone(sp.names),
			sorted: slices.Clone(sp.sorted),
		}
	default:
		return sp
	}
	t.spaces[namespace] = sp
	return sp
}

func (t *table[T]) put(namespace, name string, obj any, epoch uint64) {
	o := obj.(*T)
	sp := t.writableSpace(namespace, epoch)
	i, found := slices.BinarySearch(sp.names, name)
	if found {
		sp.sorted[i] = o
	} else {
		sp.names = slices.Insert(sp.names, i, name)
		sp.sorted = slices.Insert(sp.sorted, i, o)
		t.count++
	}
	sp.byName[name] = o
	t.byKey = &[indexSlots]keyIndex[T]{}
}

func (t *table[T]) remove(namespace, name string, epoch uint64) {
	sp := t.writableSpace(namespace, epoch)
	i, found := slices.BinarySearch(sp.names, name)
	if !found {
		panic("cluster: object table out of sync")
	}
	sp.names = slices.Delete(sp.names, i, i+1)
	sp.sorted = slices.Delete(sp.sorted, i, i+1)
	delete(sp.byName, name)
	t.count--
	t.byKey = &[indexSlots]keyIndex[T]{}
	if len(sp.names) == 0 {
		delete(t.spaces, namespace)
		j, _ := slices.BinarySearch(t.namespaces, namespace)
		t.namespaces = slices.Delete(t.namespaces, j, j+1)
	}
}

func (t *table[T]) setGeneration(gen int64) { t.gen = gen }
func (t *table[T]) generation() int64       { return t.gen }
func (t *table[T]) size() int               { return t.count }

// Objects is an immutable picture of the snapshot's object store: the
// objects other than nodes and pods that plugins, admission and
// controllers look up — namespaces, services and workload controllers,
// PodDisruptionBudgets, volumes, claims, storage classes and CSI
// objects, ResourceQuotas, LimitRanges and PriorityClasses.
//
// Read it with the generic functions GetObject (by name or namespace
// and name, in constant time), ListObjects (one namespace, in name
// order, without copying) and AllObjects (every namespace). A View's
// Objects never changes; views taken while no object changed share the
// same Objects, so Generation (or KindGeneration) can key caches of
// work derived from the objects. The objects themselves are the ones
// given to the snapshot's writers and must not be modified.
//
// Its methods and the generic readers are safe for concurrent use and
// accept a nil *Objects as an empty store.
type Objects struct {
	epoch  uint64
	gen    int64
	tables [numKinds]objectTable
}

// Generation returns the snapshot generation of the last change to any
// object (0 if none was ever added): equal generations mean equal
// contents.
func (o *Objects) Generation() int64 {
	if o == nil {
		return 0
	}
	return o.gen
}

// KindGeneration returns the snapshot generation of the last change to
// an object of kind k (0 if none).
func (o *Objects) KindGeneration(k Kind) int64 {
	t := o.table(k.index())
	if t == nil {
		return 0
	}
	return t.generation()
}

// Len returns the number of objects of kind k.
func (o *Objects) Len(k Kind) int {
	t := o.table(k.index())
	if t == nil {
		return 0
	}
	return t.size()
}

func (o *Objects) table(i int) objectTable {
	if o == nil || i < 0 {
		return nil
	}
	return o.tables[i]
}

func typedTable[T Object](o *Objects) *table[T] {
	t, _ := o.table(kindIndexOf[T]()).(*table[T])
	return t
}

// storeNamespace is the namespace key of namespace for kind index i.
func storeNamespace(i int, namespace string) string {
	if !kindAt(i).Namespaced() {
		return ""
	}
	if namespace == "" {
		return "default"
	}
	return namespace
}

// GetObject returns the object of type T with the name (and, for a
// namespaced kind, the namespace; "" means "default"; the namespace of
// a cluster-scoped kind is ignored).
func GetObject[T Object](o *Objects, namespace, name string) (*T, bool) {
	t := typedTable[T](o)
	if t == nil {
		return nil, false
	}
	sp := t.spaces[storeNamespace(kindIndexOf[T](), namespace)]
	if sp == nil {
		return nil, false
	}
	obj, ok := sp.byName[name]
	return obj, ok
}

// ListObjects returns the objects of type T in namespace ("" means
// "default"; ignored for cluster-scoped kinds) in increasing name
// order. The slice is shared: do not modify it.
func ListObjects[T Object](o *Objects, namespace string) []*T {
	t := typedTable[T](o)
	if t == nil {
		return nil
	}
	sp := t.spaces[storeNamespace(kindIndexOf[T](), namespace)]
	if sp == nil {
		return nil
	}
	return sp.sorted
}

// AllObjects yields every object of type T, by namespace and then name,
// in increasing order.
func AllObjects[T Object](o *Objects) iter.Seq[*T] {
	return func(yield func(*T) bool) {
		t := typedTable[T](o)
		if t == nil {
			return
		}
		for _, ns := range t.namespaces {
			for _, obj := range t.spaces[ns].sorted {
				if !yield(obj) {
					return
				}
			}
		}
	}
}

// VolumeAttachmentsOnNode returns the VolumeAttachments whose
// spec.nodeName is node, in name order. The objects are indexed by node
// once per version of the store, on the first call; later calls cost a
// map lookup. The slice is shared: do not modify it.
func VolumeAttachmentsOnNode(o *Objects, node string) []*api.VolumeAttachment {
	t := typedTable[api.VolumeAttachment](o)
	if t == nil || t.count == 0 {
		return nil
	}
	return t.indexBy(0, func(va *api.VolumeAttachment) string { return va.Spec.NodeName })[node]
}

// ResourceSlicesOnNode returns the ResourceSlices whose spec.nodeName
// is node, in name order; node "" returns the slices without a node
// name (node selector, allNodes or per-device node selection). The
// slices are indexed once per version of the store, on the first call.
// The slice is shared: do not modify it.
func ResourceSlicesOnNode(o *Objects, node string) []*api.ResourceSlice {
	t := typedTable[api.ResourceSlice](o)
	if t == nil || t.count == 0 {
		return nil
	}
	return t.indexBy(0, func(s *api.ResourceSlice) string {
		if s.Spec.NodeName == nil {
			return ""
		}
		return *s.Spec.NodeName
	})[node]
}

// ResourceSlicesInPool returns the ResourceSlices of driver's pool, in
// name order, indexed as ResourceSlicesOnNode indexes. The slice is
// shared: do not modify it.
func ResourceSlicesInPool(o *Objects, driver, pool string) []*api.ResourceSlice {
	t := typedTable[api.ResourceSlice](o)
	if t == nil || t.count == 0 {
		return nil
	}
	return t.indexBy(1, func(s *api.ResourceSlice) string {
		return s.Spec.Driver + "/" + s.Spec.Pool.Name
	})[driver+"/"+pool]
}

// ObjectNamespaces returns the namespaces holding at least one object
// of type T, in increasing order ("" alone for a cluster-scoped kind
// with objects). The slice is shared: do not modify it.
func ObjectNamespaces[T Object](o *Objects) []string {
	t := typedTable[T](o)
	if t == nil {
		return nil
	}
	return t.namespaces
}

// Objects returns the object store of the view.
func (v *View) Objects() *Objects { return v.objects }

// Objects returns the object store of the current view; see View.
func (s *Snapshot) Objects() *Objects { return s.View().Objects() }

// NumObjects returns the number of objects of kind k, as
// Objects().Len(k) does, without taking a View: a writer checking for
// objects between two changes of pods does not pay for a view (and for
// copying the nodes the next change writes again).
func (s *Snapshot) NumObjects(k Kind) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objects.Len(k)
}

// writableObjects returns the writer's object store, copied first if a
// view holds it.
func (s *Snapshot) writableObjects() *Objects {
	switch {
	case s.objects == nil:
		s.objects = &Objects{epoch: s.epoch}
	case s.objects.epoch != s.epoch:
		c := *s.objects
		c.epoch = s.epoch
		s.objects = &c
	}
	return s.objects
}

// has reports whether the writer's store holds key.
func (s *Snapshot) hasObject(e entry) bool {
	if s.objects == nil || s.objects.tables[e.index] == nil {
		return false
	}
	return s.objects.tables[e.index].has(e.key.Namespace, e.key.Name)
}

// commit applies validated changes: puts, then removes, under one new
// generation.
func (s *Snapshot) commit(puts, removes []entry) {
	o := s.writableObjects()
	gen := s.nextGen()
	touch := func(e entry) objectTable {
		t := o.tables[e.index]
		if t == nil {
			t = newTable(e.index, s.epoch)
		} else {
			t = t.writable(s.epoch)
		}
		t.setGeneration(gen)
		o.tables[e.index] = t
		return t
	}
	for _, e := range puts {
		touch(e).put(e.key.Namespace, e.key.Name, e.obj, s.epoch)
	}
	for _, e := range removes {
		touch(e).remove(e.key.Namespace, e.key.Name, s.epoch)
	}
	o.gen = gen
	s.changed()
}

// AddObject adds obj, a pointer to one of the Object types (an
// *api.Service, *api.PersistentVolumeClaim, ...). The snapshot keeps the
// pointer: do not modify the object afterwards. It fails, wrapping
// ErrInvalid and changing nothing, on nil, an unsupported type, an
// empty name, or an object of the same kind, namespace and name already
// in the snapshot. An empty namespace of a namespaced kind is
// "default"; the namespace of a cluster-scoped kind is ignored.
func (s *Snapshot) AddObject(obj any) error { return s.AddObjects(obj) }

// AddObjects adds the objects as AddObject does, all or none: it fails,
// changing nothing, if any would fail or two of them share kind,
// namespace and name.
func (s *Snapshot) AddObjects(objs ...any) error {
	entries := make([]entry, 0, len(objs))
	seen := make(map[ObjectKey]struct{}, len(objs))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	for _, obj := range objs {
		_, e, err := entryOf(obj)
		if err != nil {
			return err
		}
		if _, dup := seen[e.key]; dup || s.hasObject(e) {
			return fmt.Errorf("%w %s: already in the snapshot", ErrInvalid, e.key)
		}
		seen[e.key] = struct{}{}
		entries = append(entries, e)
	}
	if len(entries) > 0 {
		s.commit(entries, nil)
	}
	return nil
}

// UpdateObject replaces the object of obj's kind, namespace and name
// with obj. It fails, changing nothing, if obj is invalid (as for
// AddObject) or the snapshot holds no such object (wrapping
// ErrNotFound).
func (s *Snapshot) UpdateObject(obj any) error {
	_, e, err := entryOf(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	if !s.hasObject(e) {
		return fmt.Errorf("%w: %s: not in the snapshot", ErrNotFound, e.key)
	}
	s.commit([]entry{e}, nil)
	return nil
}

// RemoveObject removes the object of obj's kind, namespace and name
// (only those of obj are read). It fails, changing nothing, if obj is
// invalid (as for AddObject) or the snapshot holds no such object
// (wrapping ErrNotFound).
func (s *Snapshot) RemoveObject(obj any) error {
	_, e, err := entryOf(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	if !s.hasObject(e) {
		return fmt.Errorf("%w: %s: not in the snapshot", ErrNotFound, e.key)
	}
	s.commit(nil, []entry{e})
	return nil
}

// RemoveObjectKey removes the object with key k, as RemoveObject does.
func (s *Snapshot) RemoveObjectKey(k ObjectKey) error {
	i := k.Kind.index()
	if i < 0 {
		return fmt.Errorf("%w object: unsupported kind %q", ErrInvalid, k.Kind)
	}
	if k.Name == "" {
		return fmt.Errorf("%w %s: metadata.name: Required value", ErrInvalid, k)
	}
	e := entry{key: ObjectKey{Kind: k.Kind, Namespace: storeNamespace(i, k.Namespace), Name: k.Name}, index: i}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.init(0, 0)
	if !s.hasObject(e) {
		return fmt.Errorf("%w: %s: not in the snapshot", ErrNotFound, e.key)
	}
	s.commit(nil, []entry{e})
	return nil
}

// ChangedObjects yields the objects of type T that differ between two
// stores, by namespace and then name: (old, new) for a replaced object,
// (nil, new) for an added one and (old, nil) for a removed one. Objects
// are compared by identity, as the store never modifies one.
//
// A store shares the namespaces a change did not touch with the store
// it was derived from (a later view of the same snapshot, or a fork's),
// so the cost follows the namespaces that changed, not the store's
// size. Any two stores may be compared; unrelated ones are read whole.
func ChangedObjects[T Object](from, to *Objects) iter.Seq2[*T, *T] {
	return func(yield func(*T, *T) bool) {
		a, b := typedTable[T](from), typedTable[T](to)
		if a == b {
			return
		}
		var an, bn []string
		if a != nil {
			an = a.namespaces
		}
		if b != nil {
			bn = b.namespaces
		}
		for len(an) > 0 || len(bn) > 0 {
			var sa, sb *space[T]
			switch {
			case len(bn) == 0 || (len(an) > 0 && an[0] < bn[0]):
				sa, an = a.spaces[an[0]], an[1:]
			case len(an) == 0 || bn[0] < an[0]:
				sb, bn = b.spaces[bn[0]], bn[1:]
			default:
				sa, sb = a.spaces[an[0]], b.spaces[bn[0]]
				an, bn = an[1:], bn[1:]
			}
			if sa != sb && !changedInSpace(sa, sb, yield) {
				return
			}
		}
	}
}

// changedInSpace yields the differences between two versions of a
// namespace (either may be nil) and reports whether to go on.
func changedInSpace[T Object](a, b *space[T], yield func(*T, *T) bool) bool {
	var an, bn []string
	var ao, bo []*T
	if a != nil {
		an, ao = a.names, a.sorted
	}
	if b != nil {
		bn, bo = b.names, b.sorted
	}
	i, j := 0, 0
	for i < len(an) || j < len(bn) {
		switch {
		case i < len(an) && j < len(bn) && ao[i] == bo[j]:
			// The same object: unchanged, and so is its name.
			i, j = i+1, j+1
		case j == len(bn) || (i < len(an) && an[i] < bn[j]):
			if !yield(ao[i], nil) {
				return false
			}
			i++
		case i == len(an) || bn[j] < an[i]:
			if !yield(nil, bo[j]) {
				return false
			}
			j++
		default:
			if ao[i] != bo[j] && !yield(ao[i], bo[j]) {
				return false
			}
			i, j = i+1, j+1
		}
	}
	return true
}
