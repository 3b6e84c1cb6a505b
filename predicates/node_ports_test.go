package predicates

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// newPortsPod mirrors upstream node_ports_test.go newPod: each port is
// "PROTOCOL/hostIP/hostPort".
func newPortsPod(host string, ports ...string) *api.Pod {
	var cps []api.ContainerPort
	for _, s := range ports {
		parts := strings.Split(s, "/")
		hp, _ := strconv.Atoi(parts[2])
		cps = append(cps, api.ContainerPort{HostIP: parts[1], HostPort: int32(hp), Protocol: api.Protocol(parts[0])})
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p-" + host, Namespace: "default"},
		Spec: api.PodSpec{NodeName: host, Containers: []api.Container{{Name: "c", Ports: cps}}}}
}

func ExampleNodePorts() {
	web := newPortsPod("n1", "TCP//80")
	ni := cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}, web)
	fmt.Println(NodePorts(newPortsPod("", "TCP/10.0.0.1/80"), ni))
	fmt.Println(NodePorts(newPortsPod("", "UDP/10.0.0.1/80"), ni).IsSuccess())
	// Output:
	// Unschedulable: node(s) didn't have free ports for the requested pod ports
	// true
}
