package framework_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

func set(names ...string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, n := range names {
		m[n] = struct{}{}
	}
	return m
}

func plugins(ps ...*testPlugin) []framework.Plugin {
	out := make([]framework.Plugin, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// Ported from upstream framework_test.go TestRunPreFilterPlugins.
func TestRunPreFilterPlugins(t *testing.T) {
	tests := []struct {
		name        string
		plugins     []*testPlugin
		wantResult  *framework.PreFilterResult
		wantSkipped map[string]struct{}
		wantCode    framework.Code
		wantMsg     string
	}{
		{name: "all success", plugins: []*testPlugin{{name: "success1"}, {name: "success2"}}, wantCode: framework.Success},
		{
			name:     "success then error",
			plugins:  []*testPlugin{{name: "success"}, {name: "error", inj: injected{PreFilterStatus: framework.Error}}},
			wantCode: framework.Error,
			wantMsg:  `running PreFilter plugin "error": injected status`,
		},
		{
			name:        "skip then error",
			plugins:     []*testPlugin{{name: "skip", inj: injected{PreFilterStatus: framework.Skip}}, {name: "error", inj: injected{PreFilterStatus: framework.Error}}},
			wantSkipped: set("skip"),
			wantCode:    framework.Error,
		},
		{
			name: "all skip",
			plugins: []*testPlugin{
				{name: "skip1", inj: injected{PreFilterStatus: framework.Skip}},
				{name: "skip2", inj: injected{PreFilterStatus: framework.Skip}},
				{name: "skip3", inj: injected{PreFilterStatus: framework.Skip}},
			},
			wantSkipped: set("skip1", "skip2", "skip3"),
		},
		{
			name: "some skip",
			plugins: []*testPlugin{
				{name: "skip1", inj: injected{PreFilterStatus: framework.Skip}},
				{name: "success1"},
				{name: "skip2", inj: injected{PreFilterStatus: framework.Skip}},
				{name: "success2"},
			},
			wantSkipped: set("skip1", "skip2"),
		},
		{
			name:        "Unschedulable lets the next plugin run",
			plugins:     []*testPlugin{{name: "unschedulable", inj: injected{PreFilterStatus: framework.Unschedulable}}, {name: "skip", inj: injected{PreFilterStatus: framework.Skip}}},
			wantSkipped: set("skip"),
			wantCode:    framework.Unschedulable,
		},
		{
			name:     "UnschedulableAndUnresolvable stops",
			plugins:  []*testPlugin{{name: "unresolvable", inj: injected{PreFilterStatus: framework.UnschedulableAndUnresolvable}}, {name: "skip", inj: injected{PreFilterStatus: framework.Skip}}},
			wantCode: framework.UnschedulableAndUnresolvable,
		},
		{
			name: "result with no node stops",
			plugins: []*testPlugin{
				{name: "reject-all-nodes", inj: injected{PreFilterResult: &framework.PreFilterResult{NodeNames: set()}}},
				{name: "skip", inj: injected{PreFilterStatus: framework.Skip}},
			},
			wantResult: &framework.PreFilterResult{NodeNames: set()},
			wantCode:   framework.UnschedulableAndUnresolvable,
			wantMsg:    "node(s) didn't satisfy plugin reject-all-nodes",
		},
		{
			name: "disjoint results",
			plugins: []*testPlugin{
				{name: "b", inj: injected{PreFilterResult: &framework.PreFilterResult{NodeNames: set("n1")}}},
				{name: "a", inj: injected{PreFilterResult: &framework.PreFilterResult{NodeNames: set("n2")}}},
			},
			wantResult: &framework.PreFilterResult{NodeNames: set()},
			wantCode:   framework.UnschedulableAndUnresolvable,
			wantMsg:    "node(s) didn't satisfy plugin(s) [a b] simultaneously",
		},
		{
			name: "results intersect",
			plugins: []*testPlugin{
				{name: "b", inj: injected{PreFilterResult: &framework.PreFilterResult{NodeNames: set("n1", "n2")}}},
				{name: "all"},
				{name: "a", inj: injected{PreFilterResult: &framework.PreFilterResult{NodeNames: set("n2", "n3")}}},
			},
			wantResult: &framework.PreFilterResult{NodeNames: set("n2")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProfile(plugins(tt.plugins...)...)
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			res, st, _ := p.RunPreFilterPlugins(context.Background(), state, &api.Pod{}, nil)
			if !reflect.DeepEqual(res, tt.wantResult) {
				t.Errorf("result = %+v, want %+v", res, tt.wantResult)
			}
			if st.Code() != tt.wantCode {
				t.Errorf("code = %v (%v), want %v", st.Code(), st, tt.wantCode)
			}
			if tt.wantMsg != "" && st.Message() != tt.wantMsg {
				t.Errorf("message = %q, want %q", st.Message(), tt.wantMsg)
			}
			if !reflect.DeepEqual(state.SkipFilterPlugins, tt.wantSkipped) {
				t.Errorf("skipped = %v, want %v", state.SkipFilterPlugins, tt.wantSkipped)
			}
		})
	}
}

func TestRunPreFilterExtensions(t *testing.T) {
	for _, tt := range []struct {
		name    string
		plugins []*testPlugin
		skipped map[string]struct{}
		want    framework.Code
	}{
		{name: "success", plugins: []*testPlugin{{name: "s1"}, {name: "s2"}}},
		{name: "error", plugins: []*testPlugin{{name: "s1"}, {name: "e", inj: injected{AddPodStatus: framework.Error, RemovePodStatus: framework.Error}}}, want: framework.Error},
		{name: "skipped", plugins: []*testPlugin{{name: "s1"}, {name: "e", inj: injected{AddPodStatus: framework.Error, RemovePodStatus: framework.Error}}}, skipped: set("e")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProfile(plugins(tt.plugins...)...)
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			state.SkipFilterPlugins = tt.skipped
			ni := cluster.NewNodeInfo(makeNode("n"))
			if got := p.RunPreFilterExtensionAddPod(context.Background(), state, &api.Pod{}, nil, ni).Code(); got != tt.want {
				t.Errorf("AddPod code = %v, want %v", got, tt.want)
			}
			if got := p.RunPreFilterExtensionRemovePod(context.Background(), state, &api.Pod{}, nil, ni).Code(); got != tt.want {
				t.Errorf("RemovePod code = %v, want %v", got, tt.want)
			}
		})
	}
}

// Ported from upstream framework_test.go TestFilterPlugins.
func TestRunFilterPlugins(t *testing.T) {
	errStatus := func(pl string) *framework.Status {
		return framework.AsStatus(fmt.Errorf("running %q filter plugin: %w", pl, errInjected)).WithPlugin(pl)
	}
	tests := []struct {
		name    string
		plugins []*testPlugin
		skipped map[string]struct{}
		want    *framework.Status
	}{
		{name: "SuccessFilter", plugins: []*testPlugin{{name: "TestPlugin"}}},
		{name: "ErrorFilter", plugins: []*testPlugin{{name: "TestPlugin", inj: injected{FilterStatus: framework.Error}}}, want: errStatus("TestPlugin")},
		{name: "UnschedulableFilter", plugins: []*testPlugin{{name: "TestPlugin", inj: injected{FilterStatus: framework.Unschedulable}}},
			want: framework.NewStatus(framework.Unschedulable, injectedReason).WithPlugin("TestPlugin")},
		{name: "UnschedulableAndUnresolvableFilter", plugins: []*testPlugin{{name: "TestPlugin", inj: injected{FilterStatus: framework.UnschedulableAndUnresolvable}}},
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, injectedReason).WithPlugin("TestPlugin")},
		{name: "ErrorAndErrorFilters", plugins: []*testPlugin{{name: "TestPlugin1", inj: injected{FilterStatus: framework.Error}}, {name: "TestPlugin2", inj: injected{FilterStatus: framework.Error}}},
			want: errStatus("TestPlugin1")},
		{name: "UnschedulableAndUnschedulableFilters", plugins: []*testPlugin{{name: "TestPlugin1", inj: injected{FilterStatus: framework.Unschedulable}}, {name: "TestPlugin2", inj: injected{FilterStatus: framework.Unschedulable}}},
			want: framework.NewStatus(framework.Unschedulable, injectedReason).WithPlugin("TestPlugin1")},
		{name: "UnschedulableAndUnschedulableAndUnresolvableFilters", plugins: []*testPlugin{{name: "TestPlugin1", inj: injected{FilterStatus: framework.UnschedulableAndUnresolvable}}, {name: "TestPlugin2", inj: injected{FilterStatus: framework.Unschedulable}}},
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, injectedReason).WithPlugin("TestPlugin1")},
		{name: "SuccessAndSuccessFilters", plugins: []*testPlugin{{name: "TestPlugin1"}, {name: "TestPlugin2"}}},
		{name: "SuccessAndSkipFilters", plugins: []*testPlugin{{name: "TestPlugin1"}, {name: "TestPlugin2", inj: injected{FilterStatus: framework.Error}}}, skipped: set("TestPlugin2")},
		{name: "ErrorAndSuccessFilters", plugins: []*testPlugin{{name: "TestPlugin1", inj: injected{FilterStatus: framework.Error}}, {name: "TestPlugin2"}}, want: errStatus("TestPlugin1")},
		{name: "SuccessAndErrorFilters", plugins: []*testPlugin{{name: "TestPlugin1"}, {name: "TestPlugin2", inj: injected{FilterStatus: framework.Error}}}, want: errStatus("TestPlugin2")},
		{name: "SuccessAndUnschedulableFilters", plugins: []*testPlugin{{name: "TestPlugin1"}, {name: "TestPlugin2", inj: injected{FilterStatus: framework.Unschedulable}}},
			want: framework.NewStatus(framework.Unschedulable, injectedReason).WithPlugin("TestPlugin2")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProfile(plugins(tt.plugins...)...)
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			state.SkipFilterPlugins = tt.skipped
			got := p.RunFilterPlugins(context.Background(), state, &api.Pod{}, cluster.NewNodeInfo(makeNode("n")))
			if !got.Equal(tt.want) {
				t.Errorf("status = %v (%v, plugin %q), want %v (%v, plugin %q)", got, got.Code(), got.Plugin(), tt.want, tt.want.Code(), tt.want.Plugin())
			}
			if tt.want.IsError() && !errors.Is(got.AsError(), errInjected) {
				t.Errorf("error %v does not wrap the plugin's", got.AsError())
			}
		})
	}
}

