package cluster

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

func TestSmoke(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Status: api.NodeStatus{Allocatable: api.ResourceList{
		api.ResourceCPU: quantity.MustParse("4"), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("110")}}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1"}, Spec: api.PodSpec{NodeName: "n1",
		Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse("500m")}},
			Ports: []api.ContainerPort{{HostPort: 80}}}}}}
	s, err := NewSnapshot([]*api.Node{node}, []*api.Pod{pod})
	if err != nil {
		t.Fatal(err)
	}
	ni, ok := s.Get("n1")
	if !ok || ni.Requested.MilliCPU != 500 || ni.NonZeroRequested.Memory != DefaultMemoryRequest || !ni.UsedPorts.CheckConflict("", "", 80) {
		t.Fatalf("%v", ni)
	}
	if err := ni.RemovePod(pod); err != nil || ni.Requested.MilliCPU != 0 || ni.UsedPorts.Len() != 0 {
		t.Fatal(err, ni)
	}
}
