package predicates

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
)

// VolumeBinding's filter as a plain function over an object store: a
// WaitForFirstConsumer claim needs a volume the node can use.
func ExampleCheckVolumeBinding() {
	wait := api.VolumeBindingWaitForFirstConsumer
	class := "local"
	snap, _ := cluster.NewSnapshot(nil, nil)
	_ = snap.AddObjects(
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: class}, Provisioner: NotSupportedProvisioner, VolumeBindingMode: &wait},
		&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "disk-1"}, Spec: api.PersistentVolumeSpec{
			StorageClassName: class, Capacity: api.ResourceList{"storage": resource.MustParse("100Gi")},
			NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: api.NodeSelectorOpIn, Values: []string{"n1"}}},
			}}}}}, Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}},
		&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default"}, Spec: api.PersistentVolumeClaimSpec{
			StorageClassName: &class, Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{"storage": resource.MustParse("10Gi")}}}},
	)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"}, Spec: api.PodSpec{Volumes: []api.Volume{
		{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}},
		{Name: "logs", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "logs"}},
	}}}
	for _, n := range []string{"n1", "n2"} {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/hostname": n}}}
		fmt.Printf("%s: %v\n", n, CheckVolumeBinding(snap.Objects(), pod, node))
	}
	pod.Spec.Volumes = pod.Spec.Volumes[:1]
	for _, n := range []string{"n1", "n2"} {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/hostname": n}}}
		fmt.Printf("%s: %q\n", n, CheckVolumeBinding(snap.Objects(), pod, node).Message())
	}
	// Output:
	// n1: UnschedulableAndUnresolvable: persistentvolumeclaim "logs" not found
	// n2: UnschedulableAndUnresolvable: persistentvolumeclaim "logs" not found
	// n1: ""
	// n2: "node(s) didn't find available persistent volumes to bind"
}

// ServiceAffinity keeps a service's pods on nodes with the zone of the
// service's first running pod.
func ExampleServiceAffinity() {
	sel := map[string]string{"app": "web"}
	nodes := []*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "a1", Labels: map[string]string{"zone": "a"}}},
		{ObjectMeta: api.ObjectMeta{Name: "b1", Labels: map[string]string{"zone": "b"}}},
	}
	running := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "default", Labels: sel}, Spec: api.PodSpec{NodeName: "b1"}}
	snap, _ := cluster.NewSnapshot(nodes, []*api.Pod{running})
	_ = snap.AddObject(&api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ServiceSpec{Selector: sel}})
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: sel}}
	for _, ni := range snap.View().Nodes() {
		st := ServiceAffinity(snap.View(), []string{"zone"}, pod, ni)
		fmt.Println(ni.Name(), st.Code(), st.Message())
	}
	// Output:
	// a1 Unschedulable node(s) didn't match service affinity
	// b1 Success
}
