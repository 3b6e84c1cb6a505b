package clustergen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// Namespaces are the namespaces generated pods live in, and Apps the
// values of their "app" label; the object generators draw from the same
// pools so that selectors match generated pods.
var (
	Namespaces = []string{"default", "team-a"}
	Apps       = []string{"web", "db", "batch"}
)

// StorageClasses are the class names generated claims and volumes use;
// Claims are the claim names generated pods mount.
var (
	StorageClasses = []string{"standard", "fast-wffc", "local"}
	Claims         = []string{"pvc-1", "pvc-2"}
)

// Namespace draws one of Namespaces (or "team-b", which holds no
// generated pods) with "team" and sometimes "env" labels, as namespace
// selectors of pod affinity terms read them.
func Namespace() *rapid.Generator[*api.Namespace] {
	return rapid.Custom(func(t *rapid.T) *api.Namespace {
		name := rapid.SampledFrom(append(Namespaces[:len(Namespaces):len(Namespaces)], "team-b")).Draw(t, "name")
		labels := map[string]string{"kubernetes.io/metadata.name": name, "team": rapid.SampledFrom([]string{"red", "blue"}).Draw(t, "team")}
		if rapid.Bool().Draw(t, "hasEnv") {
			labels["env"] = rapid.SampledFrom([]string{"prod", "dev"}).Draw(t, "env")
		}
		return &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
	})
}

func appSelector(t *rapid.T) map[string]string {
	return map[string]string{"app": rapid.SampledFrom(Apps).Draw(t, "app")}
}

// Service draws a service named svc-<n> in one of Namespaces whose
// selector picks one of Apps.
func Service() *rapid.Generator[*api.Service] {
	return rapid.Custom(func(t *rapid.T) *api.Service {
		return &api.Service{
			ObjectMeta: api.ObjectMeta{
				Name:      fmt.Sprintf("svc-%d", rapid.IntRange(0, 1<<20).Draw(t, "name")),
				Namespace: rapid.SampledFrom(Namespaces).Draw(t, "namespace"),
			},
			Spec: api.ServiceSpec{
				Selector: appSelector(t),
				Ports:    []api.ServicePort{{Port: 80, TargetPort: api.FromInt(8080), Protocol: api.ProtocolTCP}},
			},
		}
	})
}

// ReplicaSet draws a replica set named rs-<n> in one of Namespaces
// selecting one of Apps, with a template carrying that label.
func ReplicaSet() *rapid.Generator[*api.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) *api.ReplicaSet {
		sel := appSelector(t)
		replicas := rapid.Int32Range(0, 5).Draw(t, "replicas")
		return &api.ReplicaSet{
			ObjectMeta: api.ObjectMeta{
				Name:      fmt.Sprintf("rs-%d", rapid.IntRange(0, 1<<20).Draw(t, "name")),
				Namespace: rapid.SampledFrom(Namespaces).Draw(t, "namespace"),
			},
			Spec: api.ReplicaSetSpec{
				Replicas: &replicas,
				Selector: &api.LabelSelector{MatchLabels: sel},
				Template: api.PodTemplateSpec{
					ObjectMeta: api.ObjectMeta{Labels: sel},
					Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: rapid.SampledFrom(Images).Draw(t, "image")}}},
				},
			},
		}
	})
}

// StorageClass draws one of StorageClasses: "fast-wffc" and "local"
// bind on first consumer, "local" has no provisioner, and a class may
// allow only some Zones.
func StorageClass() *rapid.Generator[*api.StorageClass] {
	return rapid.Custom(func(t *rapid.T) *api.StorageClass {
		name := rapid.SampledFrom(StorageClasses).Draw(t, "name")
		sc := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name}, Provisioner: "csi.example.com"}
		mode := api.VolumeBindingImmediate
		switch name {
		case "fast-wffc":
			mode = api.VolumeBindingWaitForFirstConsumer
		case "local":
			mode = api.VolumeBindingWaitForFirstConsumer
			sc.Provisioner = "kubernetes.io/no-provisioner"
		}
		sc.VolumeBindingMode = &mode
		if rapid.IntRange(0, 2).Draw(t, "hasTopology") == 0 {
			zones := rapid.SliceOfNDistinct(rapid.SampledFrom(Zones), 1, len(Zones), rapid.ID[string]).Draw(t, "zones")
			sc.AllowedTopologies = []api.TopologySelectorTerm{{MatchLabelExpressions: []api.TopologySelectorLabelRequirement{{Key: LabelZone, Values: zones}}}}
		}
		return sc
	})
}

