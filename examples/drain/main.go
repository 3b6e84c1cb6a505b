// Command drain asks a what-if question: if node "b" is drained, where do
// its pods go, and does anything fail to fit?
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

func pod(name, node, cpu, memory string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name}}
	p.Spec.NodeName = node
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		"cpu": resource.MustParse(cpu), "memory": resource.MustParse(memory),
	}}}}
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
	// Drain b: take its pods off, remove the node, schedule them again.
	var evicted []*api.Pod
	for _, p := range bound {
		if p.Spec.NodeName != "b" {
			continue
		}
		if err := s.RemovePod(p); err != nil {
			log.Fatal(err)
		}
		q := *p
		q.Spec.NodeName = ""
		evicted = append(evicted, &q)
	}
	if err := s.RemoveNode("b"); err != nil {
		log.Fatal(err)
	}
	placements, err := s.Simulate(context.Background(), evicted)
	if err != nil {
		log.Fatal(err)
	}
	for _, pl := range placements {
		if pl.Err != nil {
			fmt.Printf("%-8s does not fit: %v\n", pl.Pod.Name, pl.Err)
			continue
		}
		fmt.Printf("%-8s → %s\n", pl.Pod.Name, pl.Node)
	}
}