// sharedReject returns one package-level status, as fast plugins do.
var sharedStatus = framework.NewStatus(framework.Unschedulable, "shared reason")

type sharedReject struct{}

func (sharedReject) Name() string { return "Shared" }
func (sharedReject) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	return sharedStatus
}

func TestRunFilterPluginsDoesNotMutateSharedStatus(t *testing.T) {
	p, err := newProfile(sharedReject{})
	if err != nil {
		t.Fatal(err)
	}
	got := p.RunFilterPlugins(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(makeNode("n")))
	if got.Plugin() != "Shared" || got.Message() != "shared reason" {
		t.Errorf("got %v from plugin %q", got, got.Plugin())
	}
	if sharedStatus.Plugin() != "" {
		t.Errorf("the plugin's status was modified: plugin %q", sharedStatus.Plugin())
	}
}

// Ported from upstream framework_test.go TestPostFilterPlugins.
func TestRunPostFilterPlugins(t *testing.T) {
	tests := []struct {
		name     string
		plugins  []*testPlugin
		want     *framework.Status
		wantNode string
	}{
		{
			name:     "a single plugin makes a Pod schedulable",
			plugins:  []*testPlugin{{name: "TestPlugin", inj: injected{PostFilterStatus: framework.Success, PostFilterNominated: "n1"}}},
			wantNode: "n1",
		},
		{
			name: "plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod schedulable",
			plugins: []*testPlugin{
				{name: "TestPlugin1", inj: injected{PostFilterStatus: framework.Unschedulable}},
				{name: "TestPlugin2", inj: injected{PostFilterStatus: framework.Success}},
			},
		},
		{
			name: "plugin1 makes a Pod schedulable, followed by plugin2 which cannot make the Pod schedulable",
			plugins: []*testPlugin{
				{name: "TestPlugin1", inj: injected{PostFilterStatus: framework.Success}},
				{name: "TestPlugin2", inj: injected{PostFilterStatus: framework.Unschedulable}},
			},
		},
		{
			name: "plugin1 failed to make a Pod schedulable, followed by plugin2 which makes the Pod schedulable",
			plugins: []*testPlugin{
				{name: "TestPlugin1", inj: injected{PostFilterStatus: framework.Unschedulable}},
				{name: "TestPlugin2", inj: injected{PostFilterStatus: framework.UnschedulableAndUnresolvable}},
			},
			want: framework.NewStatus(framework.UnschedulableAndUnresolvable, "injected postfilter status").WithPlugin("TestPlugin2"),
		},
		{
			name: "both plugins failed to make a Pod schedulable",
			plugins: []*testPlugin{
				{name: "TestPlugin1", inj: injected{PostFilterStatus: framework.Unschedulable}},
				{name: "TestPlugin2", inj: injected{PostFilterStatus: framework.Unschedulable}},
			},
			want: framework.NewStatus(framework.Unschedulable, "injected postfilter status", "injected postfilter status").WithPlugin("TestPlugin1"),
		},
		{
			name: "an error stops",
			plugins: []*testPlugin{
				{name: "TestPlugin1", inj: injected{PostFilterStatus: framework.Error}},
				{name: "TestPlugin2", inj: injected{PostFilterStatus: framework.Success}},
			},
			want: framework.AsStatus(errInjected).WithPlugin("TestPlugin1"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProfile(plugins(tt.plugins...)...)
			if err != nil {
				t.Fatal(err)
			}
			r, got := p.RunPostFilterPlugins(context.Background(), framework.NewCycleState(), &api.Pod{}, framework.NewDefaultNodeToStatus())
			if !got.Equal(tt.want) {
				t.Errorf("status = %v (%v, %q), want %v (%v, %q)", got, got.Code(), got.Plugin(), tt.want, tt.want.Code(), tt.want.Plugin())
			}
			if tt.wantNode != "" && (r == nil || r.NominatedNodeName != tt.wantNode) {
				t.Errorf("result = %+v, want node %q", r, tt.wantNode)
			}
		})
	}
}

