package gangscheduling

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/podgroup"
)

// fakeLister counts a group's pods as the scheduler's cache does: all
// pods known, and those assumed or bound.
type fakeLister struct {
	groups    map[podgroup.Key]*api.PodGroup
	pods      []*api.Pod
	scheduled map[string]bool // by pod name
}

func (f *fakeLister) PodGroup(k podgroup.Key) (*api.PodGroup, bool) {
	g, ok := f.groups[k]
	return g, ok
}

func (f *fakeLister) count(k podgroup.Key, scheduledOnly bool) int {
	n := 0
	for _, p := range f.pods {
		if pk, ok := podgroup.KeyOf(p); ok && pk == k && (!scheduledOnly || f.scheduled[p.Name]) {
			n++
		}
	}
	return n
}

func (f *fakeLister) AllPodsCount(k podgroup.Key) int       { return f.count(k, false) }
func (f *fakeLister) ScheduledPodsCount(k podgroup.Key) int { return f.count(k, true) }

func gang(name string, minCount int32) *api.PodGroup {
	return &api.PodGroup{ObjectMeta: api.ObjectMeta{Namespace: "ns1", Name: name},
		Spec: api.PodGroupSpec{SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: minCount}}}}
}

func basic(name string) *api.PodGroup {
	return &api.PodGroup{ObjectMeta: api.ObjectMeta{Namespace: "ns1", Name: name},
		Spec: api.PodGroupSpec{SchedulingPolicy: api.PodGroupSchedulingPolicy{Basic: &api.BasicSchedulingPolicy{}}}}
}

func member(name, group string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns1", Name: name}}
	if group != "" {
		p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &group}
	}
	return p
}

// TestGangSchedulingFlow ports the CPG=false rows of upstream's
// TestGangSchedulingFlow: PreEnqueue then Permit for one pod, with the
// pods and groups the scheduler knows and the pods waiting at Permit
// (assumed, so scheduled).
func TestGangSchedulingFlow(t *testing.T) {
	p1, p2, p3 := member("p1", "pg1"), member("p2", "pg1"), member("p3", "pg1")
	p4, p5 := member("p4", "pg2"), member("p5", "pg2")
	basicPod, nonGang := member("basic-pod", "pg3"), member("non-gang", "")
	allGroups := []*api.PodGroup{gang("pg1", 3), gang("pg2", 4), basic("pg3")}
	tests := []struct {
		name        string
		pod         *api.Pod
		initialPods []*api.Pod
		groups      []*api.PodGroup
		waiting     []*api.Pod
		wantPreEnq  *framework.Status
		wantPermit  *framework.Status
	}{
		{name: "non-gang pod succeeds immediately (CPG=false)", pod: nonGang, groups: allGroups},
		{name: "basic policy pod succeeds immediately (CPG=false)", pod: basicPod, groups: allGroups},
		{name: "gang pod fails PreEnqueue when pod group is not yet created (CPG=false)", pod: p1, initialPods: []*api.Pod{p2, p3, p4, p5},
			wantPreEnq: framework.NewStatus(framework.UnschedulableAndUnresolvable, `waiting for pods's pod group "pg1" to appear in scheduling queue`)},
		{name: "gang pod fails PreEnqueue when quorum is not met (CPG=false)", pod: p1, initialPods: []*api.Pod{p2, p4, p5}, groups: allGroups[:2],
			wantPreEnq: framework.NewStatus(framework.UnschedulableAndUnresolvable, ReasonWaitingForPods)},
		{name: "gang pod passes PreEnqueue, but waits at Permit (CPG=false)", pod: p1, initialPods: []*api.Pod{p2, p3, p4, p5}, groups: allGroups[:2],
			waiting: []*api.Pod{p2, p4, p5}, wantPermit: framework.NewStatus(framework.Wait, ReasonWaitingAtPermit)},
		{name: "final gang pod arrives at Permit and allows all waiting pods from a gang (CPG=false)", pod: p1, initialPods: []*api.Pod{p2, p3, p4, p5}, groups: allGroups[:2],
			waiting: []*api.Pod{p2, p3, p4, p5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &fakeLister{groups: map[podgroup.Key]*api.PodGroup{}, scheduled: map[string]bool{}}
			for _, g := range tt.groups {
				l.groups[podgroup.Key{Namespace: g.Namespace, Name: g.Name}] = g
			}
			l.pods = append(append(l.pods, tt.initialPods...), tt.pod)
			pl := NewWithLister(l)
			if got := pl.PreEnqueue(context.Background(), tt.pod); !got.Equal(tt.wantPreEnq) {
				t.Fatalf("PreEnqueue = %v, want %v", got, tt.wantPreEnq)
			}
			if tt.wantPreEnq != nil {
				return
			}
			// The pod reaches Permit assumed, as the waiting ones are.
			l.scheduled[tt.pod.Name] = true
			for _, w := range tt.waiting {
				l.scheduled[w.Name] = true
			}
			got, timeout := pl.Permit(context.Background(), tt.pod)
			if !got.Equal(tt.wantPermit) {
				t.Fatalf("Permit = %v, want %v", got, tt.wantPermit)
			}
			if got.IsWait() != (timeout == PermitTimeout) {
				t.Errorf("timeout %v with status %v", timeout, got)
			}
		})
	}
}

