package scheduler_test

import (
	"context"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
	"github.com/schedkit/schedkit/taints"
)

// owned is a pod bound to node and managed by a ReplicaSet.
func owned(name, cpu, node string, labels map[string]string) *api.Pod {
	p := pod(name, cpu)
	p.Spec.NodeName = node
	p.Labels = labels
	yes := true
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs", Controller: &yes}}
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	return p
}

// Draining node-a: the PodDisruptionBudget lets one web pod go, so the
// second eviction is refused; the evicted pods' replacements land on the
// other nodes, and the pod too big for them stays Pending.
func ExampleScheduler_Drain() {
	web := map[string]string{"app": "web"}
	pods := []*api.Pod{
		owned("web-1", "1", "node-a", web),
		owned("web-2", "1", "node-a", web),
		owned("batch", "6", "node-a", nil),
		owned("db", "2", "node-b", nil),
	}
	snap, _ := cluster.NewSnapshot([]*api.Node{node("node-a", "8", nil), node("node-b", "4", nil), node("node-c", "2", nil)}, pods)
	budget := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
	budget.Spec.Selector = &api.LabelSelector{MatchLabels: web}
	budget.Status.DisruptionsAllowed, budget.Status.CurrentHealthy, budget.Status.DesiredHealthy = 1, 2, 1
	_ = snap.AddObject(budget)
	s, _ := scheduler.New(snap)

	rep, _ := s.Drain(context.Background(), []string{"node-a"}, time.Unix(0, 0), scheduler.DrainOptions{IgnoreDaemonSets: true})
	fmt.Println("cordoned:", rep.Cordoned)
	for _, p := range rep.Pods {
		switch {
		case p.Outcome == scheduler.DrainBlocked:
			fmt.Printf("%s stays: %s\n", p.Pod.Name, p.Message)
		case p.Placement.Node != "":
			fmt.Printf("%s: %s %s -> %s\n", p.Pod.Name, p.Outcome, p.From, p.Placement.Node)
		default:
			fmt.Printf("%s: %s %s -> Pending: %v\n", p.Pod.Name, p.Outcome, p.From, p.Placement.Err)
		}
	}
	// Output:
	// cordoned: [node-a]
	// web-1: Evicted node-a -> node-c
	// web-2 stays: Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web does not allow evicting pods currently
	// batch: Evicted node-a -> Pending: 0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
}

// node-a stops reporting at 15:00: the lifecycle controller taints it
// unreachable; pods admitted with the default 300 s toleration are
// evicted at 15:05 and rescheduled, a pod tolerating it for an hour
// later.
func ExampleScheduler_TaintNode() {
	a := node("node-a", "4", nil)
	a.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown}}
	web := owned("web", "1", "node-a", nil)
	admission.AddDefaultTolerations(web)
	agent := owned("agent", "1", "node-a", nil)
	hour := int64(3600)
	agent.Spec.Tolerations = []api.Toleration{{Key: taints.NodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &hour}}
	snap, _ := cluster.NewSnapshot([]*api.Node{a, node("node-b", "4", nil)}, []*api.Pod{web, agent})
	s, _ := scheduler.New(snap)

	at := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	evictions, _ := s.TaintNode(context.Background(), "node-a", taints.WithConditionTaints(a, at), at)
	for _, e := range evictions {
		fmt.Printf("%s evicted %s, rescheduled on %s\n", e.Pod.Name, e.Decision, e.Placement.Node)
	}
	// Output:
	// web evicted At(2026-01-02T15:05:00Z), rescheduled on node-b
	// agent evicted At(2026-01-02T16:00:00Z), rescheduled on node-b
}