func TestRunPreScorePlugins(t *testing.T) {
	for _, tt := range []struct {
		name        string
		plugins     []*testPlugin
		wantSkipped map[string]struct{}
		wantCode    framework.Code
		wantMsg     string
	}{
		{name: "all success", plugins: []*testPlugin{{name: "a"}, {name: "b"}}},
		{name: "skip", plugins: []*testPlugin{{name: "a", inj: injected{PreScoreStatus: framework.Skip}}, {name: "b"}}, wantSkipped: set("a")},
		{
			name: "error", plugins: []*testPlugin{{name: "a", inj: injected{PreScoreStatus: framework.Skip}}, {name: "b", inj: injected{PreScoreStatus: framework.Error}}},
			wantSkipped: set("a"), wantCode: framework.Error, wantMsg: `running PreScore plugin "b": injected prescore status`,
		},
		{
			name: "unschedulable is an error", plugins: []*testPlugin{{name: "a", inj: injected{PreScoreStatus: framework.Unschedulable}}},
			wantCode: framework.Error, wantMsg: `running PreScore plugin "a": injected prescore`,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := newProfile(plugins(tt.plugins...)...)
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			st := p.RunPreScorePlugins(context.Background(), state, &api.Pod{}, nil)
			if st.Code() != tt.wantCode || st.Message() != tt.wantMsg {
				t.Errorf("status = %v %q, want %v %q", st.Code(), st.Message(), tt.wantCode, tt.wantMsg)
			}
			if !reflect.DeepEqual(state.SkipScorePlugins, tt.wantSkipped) {
				t.Errorf("skipped = %v, want %v", state.SkipScorePlugins, tt.wantSkipped)
			}
		})
	}
}

