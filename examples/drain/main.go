// Command drain asks a what-if question: if node "b" is drained as
// `kubectl drain b --ignore-daemonsets` would drain it, where do its
// pods' replacements go, and does anything fail to fit?
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

// pod is a running pod on node, managed by a ReplicaSet, so that the
// drain evicts it and the ReplicaSet recreates it elsewhere.
func pod(name, node, cpu, memory string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name}}
	yes := true
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name + "-rs", UID: name + "-rs", Controller: &yes}}
	p.Spec.NodeName = node
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		"cpu": resource.MustParse(cpu), "memory": resource.MustParse(memory),
	}}}}
	p.Status.Phase = api.PodRunning
	return p
}

func main() {
	var nodes []*api.Node
	for _, name := range []string{"a", "b", "c"} {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
		n.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")}
		nodes = append(nodes, n)
	}
	bound := []*api.Pod{
		pod("web-1", "a", "2", "2Gi"), pod("db-1", "c", "3", "6Gi"),
		pod("web-2", "b", "1", "1Gi"), pod("cache-1", "b", "1500m", "4Gi"), pod("batch-1", "b", "2", "1Gi"),
	}
	snap, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		log.Fatal(err)
	}
	s, err := scheduler.New(snap, scheduler.WithSeed(1))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Drain(context.Background(), []string{"b"}, time.Now(), scheduler.DrainOptions{IgnoreDaemonSets: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range rep.Pods {
		switch {
		case p.Outcome != scheduler.DrainEvicted:
			fmt.Printf("%-8s %s: %s\n", p.Pod.Name, p.Outcome, p.Message)
		case p.Placement.Err != nil:
			fmt.Printf("%-8s does not fit: %v\n", p.Pod.Name, p.Placement.Err)
		default:
			fmt.Printf("%-8s → %s\n", p.Pod.Name, p.Placement.Node)
		}
	}
}