// TestPlacementFeasible ports the isCPG=false, cpgFeatureGate=false rows
// of upstream's TestPlacementFeasible: the status after each pod of a
// cycle, minCount 0 meaning a basic group.
func TestPlacementFeasible(t *testing.T) {
	S, U, W := framework.Success, framework.Unschedulable, framework.Wait
	tests := []struct {
		name              string
		minCount, members int
		pods, want        []framework.Code
		initialScheduled  int
	}{
		{"All pods succeed, minCount met at end", 2, 2, []framework.Code{S, S}, []framework.Code{W, S}, 0},
		{"First pod fails, minCount not satisfiable", 3, 3, []framework.Code{U}, []framework.Code{U}, 0},
		{"Second pod fails, minCount not satisfiable", 2, 2, []framework.Code{S, U}, []framework.Code{W, U}, 0},
		{"Non-gang pod group with 0 scheduled pods fails", 0, 1, []framework.Code{U}, []framework.Code{U}, 0},
		{"Non-gang pod group with succeeds once 1 pod is scheduled", 0, 1, []framework.Code{S}, []framework.Code{S}, 0},
		{"Non-gang pod group with 1 initially scheduled pod succeeds", 0, 1, []framework.Code{U}, []framework.Code{S}, 1},
		{"More than minCount pods, all succeed", 2, 3, []framework.Code{S, S, S}, []framework.Code{W, S, S}, 0},
		{"More than minCount pods, first fails", 2, 3, []framework.Code{U, S, S}, []framework.Code{W, W, S}, 0},
		{"More than minCount pods, minCount not satisfiable", 2, 3, []framework.Code{U, U}, []framework.Code{W, U}, 0},
		{"1 pod scheduled, 2 unscheduled pods succeed, minCount 3 met", 3, 2, []framework.Code{S, S}, []framework.Code{W, S}, 1},
		{"minCount already met by scheduled pods", 2, 1, []framework.Code{U}, []framework.Code{S}, 2},
		{"1 pod scheduled, minCount 3, first unscheduled fails, not enough remaining", 3, 2, []framework.Code{U}, []framework.Code{U}, 1},
		{"1 pod scheduled, minCount 4, first unscheduled succeeds, not enough remaining", 4, 2, []framework.Code{S}, []framework.Code{U}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg := basic("pg")
			if tt.minCount > 0 {
				pg = gang("pg", int32(tt.minCount))
			}
			scheduled := tt.initialScheduled
			for i, code := range tt.pods {
				if code == S {
					scheduled++
				}
				got := PlacementFeasible(pg, Progress{Remaining: tt.members - (i + 1), Scheduled: scheduled})
				if got.Code() != tt.want[i] {
					t.Errorf("step %d: %v, want %v", i, got.Code(), tt.want[i])
				}
			}
		})
	}
}

func TestPlacementFeasibleReasons(t *testing.T) {
	got := PlacementFeasible(gang("pg", 8), Progress{Remaining: 0, Scheduled: 5})
	if got.Message() != "minCount (8) cannot be satisfied: 5 scheduled, 0 remaining" {
		t.Error(got.Message())
	}
	got = PlacementFeasible(gang("pg", 8), Progress{Remaining: 3, Scheduled: 5})
	if got.Message() != "minCount (8) is not yet satisfied: 5 scheduled, 3 remaining" {
		t.Error(got.Message())
	}
}
