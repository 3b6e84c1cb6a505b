// Package clustergen holds pgregory.net/rapid generators of nodes, pods
// and whole clusters for property tests of the scheduler's cluster model.
//
// Nodes carry allocatable cpu, memory, pods, ephemeral storage and
// scalar resources (an extended resource and huge pages), the well-known
// zone, region and hostname labels and sometimes a rack label, taints,
// and images drawn from a small shared pool so that image counts across
// nodes matter. Pods take their resources from resourcegen.Pod (so their
// requests follow every rule package resource implements) and add host
// ports, persistent volume claims and inter-pod (anti-)affinity drawn
// from small pools so that conflicts and shared claims happen.
//
// The objects a snapshot's object store holds are generated from the
// same pools: namespaces with labels, services and replica sets whose
// selectors match generated pods' labels, storage classes, volumes and
// the claims generated pods mount; StoreObjects draws a set of them with
// unique names, ready for Snapshot.AddObjects.
package clustergen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// Well-known label keys the generated nodes carry.
const (
	LabelHostname = "kubernetes.io/hostname"
	LabelZone     = "topology.kubernetes.io/zone"
	LabelRegion   = "topology.kubernetes.io/region"
	// LabelRack is set on about half of the nodes.
	LabelRack = "example.com/rack"
)

// GPU is the extended resource generated nodes may offer.
const GPU api.ResourceName = resourcegen.GPU

// Zones and Racks are the label values nodes draw from.
var (
	Zones = []string{"zone-a", "zone-b", "zone-c"}
	Racks = []string{"rack-1", "rack-2", "rack-3", "rack-4"}
)

// Images is the pool node images and container images are drawn from;
// some names have no tag, as the ImageLocality plugin must normalize.
var Images = []string{
	"registry.example/app:v1", "registry.example/app:v2", "nginx", "nginx:1.27",
	"busybox:latest", "localhost:5000/tool", "registry.example/db@sha256:0123abcd",
}

// Node draws a node named node-<n> (Cluster renames them uniquely) with
// allocatable resources equal to its capacity, labels, up to two taints
// and up to four images.
func Node() *rapid.Generator[*api.Node] {
	return rapid.Custom(func(t *rapid.T) *api.Node {
		name := fmt.Sprintf("node-%d", rapid.IntRange(0, 1<<20).Draw(t, "name"))
		return drawNode(t, name)
	})
}

func drawNode(t *rapid.T, name string) *api.Node {
	alloc := api.ResourceList{
		api.ResourceCPU:              quantity.NewMilliQuantity(1000*rapid.Int64Range(1, 64).Draw(t, "cores")+rapid.Int64Range(0, 999).Draw(t, "milli"), quantity.DecimalSI),
		api.ResourceMemory:           quantity.NewQuantity(rapid.Int64Range(1, 512).Draw(t, "memGi")<<30, quantity.BinarySI),
		api.ResourcePods:             quantity.NewQuantity(rapid.Int64Range(1, 250).Draw(t, "pods"), quantity.DecimalSI),
		api.ResourceEphemeralStorage: quantity.NewQuantity(rapid.Int64Range(1, 1000).Draw(t, "diskGi")<<30, quantity.BinarySI),
	}
	if g := rapid.Int64Range(-4, 8).Draw(t, "gpus"); g > 0 {
		alloc[GPU] = quantity.NewQuantity(g, quantity.DecimalSI)
	}
	if h := rapid.Int64Range(-8, 16).Draw(t, "hugepages"); h > 0 {
		alloc["hugepages-2Mi"] = quantity.NewQuantity(h*2<<20, quantity.BinarySI)
	}
	zone := rapid.SampledFrom(Zones).Draw(t, "zone")
	labels := map[string]string{
		LabelHostname: name,
		LabelZone:     zone,
		LabelRegion:   "region-1",
	}
	if rapid.Bool().Draw(t, "hasRack") {
		labels[LabelRack] = rapid.SampledFrom(Racks).Draw(t, "rack")
	}
	n := &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name, Labels: labels},
		Status: api.NodeStatus{
			Capacity:    alloc,
			Allocatable: alloc,
			Conditions:  []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
		},
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "taints") {
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{
			Key:    fmt.Sprintf("example.com/taint-%d", i),
			Value:  rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "taintValue"),
			Effect: rapid.SampledFrom([]api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}).Draw(t, "effect"),
		})
	}
	images := rapid.SliceOfNDistinct(rapid.SampledFrom(Images), 0, 4, rapid.ID[string]).Draw(t, "images")
	for _, img := range images {
		n.Status.Images = append(n.Status.Images, api.ContainerImage{
			Names:     []string{img},
			SizeBytes: rapid.Int64Range(1, 2000).Draw(t, "imageMi") << 20,
		})
	}
	return n
}

