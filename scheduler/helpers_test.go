package scheduler

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/queuesort"
)

// Fakes after upstream's pkg/scheduler/testing/framework.

const errReasonFake = "Nodes failed the fake plugin"

type trueFilter struct{ calls atomic.Int32 }

func (*trueFilter) Name() string { return "TrueFilter" }
func (p *trueFilter) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	p.calls.Add(1)
	return nil
}

type falseFilter struct{}

func (falseFilter) Name() string { return "FalseFilter" }
func (falseFilter) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	return framework.NewStatus(framework.Unschedulable, errReasonFake)
}

type matchFilter struct{}

func (matchFilter) Name() string { return "MatchFilter" }
func (matchFilter) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	if pod.Name == ni.Node().Name {
		return nil
	}
	return framework.NewStatus(framework.Unschedulable, errReasonFake)
}

type noPodsFilter struct{}

func (noPodsFilter) Name() string { return "NoPodsFilter" }
func (noPodsFilter) Filter(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	if len(ni.Pods) == 0 {
		return nil
	}
	return framework.NewStatus(framework.Unschedulable, errReasonFake)
}

// fakeFilter fails the nodes of a map with the given code.
type fakeFilter struct {
	name   string
	failed map[string]framework.Code
	calls  atomic.Int32
}

func (p *fakeFilter) Name() string {
	if p.name == "" {
		return "FakeFilter"
	}
	return p.name
}
func (p *fakeFilter) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	p.calls.Add(1)
	if c, ok := p.failed[ni.Node().Name]; ok {
		return framework.NewStatus(c, fmt.Sprintf("injecting failure for pod %v", pod.Name))
	}
	return nil
}

type fakePreFilter struct {
	name   string
	result *framework.PreFilterResult
	status *framework.Status
}

func (p *fakePreFilter) Name() string { return p.name }
func (p *fakePreFilter) PreFilter(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return p.result, p.status
}
func (p *fakePreFilter) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// skipPreFilterErrFilter skips its Filter at PreFilter; its Filter fails
// every node with an error if it runs.
type skipPreFilterErrFilter struct{}

func (skipPreFilterErrFilter) Name() string { return "FakeFilter2" }
func (skipPreFilterErrFilter) PreFilter(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return nil, framework.NewStatus(framework.Skip)
}
func (skipPreFilterErrFilter) PreFilterExtensions() framework.PreFilterExtensions { return nil }
func (skipPreFilterErrFilter) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	return framework.NewStatus(framework.Error, "must not run")
}

type equalPrioritizer struct{}

func (equalPrioritizer) Name() string { return "EqualPrioritizerPlugin" }
func (equalPrioritizer) Score(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) (int64, *framework.Status) {
	return 1, nil
}
func (equalPrioritizer) ScoreExtensions() framework.ScoreExtensions { return nil }

type numericMap struct{}

func (numericMap) Name() string { return "NumericMap" }
func (numericMap) Score(_ context.Context, _ *framework.CycleState, _ *api.Pod, ni *cluster.NodeInfo) (int64, *framework.Status) {
	s, err := strconv.Atoi(ni.Node().Name)
	if err != nil {
		return 0, framework.NewStatus(framework.Error, fmt.Sprintf("Error converting nodename to int: %+v", ni.Node().Name))
	}
	return int64(s), nil
}
func (numericMap) ScoreExtensions() framework.ScoreExtensions { return nil }

type reverseNumericMap struct{ numericMap }

func (reverseNumericMap) Name() string                                 { return "ReverseNumericMap" }
func (p reverseNumericMap) ScoreExtensions() framework.ScoreExtensions { return p }
func (reverseNumericMap) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	maxS, minS := 0.0, math.MaxFloat64
	for _, s := range scores {
		maxS = math.Max(maxS, float64(s.Score))
		minS = math.Min(minS, float64(s.Score))
	}
	for i, s := range scores {
		scores[i].Score = int64(maxS + minS - float64(s.Score))
	}
	return nil
}

var errPrioritize = fmt.Errorf("priority map encounters an error")

type falseMap struct{}

func (falseMap) Name() string { return "FalseMap" }
func (falseMap) Score(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) (int64, *framework.Status) {
	return 0, framework.AsStatus(errPrioritize)
}
func (falseMap) ScoreExtensions() framework.ScoreExtensions { return nil }

type trueMap struct{}

func (trueMap) Name() string { return "TrueMap" }
func (trueMap) Score(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) (int64, *framework.Status) {
	return 1, nil
}
func (trueMap) ScoreExtensions() framework.ScoreExtensions { return nil }

// skipScore skips at PreScore; its Score errs if called.
type skipScore struct{}

func (skipScore) Name() string { return "FakePreScoreAndScorePlugin" }
func (skipScore) PreScore(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) *framework.Status {
	return framework.NewStatus(framework.Skip, "fake skip")
}
func (skipScore) Score(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) (int64, *framework.Status) {
	return 0, framework.NewStatus(framework.Error, "this score function shouldn't be executed because this plugin returned Skip in the PreScore")
}
func (skipScore) ScoreExtensions() framework.ScoreExtensions { return nil }

// weighted is a plugin with the weight it is enabled with.
type weighted struct {
	framework.Plugin
	weight int32
}

// testScheduler builds a scheduler over nodes (and pods bound to them)
// whose only profile has exactly plugins (plus PrioritySort).
func testScheduler(t interface {
	Helper()
	Fatal(...any)
}, nodes []*api.Node, pods []*api.Pod, plugins []weighted, opts ...Option) *Scheduler {
	t.Helper()
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	cfg := framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{{Name: queuesort.Name}}}
	for _, p := range plugins {
		pl := p.Plugin
		opts = append(opts, WithPlugin(pl.Name(), func(any, framework.Handle) (framework.Plugin, error) { return pl, nil }))
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: pl.Name(), Weight: p.weight})
	}
	s, err := New(snap, append([]Option{WithProfiles(cfg)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func makeNodes(names ...string) []*api.Node {
	out := make([]*api.Node, len(names))
	for i, n := range names {
		out[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/hostname": n}}}
	}
	return out
}

func makePod(name string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: name}}
}

func ptr[T any](v T) *T { return &v }

func w(p framework.Plugin) weighted { return weighted{Plugin: p, weight: 1} }