func accessModes(t *rapid.T) []api.PersistentVolumeAccessMode {
	return rapid.SliceOfNDistinct(rapid.SampledFrom([]api.PersistentVolumeAccessMode{
		api.ReadWriteOnce, api.ReadOnlyMany, api.ReadWriteMany, api.ReadWriteOncePod,
	}), 1, 2, rapid.ID[api.PersistentVolumeAccessMode]).Draw(t, "accessModes")
}

func storageSize(t *rapid.T) quantity.Quantity {
	return quantity.MustParse(rapid.SampledFrom([]string{"1Gi", "5Gi", "10Gi", "100Gi"}).Draw(t, "size"))
}

// PersistentVolume draws an unbound CSI volume named pv-<n> of one of
// StorageClasses (or none), with a size, access modes and sometimes
// node affinity to one of Zones.
func PersistentVolume() *rapid.Generator[*api.PersistentVolume] {
	return rapid.Custom(func(t *rapid.T) *api.PersistentVolume {
		name := fmt.Sprintf("pv-%d", rapid.IntRange(0, 1<<20).Draw(t, "name"))
		pv := &api.PersistentVolume{
			ObjectMeta: api.ObjectMeta{Name: name},
			Spec: api.PersistentVolumeSpec{
				Capacity:                      api.ResourceList{api.ResourceStorage: storageSize(t)},
				AccessModes:                   accessModes(t),
				StorageClassName:              rapid.SampledFrom(append([]string{""}, StorageClasses...)).Draw(t, "class"),
				PersistentVolumeReclaimPolicy: api.PersistentVolumeReclaimDelete,
				PersistentVolumeSource: api.PersistentVolumeSource{
					CSI: &api.CSIPersistentVolumeSource{Driver: "csi.example.com", VolumeHandle: "vol-" + name},
				},
			},
			Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable},
		}
		if rapid.Bool().Draw(t, "hasNodeAffinity") {
			pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: LabelZone, Operator: api.NodeSelectorOpIn, Values: []string{rapid.SampledFrom(Zones).Draw(t, "zone")}}},
			}}}}
		}
		return pv
	})
}

// PersistentVolumeClaim draws a pending claim named one of Claims in one
// of Namespaces, asking for a size and access modes from a class of
// StorageClasses (or, sometimes, the default class: nil).
func PersistentVolumeClaim() *rapid.Generator[*api.PersistentVolumeClaim] {
	return rapid.Custom(func(t *rapid.T) *api.PersistentVolumeClaim {
		pvc := &api.PersistentVolumeClaim{
			ObjectMeta: api.ObjectMeta{
				Name:      rapid.SampledFrom(Claims).Draw(t, "name"),
				Namespace: rapid.SampledFrom(Namespaces).Draw(t, "namespace"),
			},
			Spec: api.PersistentVolumeClaimSpec{
				AccessModes: accessModes(t),
				Resources:   api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: storageSize(t)}},
			},
			Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending},
		}
		if rapid.IntRange(0, 3).Draw(t, "defaultClass") != 0 {
			class := rapid.SampledFrom(StorageClasses).Draw(t, "class")
			pvc.Spec.StorageClassName = &class
		}
		return pvc
	})
}

// StoreObjects draws objects for a snapshot's object store with no two
// sharing kind, namespace and name, ready for Snapshot.AddObjects: up to
// three namespaces, services, replica sets, storage classes, volumes and
// claims, drawn as the generators above draw them.
func StoreObjects() *rapid.Generator[[]any] {
	return rapid.Custom(func(t *rapid.T) []any {
		var out []any
		seen := map[string]bool{}
		add := func(key string, obj any) {
			if !seen[key] {
				seen[key] = true
				out = append(out, obj)
			}
		}
		for range rapid.IntRange(0, 3).Draw(t, "namespaces") {
			ns := Namespace().Draw(t, "namespace")
			add("ns/"+ns.Name, ns)
		}
		for range rapid.IntRange(0, 3).Draw(t, "services") {
			s := Service().Draw(t, "service")
			add("svc/"+s.Namespace+"/"+s.Name, s)
		}
		for range rapid.IntRange(0, 2).Draw(t, "replicaSets") {
			rs := ReplicaSet().Draw(t, "replicaSet")
			add("rs/"+rs.Namespace+"/"+rs.Name, rs)
		}
		for range rapid.IntRange(0, 3).Draw(t, "classes") {
			sc := StorageClass().Draw(t, "class")
			add("sc/"+sc.Name, sc)
		}
		for range rapid.IntRange(0, 4).Draw(t, "volumes") {
			pv := PersistentVolume().Draw(t, "volume")
			add("pv/"+pv.Name, pv)
		}
		for range rapid.IntRange(0, 3).Draw(t, "claims") {
			pvc := PersistentVolumeClaim().Draw(t, "claim")
			add("pvc/"+pvc.Namespace+"/"+pvc.Name, pvc)
		}
		return out
	})
}
