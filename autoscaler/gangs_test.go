package autoscaler

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

func gangTestNode(name, cpu string) *api.Node {
	alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("16Gi"), api.ResourcePods: quantity.MustParse("110")}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}
}

func gangTestPod(name, cpu, group, node string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name,
		OwnerReferences: []api.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "j", Controller: ptr(true)}}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}}}}
	if node != "" {
		p.Status.Phase = api.PodRunning
	}
	if group != "" {
		p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &group}
	}
	return p
}

func gangTestScheduler(t *testing.T, nodes []*api.Node, pods []*api.Pod, gates string, groups ...*api.PodGroup) *scheduler.Scheduler {
	t.Helper()
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if err := snap.AddObject(g); err != nil {
			t.Fatal(err)
		}
	}
	s, err := scheduler.New(snap, scheduler.WithFeatureGates(featuregates.MustParse(gates)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func gangTestGroup(name string, minCount int32) *api.PodGroup {
	return &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodGroupSpec{SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: minCount}}}}
}

// TestScaleDownGang: with GenericWorkload on, a node is removed only if
// the replacements of its gang members place as a unit, joining their
// PodGroup's scheduled members; otherwise it is kept with the group's
// reason.
func TestScaleDownGang(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		n2Filler string // cpu already used on n2 (4 cpus)
		removed  bool
		msg      string
	}{
		{n2Filler: "0", removed: true},
		{n2Filler: "1500m", msg: "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining"},
	} {
		t.Run(tt.n2Filler, func(t *testing.T) {
			pods := []*api.Pod{
				gangTestPod("g-0", "1", "g", "n1"), gangTestPod("g-1", "1", "g", "n1"),
				gangTestPod("g-2", "1", "g", "n3"), gangTestPod("g-3", "1", "g", "n3"),
			}
			if tt.n2Filler != "0" {
				pods = append(pods, gangTestPod("filler", tt.n2Filler, "", "n2"))
			}
			s := gangTestScheduler(t, []*api.Node{gangTestNode("n1", "4"), gangTestNode("n2", "3"), gangTestNode("n3", "2")}, pods,
				"GenericWorkload=true", gangTestGroup("g", 4))
			down, err := PlanScaleDown(ctx, s, ScaleDownOptions{Nodes: []string{"n1"}, UtilizationThreshold: 0.6})
			if err != nil {
				t.Fatal(err)
			}
			if tt.removed {
				if len(down.Removed) != 1 || len(down.Removed[0].Moves) != 2 || down.Removed[0].Moves[0].To != "n2" {
					t.Fatalf("removed: %+v, kept: %+v", down.Removed, down.Kept)
				}
				return
			}
			if len(down.Removed) != 0 || len(down.Kept) != 1 || down.Kept[0].Reason != NoPlaceToMovePods || !strings.Contains(down.Kept[0].Message, tt.msg) {
				t.Fatalf("removed: %+v, kept: %+v", down.Removed, down.Kept)
			}
		})
	}
}

// TestGangsAfterScaleUp: cluster-autoscaler's plan counts a gang's pods
// one by one (the scheduler with GenericWorkload off); beside it, a gang
// is helped only if it fits whole with the plan's nodes.
func TestGangsAfterScaleUp(t *testing.T) {
	ctx := context.Background()
	nodes := []*api.Node{gangTestNode("n1", "2")}
	var pending []*api.Pod
	for i := range 4 {
		pending = append(pending, gangTestPod(fmt.Sprintf("g-%d", i), "1", "g", ""))
	}
	group := []NodeGroup{{Template: gangTestNode("pool", "1")}}
	// --max 1: cluster-autoscaler adds one 1-cpu node, helping one pod
	// more; the gang of 4 still does not fit.
	ca := gangTestScheduler(t, nodes, nil, "", gangTestGroup("g", 4))
	up, err := PlanScaleUp(ctx, ca, pending, ScaleUpOptions{Groups: group, Max: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Nodes) != 1 {
		t.Fatalf("nodes: %+v", up.Nodes)
	}
	gs := gangTestScheduler(t, nodes, nil, "GenericWorkload=true", gangTestGroup("g", 4))
	got, err := GangsAfterScaleUp(ctx, gs, pending, up)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Helped || !strings.HasPrefix(got[0].Message, "does not fit: ") {
		t.Fatalf("max 1: %+v", got)
	}
	up, err = PlanScaleUp(ctx, ca, pending, ScaleUpOptions{Groups: group})
	if err != nil {
		t.Fatal(err)
	}
	got, err = GangsAfterScaleUp(ctx, gs, pending, up)
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Nodes) != 2 || len(got) != 1 || !got[0].Helped || got[0].Placed != 4 {
		t.Fatalf("nodes %d: %+v", len(up.Nodes), got)
	}
	// With the gate on, PlanScaleUp plans as cluster-autoscaler does,
	// with it off; gs is not changed.
	for _, max := range []int{1, 0} {
		off, err := PlanScaleUp(ctx, ca, pending, ScaleUpOptions{Groups: group, Max: max})
		if err != nil {
			t.Fatal(err)
		}
		on, err := PlanScaleUp(ctx, gs, pending, ScaleUpOptions{Groups: group, Max: max})
		if err != nil {
			t.Fatal(err)
		}
		errText := cmp.Comparer(func(a, b error) bool { return fmt.Sprint(a) == fmt.Sprint(b) })
		if diff := cmp.Diff(off, on, errText); diff != "" {
			t.Errorf("max %d: gate on plans differently (-off +on):\n%s", max, diff)
		}
	}
	if !gs.FeatureGates().GenericWorkload() || len(gs.Snapshot().Nodes()) != 1 {
		t.Errorf("PlanScaleUp changed its scheduler")
	}
	if got, _ := GangsAfterScaleUp(ctx, ca, pending, up); got != nil {
		t.Fatalf("gate off: %+v", got)
	}
}
