// Command policy rebuilds a scheduling profile from an old Policy file
// (kind: Policy, the predicates and priorities that clusters before
// v1.23 configured their scheduler with): package schedconfig maps each
// classic name to the plugin upstream last mapped it to, and the
// profile it prints is what the scheduler then runs. Here the policy
// keeps a service's pods in one zone (CheckServiceAffinity, a plugin
// upstream removed, kept as an optional plugin) and prefers the least
// requested node.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/schedconfig"
	"github.com/schedkit/schedkit/scheduler"
)

const policy = `
kind: Policy
apiVersion: v1
predicates:
- {name: PodFitsResources}
- {name: MatchNodeSelector}
- {name: PodToleratesNodeTaints}
- {name: ZoneAffinity, argument: {serviceAffinity: {labels: [zone]}}}
priorities:
- {name: LeastRequestedPriority, weight: 1}
- {name: BalancedResourceAllocation, weight: 1}
`

func node(name, zone string) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"zone": zone, "kubernetes.io/hostname": name}}}
	n.Status.Allocatable = api.ResourceList{api.ResourceCPU: resource.MustParse("4"), api.ResourceMemory: resource.MustParse("8Gi"), api.ResourcePods: resource.MustParse("110")}
	return n
}

func pod(name, nodeName string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}}}
	p.Spec.NodeName = nodeName
	p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: resource.MustParse("500m")}}}}
	return p
}

func main() {
	cfg, err := schedconfig.Decode([]byte(policy))
	if err != nil {
		log.Fatal(err)
	}
	nodes := []*api.Node{node("a1", "a"), node("a2", "a"), node("b1", "b")}
	snap, err := cluster.NewSnapshot(nodes, []*api.Pod{pod("web-0", "b1")})
	if err != nil {
		log.Fatal(err)
	}
	if err := snap.AddObject(&api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}}); err != nil {
		log.Fatal(err)
	}
	s, err := scheduler.New(snap, cfg.Options()...)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	prof, _ := s.Profile("")
	points := prof.ListPlugins()
	fmt.Println("filter:", points["Filter"])
	fmt.Println("score: ", points["Score"])
	res, err := s.Schedule(context.Background(), pod("web-1", ""))
	fmt.Println("web-1 →", res.Node, err)
}
