package nodeports

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// Pins upstream nodeports/node_ports_test.go TestNodePorts.
func TestNodePorts(t *testing.T) {
	conflict := framework.NewStatus(framework.Unschedulable, "node(s) didn't have free ports for the requested pod ports")
	skip := framework.NewStatus(framework.Skip)
	tests := []struct {
		pod           *api.Pod
		existing      *api.Pod
		name          string
		wantPreFilter *framework.Status
		wantFilter    *framework.Status
	}{
		{pod: &api.Pod{}, name: "skip filter", wantPreFilter: skip},
		{pod: newPortsPod("m1", "UDP/127.0.0.1/8080"), existing: newPortsPod("m1", "UDP/127.0.0.1/9090"), name: "other port"},
		{pod: newPortsPod("m1", "UDP/127.0.0.1/8080"), existing: newPortsPod("m1", "UDP/127.0.0.1/8080"), name: "same udp port", wantFilter: conflict},
		{pod: newPortsPod("m1", "TCP/127.0.0.1/8080"), existing: newPortsPod("m1", "TCP/127.0.0.1/8080"), name: "same tcp port", wantFilter: conflict},
		{pod: newPortsPod("m1", "TCP/127.0.0.1/8080"), existing: newPortsPod("m1", "TCP/127.0.0.2/8080"), name: "different host ip"},
		{pod: newPortsPod("m1", "UDP/127.0.0.1/8080"), existing: newPortsPod("m1", "TCP/127.0.0.1/8080"), name: "different protocol"},
		{pod: newPortsPod("m1", "UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"), existing: newPortsPod("m1", "UDP/127.0.0.1/8080"), name: "second udp port conflict", wantFilter: conflict},
		{pod: newPortsPod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"), existing: newPortsPod("m1", "TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"), name: "first tcp port conflict", wantFilter: conflict},
		{pod: newPortsPod("m1", "TCP/0.0.0.0/8001"), existing: newPortsPod("m1", "TCP/127.0.0.1/8001"), name: "first tcp port conflict due to 0.0.0.0 hostIP", wantFilter: conflict},
		{pod: newPortsPod("m1", "TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"), existing: newPortsPod("m1", "TCP/127.0.0.1/8001"), name: "TCP hostPort conflict due to 0.0.0.0 hostIP", wantFilter: conflict},
		{pod: newPortsPod("m1", "TCP/127.0.0.1/8001"), existing: newPortsPod("m1", "TCP/0.0.0.0/8001"), name: "second tcp port conflict to 0.0.0.0 hostIP", wantFilter: conflict},
		{pod: newPortsPod("m1", "UDP/127.0.0.1/8001"), existing: newPortsPod("m1", "TCP/0.0.0.0/8001"), name: "second different protocol"},
		{pod: newPortsPod("m1", "UDP/127.0.0.1/8001"), existing: newPortsPod("m1", "TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"), name: "UDP hostPort conflict due to 0.0.0.0 hostIP", wantFilter: conflict},
		{pod: initPortPod(false, 8001), existing: newPortsPod("m1", "TCP/0.0.0.0/8001"), name: "non-sidecar initContainer using hostPort", wantPreFilter: skip},
		{pod: initPortPod(true, 8001), existing: newPortsPod("m1", "TCP/0.0.0.0/8001"), name: "TCP hostPort conflict from sidecar initContainer", wantFilter: conflict},
	}
	p, _ := New(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ni *cluster.NodeInfo
			if tc.existing != nil {
				ni = cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "m1"}}, tc.existing)
			} else {
				ni = cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "m1"}})
			}
			state := framework.NewCycleState()
			_, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, tc.pod, nil)
			checkStatus(t, "PreFilter", st, tc.wantPreFilter)
			if st.IsSkip() {
				if !predicates.NodePortsFit(tc.pod, ni) {
					t.Error("NodePortsFit: a pod without host ports must fit")
				}
				return
			}
			checkStatus(t, "Filter", p.(framework.FilterPlugin).Filter(context.Background(), state, tc.pod, ni), tc.wantFilter)
			checkStatus(t, "NodePorts", predicates.NodePorts(tc.pod, ni), tc.wantFilter)
		})
	}
}
