package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/quantity"
)

func gangNode(name, cpu string) *api.Node {
	alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("16Gi"), api.ResourcePods: quantity.MustParse("110")}
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}
}

func gangPod(name, cpu, group string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}}}}
	if group != "" {
		p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &group}
	}
	return p
}

func gangGroup(name string, minCount int32) *api.PodGroup {
	pg := &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	if minCount > 0 {
		pg.Spec.SchedulingPolicy.Gang = &api.GangSchedulingPolicy{MinCount: minCount}
	} else {
		pg.Spec.SchedulingPolicy.Basic = &api.BasicSchedulingPolicy{}
	}
	return pg
}

func gangScheduler(t interface {
	Helper()
	Fatal(...any)
}, nodes []*api.Node, groups []*api.PodGroup, gates string) *Scheduler {
	t.Helper()
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		if err := snap.AddObject(g); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(snap, WithFeatureGates(featuregates.MustParse(gates)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func outcomes(ps []Placement) string {
	var b []string
	for _, p := range ps {
		switch {
		case p.Node != "":
			b = append(b, p.Pod.Name+"="+p.Node)
		case p.Err != nil:
			b = append(b, p.Pod.Name+": "+p.Err.Error())
		}
	}
	return strings.Join(b, "\n")
}

// TestSimulateGang pins the PodGroup cycle end to end: a gang is placed
// whole or not at all, with v1.37.2's messages.
func TestSimulateGang(t *testing.T) {
	nodes := []*api.Node{gangNode("n1", "2"), gangNode("n2", "2")}
	tests := []struct {
		name   string
		groups []*api.PodGroup
		pods   []*api.Pod
		gates  string
		want   string
	}{
		{name: "gang fits", groups: []*api.PodGroup{gangGroup("g", 3)}, gates: "GenericWorkload=true",
			pods: []*api.Pod{gangPod("a", "1", "g"), gangPod("b", "1", "g"), gangPod("c", "1", "g")},
			want: "a=n1\nb=n2\nc=n1"},
		{name: "gang does not fit: nothing is placed", groups: []*api.PodGroup{gangGroup("g", 5)}, gates: "GenericWorkload=true",
			pods: []*api.Pod{gangPod("a", "1", "g"), gangPod("b", "1", "g"), gangPod("c", "1", "g"), gangPod("d", "1", "g"), gangPod("e", "1", "g")},
			want: "a: pod group is unschedulable, minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor\n" +
				"b: pod group is unschedulable, minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor\n" +
				"c: pod group is unschedulable, minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor\n" +
				"d: pod group is unschedulable, minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor\n" +
				"e: 0/2 nodes are available: 2 Insufficient cpu."},
		{name: "quorum not met: the gang waits", groups: []*api.PodGroup{gangGroup("g", 3)}, gates: "GenericWorkload=true",
			pods: []*api.Pod{gangPod("a", "1", "g"), gangPod("b", "1", "g")},
			want: `a: pod default/a is not admitted to the scheduling queue by plugin "GangScheduling": waiting for minCount pods from a gang to appear in scheduling queue` + "\n" +
				`b: pod default/b is not admitted to the scheduling queue by plugin "GangScheduling": waiting for minCount pods from a gang to appear in scheduling queue`},
		{name: "no PodGroup", gates: "GenericWorkload=true", pods: []*api.Pod{gangPod("a", "1", "g")},
			want: `a: pod default/a is not admitted to the scheduling queue by plugin "GangScheduling": waiting for pods's pod group "g" to appear in scheduling queue`},
		{name: "gate off: pods are scheduled one by one", groups: []*api.PodGroup{gangGroup("g", 5)}, gates: "",
			pods: []*api.Pod{gangPod("a", "1", "g"), gangPod("b", "1", "g"), gangPod("c", "1", "g"), gangPod("d", "1", "g"), gangPod("e", "1", "g")},
			want: "a=n1\nb=n2\nc=n1\nd=n2\ne: 0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."},
		{name: "basic group: those that fit are placed", groups: []*api.PodGroup{gangGroup("g", 0)}, gates: "GenericWorkload=true",
			pods: []*api.Pod{gangPod("a", "2", "g"), gangPod("b", "2", "g"), gangPod("c", "2", "g")},
			want: "a=n1\nb=n2\nc: 0/2 nodes are available: 2 Insufficient cpu."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := gangScheduler(t, nodes, tt.groups, tt.gates)
			got, err := s.Simulate(context.Background(), tt.pods)
			if err != nil {
				t.Fatal(err)
			}
			if o := outcomes(got); o != tt.want {
				t.Errorf("got\n%s\nwant\n%s", o, tt.want)
			}
		})
	}
}

func TestGangErrorType(t *testing.T) {
	s := gangScheduler(t, []*api.Node{gangNode("n1", "1")}, []*api.PodGroup{gangGroup("g", 2)}, "GenericWorkload=true")
	got, err := s.Simulate(context.Background(), []*api.Pod{gangPod("a", "1", "g"), gangPod("b", "1", "g")})
	if err != nil {
		t.Fatal(err)
	}
	var ge *GangError
	if !errors.As(got[0].Err, &ge) || ge.Group.Name != "g" {
		t.Fatalf("a: %v", got[0].Err)
	}
	if got[0].Outcome() != OutcomeUnschedulable {
		t.Fatal(got[0].Outcome())
	}
	_ = fmt.Sprint()
}

// TestSimulateGangPreemption: a gang of higher priority that fits only
// without lower-priority pods evicts as few of them as it needs
// (workload-aware preemption) and is placed on the nodes it was
// nominated to.
func TestSimulateGangPreemption(t *testing.T) {
	nodes := []*api.Node{gangNode("n1", "2"), gangNode("n2", "2"), gangNode("n3", "2")}
	low := func(name, node string) *api.Pod {
		p := gangPod(name, "2", "")
		p.Spec.NodeName = node
		return p
	}
	snapPods := []*api.Pod{low("low1", "n1"), low("low2", "n2"), low("low3", "n3")}
	snap, err := cluster.NewSnapshot(nodes, snapPods)
	if err != nil {
		t.Fatal(err)
	}
	pg := gangGroup("g", 2)
	prio := int32(100)
	pg.Spec.Priority = &prio
	if err := snap.AddObject(pg); err != nil {
		t.Fatal(err)
	}
	s, err := New(snap, WithFeatureGates(featuregates.MustParse("GenericWorkload=true")))
	if err != nil {
		t.Fatal(err)
	}
	a, b := gangPod("a", "2", "g"), gangPod("b", "2", "g")
	a.Spec.Priority, b.Spec.Priority = &prio, &prio
	got, err := s.Simulate(context.Background(), []*api.Pod{a, b})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		if p.Node == "" || len(p.Preemptions) != 1 || p.Outcome() != OutcomePreempting {
			t.Fatalf("%s: node %q, preemptions %+v, err %v", p.Pod.Name, p.Node, p.Preemptions, p.Err)
		}
	}
	// Two of the three low pods are evicted, the least important first
	// reprieved: one stays.
	left := 0
	for _, ni := range s.Snapshot().View().Nodes() {
		for _, pi := range ni.Pods {
			if strings.HasPrefix(pi.Pod.Name, "low") {
				left++
			}
		}
	}
	if left != 1 {
		t.Fatalf("%d low pods left, want 1", left)
	}
}

// TestPodGroupPostFilterReasons pins the reasons the framework joins
// for a group that did not fit: DynamicResources' then DefaultPreemption's
// when it too leaves the group Unschedulable, DefaultPreemption's alone
// when it finds the group unresolvable.
func TestPodGroupPostFilterReasons(t *testing.T) {
	never := api.PreemptionPolicy("Never")
	tests := []struct {
		name   string
		policy *api.PreemptionPolicy
		want   string
	}{
		{name: "no victims", want: "pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming preemptor"},
		{name: "preemptionPolicy Never", policy: &never, want: "pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining, deallocation and deletion of ResourceClaims completed, pod group preemption: not eligible due to preemptionPolicy=Never."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := gangScheduler(t, []*api.Node{gangNode("n1", "2"), gangNode("n2", "2")}, []*api.PodGroup{gangGroup("g", 3)}, "GenericWorkload=true")
			var pods []*api.Pod
			for _, n := range []string{"a", "b", "c"} {
				p := gangPod(n, "2", "g")
				p.Spec.PreemptionPolicy = tt.policy
				pods = append(pods, p)
			}
			got, err := s.Simulate(context.Background(), pods)
			if err != nil {
				t.Fatal(err)
			}
			if msg := got[0].Err.Error(); msg != tt.want {
				t.Errorf("got  %s\nwant %s", msg, tt.want)
			}
		})
	}
}