// scorePl scores nodes by a per-node table and normalises optionally.
type scorePl struct {
	name   string
	scores map[string]int64
	norm   func(framework.NodeScoreList)
}

func (s *scorePl) Name() string { return s.name }
func (s *scorePl) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	return s.scores[ni.Node().Name], nil
}
func (s *scorePl) ScoreExtensions() framework.ScoreExtensions {
	if s.norm == nil {
		return nil
	}
	return s
}
func (s *scorePl) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, l framework.NodeScoreList) *framework.Status {
	s.norm(l)
	return nil
}

// Ported in spirit from upstream framework_test.go TestRunScorePlugins.
func TestRunScorePlugins(t *testing.T) {
	nodes := nodeInfos("node1", "node2")
	double := func(l framework.NodeScoreList) {
		for i := range l {
			l[i].Score *= 2
		}
	}
	tests := []struct {
		name    string
		plugins []framework.Plugin
		weights map[string]int32
		skipped map[string]struct{}
		want    []framework.NodePluginScores
		wantErr string
	}{
		{
			name: "no score plugins",
			want: []framework.NodePluginScores{
				{Name: "node1"},
				{Name: "node2"},
			},
		},
		{
			name:    "single plugin, weight 3",
			plugins: []framework.Plugin{&scorePl{name: "A", scores: map[string]int64{"node1": 1, "node2": 2}}},
			weights: map[string]int32{"A": 3},
			want: []framework.NodePluginScores{
				{Name: "node1", RawScores: []framework.PluginScore{{"A", 1}}, NormalizedScores: []framework.PluginScore{{"A", 1}}, Scores: []framework.PluginScore{{"A", 3}}, TotalScore: 3},
				{Name: "node2", RawScores: []framework.PluginScore{{"A", 2}}, NormalizedScores: []framework.PluginScore{{"A", 2}}, Scores: []framework.PluginScore{{"A", 6}}, TotalScore: 6},
			},
		},
		{
			name: "two plugins, one normalising, one skipped",
			plugins: []framework.Plugin{
				&scorePl{name: "A", scores: map[string]int64{"node1": 10, "node2": 20}, norm: double},
				&scorePl{name: "B", scores: map[string]int64{"node1": 5, "node2": 7}},
				&scorePl{name: "C", scores: map[string]int64{"node1": 1000}},
			},
			weights: map[string]int32{"A": 1, "B": 2, "C": 1},
			skipped: set("C"),
			want: []framework.NodePluginScores{
				{Name: "node1", RawScores: []framework.PluginScore{{"A", 10}, {"B", 5}}, NormalizedScores: []framework.PluginScore{{"A", 20}, {"B", 5}}, Scores: []framework.PluginScore{{"A", 20}, {"B", 10}}, TotalScore: 30},
				{Name: "node2", RawScores: []framework.PluginScore{{"A", 20}, {"B", 7}}, NormalizedScores: []framework.PluginScore{{"A", 40}, {"B", 7}}, Scores: []framework.PluginScore{{"A", 40}, {"B", 14}}, TotalScore: 54},
			},
		},
		{
			name:    "score above MaxNodeScore",
			plugins: []framework.Plugin{&scorePl{name: "A", scores: map[string]int64{"node1": 101}}},
			wantErr: `applying score defaultWeights on Score plugins: plugin "A" returns an invalid score 101, it should in the range of [0, 100] after normalizing`,
		},
		{
			name:    "score below MinNodeScore after normalising",
			plugins: []framework.Plugin{&scorePl{name: "A", scores: map[string]int64{"node2": -3}, norm: double}},
			wantErr: `applying score defaultWeights on Score plugins: plugin "A" returns an invalid score -6, it should in the range of [0, 100] after normalizing`,
		},
		{
			name:    "score error",
			plugins: []framework.Plugin{&testPlugin{name: "T", inj: injected{ScoreStatus: framework.Error}}},
			wantErr: `running Score plugins: plugin "T" failed with: injected status`,
		},
		{
			name:    "normalize error",
			plugins: []framework.Plugin{&testPlugin{name: "T", inj: injected{NormalizeStatus: framework.Error}}},
			wantErr: `running Normalize on Score plugins: plugin "T" failed with: injected status`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := framework.Registry{"QueueSort": factoryOf(queueSort{})}
			cfg := framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{{Name: "QueueSort"}}}
			for _, p := range tt.plugins {
				r[p.Name()] = factoryOf(p)
				cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: p.Name(), Weight: tt.weights[p.Name()]})
			}
			p, err := framework.NewProfile(cfg, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			state.SkipScorePlugins = tt.skipped
			got, st := p.RunScorePlugins(context.Background(), state, &api.Pod{}, nodes)
			if tt.wantErr != "" {
				if st.Code() != framework.Error || st.Message() != tt.wantErr {
					t.Fatalf("status = %v %q, want Error %q", st.Code(), st.Message(), tt.wantErr)
				}
				return
			}
			if !st.IsSuccess() {
				t.Fatal(st)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// Ported from upstream schedule_one_test.go Test_SelectHost: the order of
// the best node first, ties by Randomizer.
func TestSortNodeScores(t *testing.T) {
	tests := []struct {
		name string
		list []framework.NodePluginScores
		want []string
	}{
		{
			name: "unique properly ordered scores",
			list: []framework.NodePluginScores{{Name: "node1", TotalScore: 1}, {Name: "node2", TotalScore: 2}},
			want: []string{"node2", "node1"},
		},
		{
			name: "equal scores",
			list: []framework.NodePluginScores{
				{Name: "node2.2", TotalScore: 2, Randomizer: 2},
				{Name: "node2.1", TotalScore: 2, Randomizer: 1},
				{Name: "node2.3", TotalScore: 2, Randomizer: 3},
			},
			want: []string{"node2.3", "node2.2", "node2.1"},
		},
		{
			name: "out of order scores",
			list: []framework.NodePluginScores{
				{Name: "node3.1", TotalScore: 3, Randomizer: 1},
				{Name: "node2.1", TotalScore: 2},
				{Name: "node1.1", TotalScore: 1},
				{Name: "node3.2", TotalScore: 3, Randomizer: 2},
			},
			want: []string{"node3.2", "node3.1", "node2.1", "node1.1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			best := framework.BestNode(tt.list)
			if tt.list[best].Name != tt.want[0] {
				t.Errorf("BestNode = %s, want %s", tt.list[best].Name, tt.want[0])
			}
			l := slices.Clone(tt.list)
			framework.SortNodeScores(l)
			var got []string
			for _, n := range l {
				got = append(got, n.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("order = %v, want %v", got, tt.want)
			}
		})
	}
}

// pass is a Filter and Score plugin that allocates nothing.
type pass struct{}

func (pass) Name() string { return "Pass" }
func (pass) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	return nil
}
func (pass) Score(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) (int64, *framework.Status) {
	return 50, nil
}
func (pass) ScoreExtensions() framework.ScoreExtensions { return nil }

func TestFilterAndScoreAllocations(t *testing.T) {
	p, err := newProfile(pass{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	state := framework.NewCycleState()
	pod := &api.Pod{}
	ni := cluster.NewNodeInfo(makeNode("n"))
	if a := testing.AllocsPerRun(100, func() { p.RunFilterPlugins(ctx, state, pod, ni) }); a != 0 {
		t.Errorf("RunFilterPlugins allocates %v times per node", a)
	}
}

func TestFilterWithNominatedPods(t *testing.T) {
	// A filter that rejects a node holding more than one pod.
	p, err := newProfile(&maxPods{max: 1})
	if err != nil {
		t.Fatal(err)
	}
	prio := func(v int32) *int32 { return &v }
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", UID: "p"}, Spec: api.PodSpec{Priority: prio(10)}}
	low := cluster.NewPodInfo(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "low", UID: "low"}, Spec: api.PodSpec{Priority: prio(1)}})
	high := cluster.NewPodInfo(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "high", UID: "high"}, Spec: api.PodSpec{Priority: prio(10)}})
	self := cluster.NewPodInfo(pod)
	ni := cluster.NewNodeInfo(makeNode("n"))
	ctx := context.Background()
	state := framework.NewCycleState()
	if st := p.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, []*cluster.PodInfo{low, self}); !st.IsSuccess() {
		t.Errorf("lower priority and the pod itself are not counted: %v", st)
	}
	if st := p.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, []*cluster.PodInfo{high}); st.IsSuccess() {
		t.Errorf("equal priority nominated pod not counted")
	}
	if ni.NumPods() != 0 {
		t.Errorf("node info modified")
	}
}

