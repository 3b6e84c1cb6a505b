// Command capacity answers a capacity planner's question: how many more
// replicas of a pod fit in the cluster, and on which nodes would the
// default scheduler put them?
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sort"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
)

func node(name, cpu, memory string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}}}
	n.Status.Allocatable = api.ResourceList{
		api.ResourceCPU:    resource.MustParse(cpu),
		api.ResourceMemory: resource.MustParse(memory),
		api.ResourcePods:   resource.MustParse("110"),
	}
	return n
}

func replica(i int) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("api-%d", i), Namespace: "default", UID: fmt.Sprintf("uid-%d", i)}}
	p.Spec.Containers = []api.Container{{Name: "api", Resources: api.ResourceRequirements{Requests: api.ResourceList{
		api.ResourceCPU:    resource.MustParse("1500m"),
		api.ResourceMemory: resource.MustParse("3Gi"),
	}}}}
	return p
}

func main() {
	nodes := []*api.Node{node("small", "4", "8Gi"), node("medium", "8", "16Gi"), node("large", "16", "64Gi")}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		log.Fatal(err)
	}
	s, err := scheduler.New(snap, scheduler.WithSeed(1))
	if err != nil {
		log.Fatal(err)
	}
	perNode := map[string]int{}
	ctx := context.Background()
	for i := 0; ; i++ {
		pod := replica(i)
		res, err := s.Schedule(ctx, pod)
		var fit *scheduler.FitError
		if errors.As(err, &fit) {
			fmt.Printf("%d replicas fit; the next one does not: %v\n", i, err)
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		if err := s.Assume(pod, res.Node); err != nil {
			log.Fatal(err)
		}
		perNode[res.Node]++
	}
	names := make([]string, 0, len(perNode))
	for n := range perNode {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("  %-6s %d\n", n, perNode[n])
	}
}