// TestExplainGroup: a member's group explained as its cycle would run,
// with nothing left assumed.
func TestExplainGroup(t *testing.T) {
	s := gangScheduler(t, []*api.Node{gangNode("n1", "2"), gangNode("n2", "2")}, []*api.PodGroup{gangGroup("g", 3)}, "GenericWorkload=true")
	pods := []*api.Pod{gangPod("a", "2", "g"), gangPod("b", "2", "g"), gangPod("c", "2", "g")}
	if err := s.Enqueue(context.Background(), pods...); err != nil {
		t.Fatal(err)
	}
	ex, err := s.ExplainGroup(context.Background(), pods[1])
	if err != nil {
		t.Fatal(err)
	}
	if ex.Fits || len(ex.Members) != 3 || ex.Members[0].Node == "" || ex.Members[2].Err == nil ||
		ex.Message != "minCount (3) cannot be satisfied: 2 scheduled, 0 remaining" {
		t.Fatalf("%+v", ex)
	}
	if n := s.Snapshot().NumPods(); n != 0 {
		t.Fatalf("%d pods left assumed", n)
	}
	if _, err := s.ExplainGroup(context.Background(), gangPod("solo", "1", "")); !errors.Is(err, ErrNotGangMember) {
		t.Fatal(err)
	}
}