type maxPods struct{ max int }

func (m *maxPods) Name() string { return "MaxPods" }
func (m *maxPods) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	if ni.NumPods() >= m.max {
		return framework.NewStatus(framework.Unschedulable, "too many pods")
	}
	return nil
}

func TestStatusMessagesMentionPlugin(t *testing.T) {
	p, _ := newProfile(&testPlugin{name: "Boom", inj: injected{FilterStatus: framework.Error}})
	st := p.RunFilterPlugins(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(makeNode("n")))
	if !strings.Contains(st.Message(), `"Boom"`) || st.Plugin() != "Boom" {
		t.Errorf("status %q plugin %q", st.Message(), st.Plugin())
	}
}

// A Filter plugin whose PreFilter returned Skip does not run, whether the
// skip set comes from RunPreFilterPlugins, is replaced afterwards, or is
// carried into a clone of the state.
func TestFilterSkipAfterPreFilter(t *testing.T) {
	skipper := &testPlugin{name: "Skipper", inj: injected{PreFilterStatus: framework.Skip, FilterStatus: framework.Unschedulable}}
	other := &testPlugin{name: "Other"}
	p, err := newProfile(skipper, other)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ni := cluster.NewNodeInfo(makeNode("n"))
	state := framework.NewCycleState()
	if _, st, _ := p.RunPreFilterPlugins(ctx, state, &api.Pod{}, nil); !st.IsSuccess() {
		t.Fatal(st)
	}
	if st := p.RunFilterPlugins(ctx, state, &api.Pod{}, ni); !st.IsSuccess() {
		t.Errorf("skipped filter ran: %v", st)
	}
	if st := p.RunFilterPlugins(ctx, state.Clone(), &api.Pod{}, ni); !st.IsSuccess() {
		t.Errorf("skipped filter ran on a clone: %v", st)
	}
	state.SkipFilterPlugins = set("Other")
	if st := p.RunFilterPlugins(ctx, state, &api.Pod{}, ni); st.Plugin() != "Skipper" {
		t.Errorf("replaced skip set ignored: %v", st)
	}
	state.SkipFilterPlugins = nil
	if st := p.RunFilterPlugins(ctx, state, &api.Pod{}, ni); st.Plugin() != "Skipper" {
		t.Errorf("cleared skip set ignored: %v", st)
	}
}

