package nodeports

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
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

func initPortPod(sidecar bool, port int32) *api.Pod {
	c := api.Container{Name: "init", Ports: []api.ContainerPort{{ContainerPort: port, HostPort: port, Protocol: api.ProtocolTCP}}}
	if sidecar {
		always := api.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	return &api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{c}}}
}

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}
