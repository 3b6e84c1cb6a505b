package cluster_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

func node(name, zone, cpu string) *api.Node {
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"topology.kubernetes.io/zone": zone}},
		Status: api.NodeStatus{
			Allocatable: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourcePods: quantity.MustParse("110")},
			Images:      []api.ContainerImage{{Names: []string{"nginx:1.27"}, SizeBytes: 60 << 20}},
		},
	}
}

func pod(name, nodeName, cpu string, hostPort int32) *api.Pod {
	c := api.Container{Name: "app", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}
	if hostPort > 0 {
		c.Ports = []api.ContainerPort{{ContainerPort: 8080, HostPort: hostPort}}
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: nodeName, Containers: []api.Container{c}}}
}

// A snapshot of two nodes with their pods; each NodeInfo keeps the sums.
func ExampleNewSnapshot() {
	s, err := cluster.NewSnapshot(
		[]*api.Node{node("a", "zone-1", "4"), node("b", "zone-2", "8")},
		[]*api.Pod{pod("web-1", "a", "500m", 80), pod("web-2", "a", "1", 0), pod("db", "b", "2", 0)},
	)
	if err != nil {
		panic(err)
	}
	for _, ni := range s.Nodes() {
		fmt.Printf("%s: %d pods, cpu %dm of %dm, non-zero memory %d MiB, nginx:1.27 on %d nodes\n",
			ni.Name(), ni.NumPods(), ni.Requested.MilliCPU, ni.Allocatable.MilliCPU,
			ni.NonZeroRequested.Memory>>20, ni.ImageStates["nginx:1.27"].NumNodes)
	}
	// Output:
	// a: 2 pods, cpu 1500m of 4000m, non-zero memory 400 MiB, nginx:1.27 on 2 nodes
	// b: 1 pods, cpu 2000m of 8000m, non-zero memory 200 MiB, nginx:1.27 on 2 nodes
}

// A scheduling cycle reads a View; assuming the chosen pod afterwards does
// not change what the cycle saw. The nodes are listed round-robin over
// zones, as kube-scheduler lists them: a, c, b.
func ExampleSnapshot_View() {
	s, _ := cluster.NewSnapshot([]*api.Node{node("a", "zone-1", "4"), node("b", "zone-1", "4"), node("c", "zone-2", "4")}, nil)
	v := s.View()
	zones := v.Domains("topology.kubernetes.io/zone")
	for _, z := range slices.Sorted(maps.Keys(zones)) {
		fmt.Println(z, zones[z])
	}
	if err := s.AssumePod(pod("new", "", "1", 0), "c"); err != nil {
		panic(err)
	}
	before, _ := v.Get("c")
	after, _ := s.Get("c")
	fmt.Println(before.Requested.MilliCPU, after.Requested.MilliCPU)
	// Output:
	// zone-1 [0 2]
	// zone-2 [1]
	// 0 1000
}

// Host ports conflict as in kube-scheduler: 0.0.0.0 (or an empty IP)
// clashes with the same protocol and port on any IP.
func ExampleHostPortInfo_CheckConflict() {
	var used cluster.HostPortInfo
	used.Add("10.0.0.1", api.ProtocolTCP, 80)
	fmt.Println(used.CheckConflict("", "", 80))              // 0.0.0.0/TCP
	fmt.Println(used.CheckConflict("10.0.0.2", "TCP", 80))   // another IP
	fmt.Println(used.CheckConflict("10.0.0.1", "UDP", 80))   // another protocol
	fmt.Println(used.CheckConflict("10.0.0.1", "TCP", 8080)) // another port
	// Output:
	// true
	// false
	// false
	// false
}

// Snapshots reject bad input with an error naming it and change nothing.
func ExampleSnapshot_AddPod() {
	s, _ := cluster.NewSnapshot([]*api.Node{node("a", "zone-1", "4")}, nil)
	fmt.Println(s.AddPod(pod("web", "a", "1", 0)))
	fmt.Println(s.AddPod(pod("web", "a", "1", 0)))
	fmt.Println(s.AddPod(pod("bad", "a", "-1", 0)))
	fmt.Println(s.NumPods())
	// Output:
	// <nil>
	// invalid pod default/web: already in the snapshot (on node "a")
	// invalid pod default/bad: container app requests: cpu: negative quantity -1
	// 1
}