// A reset CycleState holds nothing of the cycle before: no values, no
// skip sets, and Filter runs the plugins the earlier PreFilter skipped
// unless this cycle's PreFilter skips them too.
func TestCycleStateReset(t *testing.T) {
	skipper := &testPlugin{name: "Skipper", inj: injected{PreFilterStatus: framework.Skip, FilterStatus: framework.Unschedulable, PreScoreStatus: framework.Skip}}
	other := &testPlugin{name: "Other"}
	skipping, err := newProfile(skipper, other)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := newProfile(&testPlugin{name: "Skipper", inj: injected{FilterStatus: framework.Unschedulable}}, &testPlugin{name: "Other"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ni := cluster.NewNodeInfo(makeNode("n"))
	state := framework.NewCycleState()
	state.Write("k", nil)
	if _, st, _ := skipping.RunPreFilterPlugins(ctx, state, &api.Pod{}, nil); !st.IsSuccess() {
		t.Fatal(st)
	}
	if st := skipping.RunPreScorePlugins(ctx, state, &api.Pod{}, nil); !st.IsSuccess() {
		t.Fatal(st)
	}
	oldFilter, oldScore := state.SkipFilterPlugins, state.SkipScorePlugins
	state.Reset()
	if _, ok := state.Read("k"); ok {
		t.Error("value kept across Reset")
	}
	if state.SkipFilterPlugins != nil || state.SkipScorePlugins != nil || len(oldFilter) != 0 || len(oldScore) != 0 {
		t.Errorf("skip sets after Reset: %v %v (old %v %v)", state.SkipFilterPlugins, state.SkipScorePlugins, oldFilter, oldScore)
	}
	if _, st, _ := plain.RunPreFilterPlugins(ctx, state, &api.Pod{}, nil); !st.IsSuccess() {
		t.Fatal(st)
	}
	if st := plain.RunFilterPlugins(ctx, state, &api.Pod{}, ni); st.Plugin() != "Skipper" {
		t.Errorf("filter skipped after Reset: %v", st)
	}
	// The next cycle that skips fills the spare set again.
	state.Reset()
	if _, st, _ := skipping.RunPreFilterPlugins(ctx, state, &api.Pod{}, nil); !st.IsSuccess() {
		t.Fatal(st)
	}
	if !reflect.DeepEqual(state.SkipFilterPlugins, set("Skipper")) {
		t.Errorf("skip set %v, want Skipper", state.SkipFilterPlugins)
	}
	if st := skipping.RunFilterPlugins(ctx, state, &api.Pod{}, ni); !st.IsSuccess() {
		t.Errorf("skipped filter ran: %v", st)
	}
}