// Pod draws an unbound pod named pod-<n> in namespace default or team-a
// (Cluster renames them uniquely): resourcegen.Pod's containers and
// resources, container images from Images, and sometimes host ports,
// persistent volume claims and inter-pod affinity or anti-affinity.
func Pod() *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := resourcegen.Pod().Draw(t, "pod")
		p.Namespace = rapid.SampledFrom(Namespaces).Draw(t, "namespace")
		p.Labels = map[string]string{"app": rapid.SampledFrom(Apps).Draw(t, "app")}
		for i := range p.Spec.Containers {
			c := &p.Spec.Containers[i]
			c.Image = rapid.SampledFrom(Images).Draw(t, "image")
			if rapid.IntRange(0, 4).Draw(t, "hasHostPort") == 0 {
				c.Ports = append(c.Ports, api.ContainerPort{
					ContainerPort: 8080,
					HostPort:      rapid.SampledFrom([]int32{80, 443, 8080}).Draw(t, "hostPort"),
					Protocol:      rapid.SampledFrom([]api.Protocol{"", api.ProtocolTCP, api.ProtocolUDP}).Draw(t, "protocol"),
					HostIP:        rapid.SampledFrom([]string{"", "0.0.0.0", "10.0.0.1"}).Draw(t, "hostIP"),
				})
			}
		}
		for i := range p.Spec.InitContainers {
			c := &p.Spec.InitContainers[i]
			if c.IsRestartableInit() && rapid.IntRange(0, 4).Draw(t, "sidecarHostPort") == 0 {
				c.Ports = append(c.Ports, api.ContainerPort{ContainerPort: 9090, HostPort: 9090})
			}
		}
		if rapid.IntRange(0, 3).Draw(t, "hasPVC") == 0 {
			p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{
				Name:                  "data",
				PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: rapid.SampledFrom(Claims).Draw(t, "claim")},
			})
		}
		term := func(key string) api.PodAffinityTerm {
			return api.PodAffinityTerm{
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}},
				TopologyKey:   key,
			}
		}
		switch rapid.IntRange(0, 7).Draw(t, "affinity") {
		case 0:
			p.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{
				PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: term(LabelZone)}},
			}}
		case 1:
			p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{term(LabelHostname)},
			}}
		case 2:
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{}}
		}
		return p
	})
}

// BoundCluster is a generated cluster: nodes and the pods bound to them.
type BoundCluster struct {
	// Nodes have distinct names node-0, node-1, ...
	Nodes []*api.Node
	// Pods have distinct names and UIDs and spec.nodeName set to one of
	// Nodes.
	Pods []*api.Pod
}

// Cluster draws exactly nodes nodes (at least one) and pods pods, each
// pod bound to a node drawn at random. Names and UIDs are unique; the
// sums of requests may exceed a node's allocatable, as they can in a
// snapshot of a real cluster after a resize or with static pods.
func Cluster(nodes, pods int) *rapid.Generator[BoundCluster] {
	nodes = max(nodes, 1)
	return rapid.Custom(func(t *rapid.T) BoundCluster {
		c := BoundCluster{Nodes: make([]*api.Node, nodes), Pods: make([]*api.Pod, pods)}
		for i := range c.Nodes {
			c.Nodes[i] = drawNode(t, fmt.Sprintf("node-%d", i))
		}
		for i := range c.Pods {
			p := Pod().Draw(t, "pod")
			p.Name = fmt.Sprintf("pod-%d", i)
			p.UID = fmt.Sprintf("uid-pod-%d", i)
			p.Spec.NodeName = c.Nodes[rapid.IntRange(0, nodes-1).Draw(t, "node")].Name
			c.Pods[i] = p
		}
		return c
	})
}
