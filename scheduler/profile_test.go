package scheduler

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/quantity"
)

// The default profile is kube-scheduler v1.37.2's: every default plugin
// either runs or is listed as not evaluated, in the default order, with
// the default weights.
func TestDefaultProfile(t *testing.T) {
	snap, err := cluster.NewSnapshot(benchNodes(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Profiles(); !slices.Equal(got, []string{"default-scheduler"}) {
		t.Fatalf("profiles %v", got)
	}
	p, _ := s.Profile("")
	registry := DefaultRegistry()
	var running, notEvaluated []string
	for _, d := range framework.DefaultPlugins() {
		if _, ok := registry[d.Name]; ok {
			running = append(running, d.Name)
		} else {
			notEvaluated = append(notEvaluated, d.Name)
		}
	}
	var got []string
	for _, r := range p.Plugins() {
		got = append(got, r.Name)
	}
	if !slices.Equal(got, running) {
		t.Errorf("plugins %v, want %v", got, running)
	}
	if !slices.Equal(p.NotEvaluated(), notEvaluated) {
		t.Errorf("NotEvaluated %v, want %v", p.NotEvaluated(), notEvaluated)
	}
	weights := map[string]int64{"TaintToleration": 3, "NodeAffinity": 2, "NodeResourcesFit": 1, "PodTopologySpread": 2,
		"InterPodAffinity": 2, "DynamicResources": 2, "NodeResourcesBalancedAllocation": 1, "ImageLocality": 1, "VolumeBinding": 1}
	for _, name := range p.ListPlugins()["Score"] {
		if p.ScoreWeight(name) != weights[name] {
			t.Errorf("%s weight %d, want %d", name, p.ScoreWeight(name), weights[name])
		}
	}
	if q := p.ListPlugins()["QueueSort"]; !slices.Equal(q, []string{"PrioritySort"}) {
		t.Errorf("queue sort %v", q)
	}
	if q := p.ListPlugins()["PreEnqueue"]; !slices.Equal(q, []string{"SchedulingGates", "DynamicResources"}) {
		t.Errorf("PreEnqueue %v", q)
	}
	res, err := s.Schedule(context.Background(), makePod("p"))
	if err != nil || res.Node != "node-00000" || !slices.Equal(res.NotEvaluated, notEvaluated) {
		t.Errorf("result %+v err %v", res, err)
	}
}

// Pods pick their profile by spec.schedulerName, as in upstream
// TestSchedulerMultipleProfilesScheduling.
func TestMultipleProfiles(t *testing.T) {
	snap, err := cluster.NewSnapshot(makeNodes("machine1", "machine2", "machine3"), nil)
	if err != nil {
		t.Fatal(err)
	}
	onlyMatch := func(name string) framework.ProfileConfig {
		return framework.ProfileConfig{SchedulerName: name, Disabled: []string{"*"},
			Plugins: []framework.PluginRef{{Name: queuesort.Name}, {Name: "MatchFilter"}}}
	}
	reg := WithPlugin("MatchFilter", func(any, framework.Handle) (framework.Plugin, error) { return matchFilter{}, nil })
	s, err := New(snap, reg, WithProfiles(onlyMatch("match-1"), framework.ProfileConfig{SchedulerName: "default"}))
	if err != nil {
		t.Fatal(err)
	}
	p := makePod("machine2")
	p.Spec.SchedulerName = "match-1"
	if res, err := s.Schedule(context.Background(), p); err != nil || res.Node != "machine2" || res.Profile != "match-1" {
		t.Errorf("result %+v err %v", res, err)
	}

	for _, tt := range []struct {
		name string
		cfgs []framework.ProfileConfig
		want string
	}{
		{"duplicate", []framework.ProfileConfig{onlyMatch("a"), onlyMatch("a")}, `duplicate profile with scheduler name "a"`},
		{"queue sorts differ", []framework.ProfileConfig{onlyMatch("a"), {SchedulerName: "b", Disabled: []string{"*"},
			Plugins: []framework.PluginRef{{Name: "OtherSort"}}}}, `different queue sort plugins for profile "b"`},
		{"unknown plugin", []framework.ProfileConfig{{SchedulerName: "c", Plugins: []framework.PluginRef{{Name: "Nope"}}}},
			`creating profile for scheduler name c: plugin "Nope" is not in the registry`},
	} {
		other := WithPlugin("OtherSort", func(any, framework.Handle) (framework.Plugin, error) { return otherSort{}, nil })
		if _, err := New(snap, reg, other, WithProfiles(tt.cfgs...)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := New(snap, WithPercentageOfNodesToScore(101)); err == nil {
		t.Error("percentage 101 accepted")
	}
	if _, err := New(nil); err == nil {
		t.Error("nil snapshot accepted")
	}
}

type otherSort struct{ queuesort.PrioritySort }

func (otherSort) Name() string { return "OtherSort" }

// The brief's message, with the default profile's real plugins (v1.37.2
// words the taint reason "node(s) had untolerated taint(s)").
func TestDefaultProfileFitError(t *testing.T) {
	nodes := benchNodes(5)
	for _, n := range nodes[:2] {
		n.Status.Allocatable = api.ResourceList{api.ResourceCPU: quantity.MustParse("100m"), api.ResourceMemory: quantity.MustParse("4Gi"), api.ResourcePods: quantity.MustParse("10")}
	}
	for _, n := range nodes[2:] {
		n.Spec.Taints = []api.Taint{{Key: "k", Value: "v", Effect: api.TaintEffectNoSchedule}}
	}
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	pod := benchPods(3)[2] // 1 cpu
	_, err = s.Schedule(context.Background(), pod)
	var fe *FitError
	if !errors.As(err, &fe) || err.Error() != "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint(s). preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling." {
		t.Fatalf("err = %v", err)
	}
	if got := fe.Diagnosis.SortedUnschedulablePlugins(); !slices.Equal(got, []string{"NodeResourcesFit", "TaintToleration"}) {
		t.Errorf("UnschedulablePlugins = %v", got)
	}
	if st := fe.Diagnosis.NodeToStatus.Get("node-00000"); st.Plugin() != "NodeResourcesFit" || st.Code() != framework.UnschedulableAndUnresolvable { // request above allocatable
		t.Errorf("node-00000: %v %v %q", st, st.Code(), st.Plugin())
	}

	// spec.nodeName: only that node is considered.
	pinned := benchPods(1)[0]
	pinned.Spec.NodeName = "node-00003"
	pinned.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists}}
	for range 5 {
		res, err := s.Schedule(context.Background(), pinned)
		if err != nil || res.Node != "node-00003" {
			t.Fatalf("pinned: %+v %v", res, err)
		}
	}
}
