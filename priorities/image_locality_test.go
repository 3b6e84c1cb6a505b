package priorities

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

func makeImageNode(name string, status api.NodeStatus) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}, Status: status}
}

func images(names ...string) []api.Container {
	cs := make([]api.Container, len(names))
	for i, n := range names {
		cs[i] = api.Container{Name: fmt.Sprintf("c%d", i), Image: n}
	}
	return cs
}

func ExampleImageLocality() {
	node := makeImageNode("n1", api.NodeStatus{Images: []api.ContainerImage{{Names: []string{"nginx:latest"}, SizeBytes: 500 * mb}}})
	pod := &api.Pod{Spec: api.PodSpec{Containers: images("nginx")}}
	// One image of 500Mi on 1 of 2 nodes: 100*(250Mi-23Mi)/(1000Mi-23Mi).
	fmt.Println(ImageLocality(pod, cluster.NewNodeInfo(node), 2))
	// Output: 23
}
