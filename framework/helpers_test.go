package framework_test

import (
	"context"
	"errors"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

var (
	errInjected         = errors.New("injected status")
	injectedReason      = "injected filter status"
	errInjectedPreScore = errors.New("injected prescore status")
)

// injected holds the results a testPlugin returns at each point.
type injected struct {
	PreFilterStatus     framework.Code
	PreFilterResult     *framework.PreFilterResult
	FilterStatus        framework.Code
	PreScoreStatus      framework.Code
	ScoreStatus         framework.Code
	ScoreRes            int64
	NormalizeStatus     framework.Code
	NormalizeRes        int64
	PostFilterStatus    framework.Code
	PostFilterNominated string
	AddPodStatus        framework.Code
	RemovePodStatus     framework.Code
}

func statusFor(c framework.Code, reason string) *framework.Status {
	switch c {
	case framework.Success:
		return nil
	case framework.Error:
		return framework.AsStatus(errInjected)
	}
	return framework.NewStatus(c, reason)
}

// testPlugin implements every extension point with injected results.
type testPlugin struct {
	name string
	inj  injected
}

func (p *testPlugin) Name() string { return p.name }

func (p *testPlugin) PreFilter(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	return p.inj.PreFilterResult, statusFor(p.inj.PreFilterStatus, "injected prefilter status")
}
func (p *testPlugin) PreFilterExtensions() framework.PreFilterExtensions { return p }
func (p *testPlugin) AddPod(context.Context, *framework.CycleState, *api.Pod, *cluster.PodInfo, *cluster.NodeInfo) *framework.Status {
	return statusFor(p.inj.AddPodStatus, "injected addpod")
}
func (p *testPlugin) RemovePod(context.Context, *framework.CycleState, *api.Pod, *cluster.PodInfo, *cluster.NodeInfo) *framework.Status {
	return statusFor(p.inj.RemovePodStatus, "injected removepod")
}
func (p *testPlugin) Filter(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) *framework.Status {
	return statusFor(p.inj.FilterStatus, injectedReason)
}
func (p *testPlugin) PostFilter(context.Context, *framework.CycleState, *api.Pod, framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	var r *framework.PostFilterResult
	if p.inj.PostFilterNominated != "" {
		r = &framework.PostFilterResult{NominatedNodeName: p.inj.PostFilterNominated}
	}
	return r, statusFor(p.inj.PostFilterStatus, "injected postfilter status")
}
func (p *testPlugin) PreScore(context.Context, *framework.CycleState, *api.Pod, []*cluster.NodeInfo) *framework.Status {
	if p.inj.PreScoreStatus == framework.Error {
		return framework.AsStatus(errInjectedPreScore)
	}
	return statusFor(p.inj.PreScoreStatus, "injected prescore")
}
func (p *testPlugin) Score(context.Context, *framework.CycleState, *api.Pod, *cluster.NodeInfo) (int64, *framework.Status) {
	return p.inj.ScoreRes, statusFor(p.inj.ScoreStatus, "injected score")
}
func (p *testPlugin) ScoreExtensions() framework.ScoreExtensions { return p }
func (p *testPlugin) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	if st := statusFor(p.inj.NormalizeStatus, "injected normalize"); st != nil {
		return st
	}
	for i := range scores {
		scores[i].Score = p.inj.NormalizeRes
	}
	return nil
}

// queueSort is a minimal QueueSort plugin.
type queueSort struct{}

func (queueSort) Name() string                            { return "QueueSort" }
func (queueSort) Less(a, b *framework.QueuedPodInfo) bool { return a.Priority() > b.Priority() }

func factoryOf(p framework.Plugin) framework.PluginFactory {
	return func(any, framework.Handle) (framework.Plugin, error) { return p, nil }
}

// newProfile builds a profile of exactly the given plugins (plus a queue
// sort) with weight 1.
func newProfile(plugins ...framework.Plugin) (*framework.Profile, error) {
	r := framework.Registry{"QueueSort": factoryOf(queueSort{})}
	cfg := framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{{Name: "QueueSort"}}}
	for _, p := range plugins {
		r[p.Name()] = factoryOf(p)
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: p.Name(), Weight: 1})
	}
	return framework.NewProfile(cfg, r, nil)
}

func makeNode(name string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
}

func nodeInfos(names ...string) []*cluster.NodeInfo {
	out := make([]*cluster.NodeInfo, len(names))
	for i, n := range names {
		out[i] = cluster.NewNodeInfo(makeNode(n))
	}
	return out
}