// The snapshot's object store: objects other than nodes and pods, read
// from a view by namespace and name or listed in name order.
func ExampleSnapshot_AddObjects() {
	s, _ := cluster.NewSnapshot(nil, nil)
	err := s.AddObjects(
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "shop", Labels: map[string]string{"team": "red"}}},
		&api.Service{ObjectMeta: api.ObjectMeta{Namespace: "shop", Name: "web"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}},
		&api.Service{ObjectMeta: api.ObjectMeta{Namespace: "shop", Name: "api"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "api"}}},
		&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-1"}},
	)
	fmt.Println(err)
	v := s.View()
	objs := v.Objects()
	ns, _ := cluster.GetObject[api.Namespace](objs, "", "shop")
	fmt.Println(ns.Labels["team"])
	for _, svc := range cluster.ListObjects[api.Service](objs, "shop") {
		fmt.Println(svc.Name, svc.Spec.Selector["app"])
	}
	// A duplicate is rejected; a removal leaves the earlier view as it was.
	fmt.Println(s.AddObject(&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-1"}}))
	_ = s.RemoveObject(&api.Service{ObjectMeta: api.ObjectMeta{Namespace: "shop", Name: "web"}})
	fmt.Println(len(cluster.ListObjects[api.Service](objs, "shop")), len(cluster.ListObjects[api.Service](s.Objects(), "shop")))
	// Output:
	// <nil>
	// red
	// api api
	// web web
	// invalid PersistentVolume pv-1: already in the snapshot
	// 2 1
}

// View.Topology numbers a label key's domains, so that per-domain counts
// can live in a slice and a node's domain is found without its labels.
func ExampleView_Topology() {
	const zone = "topology.kubernetes.io/zone"
	s, _ := cluster.NewSnapshot([]*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "a1", Labels: map[string]string{zone: "a"}}},
		{ObjectMeta: api.ObjectMeta{Name: "b1", Labels: map[string]string{zone: "b"}}},
		{ObjectMeta: api.ObjectMeta{Name: "a2", Labels: map[string]string{zone: "a"}}},
		{ObjectMeta: api.ObjectMeta{Name: "none"}},
	}, nil)
	v := s.View()
	topo := v.Topology(zone)
	pods := make([]int, topo.NumIDs()) // matching pods per zone, by id
	pods[topo.ID(v.Nodes()[0])] += 2
	for _, ni := range v.Nodes() {
		if id := topo.ID(ni); id >= 0 {
			fmt.Printf("%s: zone %s (%d nodes) %d pods\n", ni.Name(), topo.Value(id), topo.Size(id), pods[id])
		} else {
			fmt.Printf("%s: no zone\n", ni.Name())
		}
	}
	// Unordered output:
	// a1: zone a (2 nodes) 2 pods
	// a2: zone a (2 nodes) 2 pods
	// b1: zone b (1 nodes) 0 pods
	// none: no zone
}

// The pods a selector may match, node by node, found through the
// snapshot's pod index instead of reading every pod.
func ExampleView_PodCandidates() {
	web1, web2, db := pod("web-1", "a", "500m", 0), pod("web-2", "b", "1", 0), pod("db", "b", "2", 0)
	web1.Labels = map[string]string{"app": "web"}
	web2.Labels = map[string]string{"app": "web"}
	db.Labels = map[string]string{"app": "db"}
	s, err := cluster.NewSnapshot([]*api.Node{node("a", "zone-1", "4"), node("b", "zone-2", "8")}, []*api.Pod{web1, web2, db})
	if err != nil {
		panic(err)
	}
	sel := affinity.SelectorFromSet(map[string]string{"app": "web"})
	v := s.View()
	c, ok := v.PodCandidates([]cluster.PodQuery{{Namespace: "default", Selector: sel}})
	fmt.Println("answered:", ok)
	for _, ni := range v.Nodes() {
		pods, _ := c.Pods(ni)
		for _, p := range pods {
			fmt.Println(ni.Name(), p.Pod.Name)
		}
	}
	// Output:
	// answered: true
	// a web-1
	// b web-2
}
