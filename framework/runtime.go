package framework

import (
	"context"
	"fmt"
	"sort"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// RunPreEnqueuePlugins runs the PreEnqueue plugins in order and returns
// the first non-success status, naming its plugin; nil admits the pod.
func (p *Profile) RunPreEnqueuePlugins(ctx context.Context, pod *api.Pod) *Status {
	for _, pl := range p.preEnqueue {
		if st := pl.PreEnqueue(ctx, pod); !st.IsSuccess() {
			return st.WithPlugin(pl.Name())
		}
	}
	return nil
}

// RunPreFilterPlugins runs the PreFilter plugins as kube-scheduler does.
// A plugin returning Skip has its Filter skipped for the cycle (recorded
// in state.SkipFilterPlugins). UnschedulableAndUnresolvable stops at once;
// Unschedulable lets the others run and is returned at the end (so that
// preemption sees every plugin's state); any other failure is an Error
// "running PreFilter plugin %q: ...". The PreFilterResults are
// intersected; an empty intersection is an UnschedulableAndUnresolvable
// "node(s) didn't satisfy plugin(s) [a b] simultaneously" (or "node(s)
// didn't satisfy plugin a" for one plugin). The set returned holds the
// plugins whose results narrowed the nodes.
func (p *Profile) RunPreFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*PreFilterResult, *Status, map[string]struct{}) {
	var skip map[string]struct{}
	defer func() { state.SkipFilterPlugins = skip }()
	var result *PreFilterResult
	var withNodes map[string]struct{}
	var ret *Status
	for _, pl := range p.preFilter {
		name := pl.Name()
		r, st := pl.PreFilter(ctx, state, pod, nodes)
		if st.IsSkip() {
			if skip == nil {
				skip = skipSet(&state.spareFilterSkip)
			}
			skip[name] = struct{}{}
			continue
		}
		if !st.IsSuccess() {
			st = st.WithPlugin(name)
			switch st.Code() {
			case UnschedulableAndUnresolvable:
				return nil, st, nil
			case Unschedulable:
				ret = st
				continue
			}
			return nil, AsStatus(fmt.Errorf("running PreFilter plugin %q: %w", name, st.AsError())).WithPlugin(name), nil
		}
		if !r.AllNodes() {
			if withNodes == nil {
				withNodes = map[string]struct{}{}
			}
			withNodes[name] = struct{}{}
		}
		result = result.Merge(r)
		if !result.AllNodes() && len(result.NodeNames) == 0 {
			names := sortedSet(withNodes)
			msg := fmt.Sprintf("node(s) didn't satisfy plugin(s) %v simultaneously", names)
			if len(names) == 1 {
				msg = fmt.Sprintf("node(s) didn't satisfy plugin %v", names[0])
			}
			return result, NewStatus(UnschedulableAndUnresolvable, msg), withNodes
		}
	}
	return result, ret, withNodes
}

// RunPreFilterExtensionAddPod calls the AddPod hook of every PreFilter
// plugin that has one and was not skipped.
func (p *Profile) RunPreFilterExtensionAddPod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *Status {
	for _, pl := range p.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || skipped(state.SkipFilterPlugins, pl.Name()) {
			continue
		}
		if st := ext.AddPod(ctx, state, podToSchedule, podToAdd, nodeInfo); !st.IsSuccess() {
			return AsStatus(fmt.Errorf("running AddPod on PreFilter plugin %q: %w", pl.Name(), st.AsError()))
		}
	}
	return nil
}

// RunPreFilterExtensionRemovePod calls the RemovePod hook of every
// PreFilter plugin that has one and was not skipped.
func (p *Profile) RunPreFilterExtensionRemovePod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToRemove *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *Status {
	for _, pl := range p.preFilter {
		ext := pl.PreFilterExtensions()
		if ext == nil || skipped(state.SkipFilterPlugins, pl.Name()) {
			continue
		}
		if st := ext.RemovePod(ctx, state, podToSchedule, podToRemove, nodeInfo); !st.IsSuccess() {
			return AsStatus(fmt.Errorf("running RemovePod on PreFilter plugin %q: %w", pl.Name(), st.AsError()))
		}
	}
	return nil
}

func skipped(set map[string]struct{}, name string) bool {
	if len(set) == 0 {
		return false
	}
	_, ok := set[name]
	return ok
}

// RunFilterPlugins runs the Filter plugins on one node, in order, and
// stops at the first that does not succeed. Its status is returned as a
// copy naming the plugin (the plugin's own value is not modified, so
// plugins may return shared statuses); a status other than Success,
// Unschedulable, UnschedulableAndUnresolvable or Pending becomes an Error
// "running %q filter plugin: ...". Plugins skipped at PreFilter do not
// run. A node that passes costs no allocation here.
func (p *Profile) RunFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *Status {
	var skip map[string]struct{}
	if state != nil {
		skip = state.SkipFilterPlugins
	}
	for i, pl := range p.filter {
		name := p.filterNames[i]
		if skipped(skip, name) {
			continue
		}
		if st := pl.Filter(ctx, state, pod, nodeInfo); !st.IsSuccess() {
			if !st.IsRejected() {
				st = AsStatus(fmt.Errorf("running %q filter plugin: %w", name, st.AsError()))
			}
			return st.WithPlugin(name)
		}
	}
	return nil
}

// PodPriority is a pod's priority, 0 when unset.
func PodPriority(pod *api.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// RunFilterPluginsWithNominatedPods runs the Filter plugins as
// kube-scheduler does when pods are nominated to the node: first with the
// nominated pods of equal or higher priority (other than pod itself)
// added to a copy of the node and of the state, then, if that passes and
// any were added, again without them, so that the decision holds whether
// or not they land. nominated are the pods nominated to this node.
func (p *Profile) RunFilterPluginsWithNominatedPods(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo, nominated []*cluster.PodInfo) *Status {
	if len(nominated) == 0 {
		return p.RunFilterPlugins(ctx, state, pod, nodeInfo)
	}
	prio := PodPriority(pod)
	var stateWith *CycleState
	var infoWith *cluster.NodeInfo
	for _, pi := range nominated {
		if PodPriority(pi.Pod) < prio || samePod(pi.Pod, pod) {
			continue
		}
		if infoWith == nil {
			stateWith = state.Clone()
			infoWith = nodeInfo.Clone()
		}
		infoWith.AddPod(pi)
		if st := p.RunPreFilterExtensionAddPod(ctx, stateWith, pod, pi, infoWith); !st.IsSuccess() {
			return st
		}
	}
	if infoWith == nil {
		return p.RunFilterPlugins(ctx, state, pod, nodeInfo)
	}
	st := p.RunFilterPlugins(ctx, stateWith, pod, infoWith)
	if !st.IsSuccess() {
		return st
	}
	return p.RunFilterPlugins(ctx, state, pod, nodeInfo)
}

func samePod(a, b *api.Pod) bool {
	if a == b {
		return true
	}
	if a.UID != "" || b.UID != "" {
		return a.UID == b.UID
	}
	return a.Name == b.Name && a.Namespace == b.Namespace
}

// RunPostFilterPlugins runs the PostFilter plugins until one succeeds, or
// returns UnschedulableAndUnresolvable or an error; otherwise it returns
// Unschedulable with every plugin's reasons, naming the first plugin, and
// the last non-nil result.
func (p *Profile) RunPostFilterPlugins(ctx context.Context, state *CycleState, pod *api.Pod, statuses NodeToStatusReader) (*PostFilterResult, *Status) {
	var result *PostFilterResult
	var reasons []string
	var rejector string
	for _, pl := range p.postFilter {
		r, st := pl.PostFilter(ctx, state, pod, statuses)
		switch {
		case st.IsSuccess():
			return r, st
		case st.Code() == UnschedulableAndUnresolvable:
			return r, st.WithPlugin(pl.Name())
		case !st.IsRejected():
			return nil, AsStatus(st.AsError()).WithPlugin(pl.Name())
		}
		if r != nil {
			// A non-nil result is meaningful even with an empty node: it
			// clears the pod's nomination (upstream's ModeOverride).
			result = r
		}
		reasons = append(reasons, st.Reasons()...)
		if rejector == "" {
			rejector = pl.Name()
		}
	}
	return result, NewStatus(Unschedulable, reasons...).WithPlugin(rejector)
}

// RunPreScorePlugins runs the PreScore plugins over the feasible nodes. A
// plugin returning Skip has its Score skipped for the cycle (recorded in
// state.SkipScorePlugins); any other failure is an Error "running
// PreScore plugin %q: ...".
func (p *Profile) RunPreScorePlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) *Status {
	var skip map[string]struct{}
	defer func() { state.SkipScorePlugins = skip }()
	for _, pl := range p.preScore {
		st := pl.PreScore(ctx, state, pod, nodes)
		if st.IsSkip() {
			if skip == nil {
				skip = skipSet(&state.spareScoreSkip)
			}
			skip[pl.Name()] = struct{}{}
			continue
		}
		if !st.IsSuccess() {
			return AsStatus(fmt.Errorf("running PreScore plugin %q: %w", pl.Name(), st.AsError()))
		}
	}
	return nil
}

// PluginScore is one plugin's score of a node.
type PluginScore struct {
	// Name of the plugin.
	Name string
	// Score given.
	Score int64
}

// NodePluginScores is the scores of one node.
type NodePluginScores struct {
	// Name of the node.
	Name string
	// RawScores are the plugins' Score results, before normalisation.
	RawScores []PluginScore
	// NormalizedScores are the scores after NormalizeScore, in
	// [MinNodeScore, MaxNodeScore], before weighting.
	NormalizedScores []PluginScore
	// Scores are the normalised scores times the plugins' weights.
	Scores []PluginScore
	// TotalScore is the sum of Scores.
	TotalScore int64
	// Randomizer breaks ties between nodes of equal TotalScore: the
	// higher wins. The scheduler draws it from its seeded source.
	Randomizer int
}

// RunScorePlugins runs the Score plugins not skipped at PreScore over
// nodes, one plugin and one node at a time, as kube-scheduler does: each
// plugin scores every node, then its NormalizeScore (if any) rescales
// the plugin's list, every normalised score must be in [MinNodeScore,
// MaxNodeScore], and each node's total is the sum of the scores times
// the plugins' weights. The result is in the order of nodes; errors are
// kube-scheduler's ("running Score plugins: ...", "running Normalize on
// Score plugins: ...", "applying score defaultWeights on Score plugins:
// ...").
func (p *Profile) RunScorePlugins(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) ([]NodePluginScores, *Status) {
	var skip map[string]struct{}
	if state != nil {
		skip = state.SkipScorePlugins
	}
	var active []int // the score plugins not skipped, by index
	for k, name := range p.scoreNames {
		if !skipped(skip, name) {
			active = append(active, k)
		}
	}
	// Score: node by node, plugin by plugin, so that the error reported
	// is the first in that order.
	lists := make([]NodeScoreList, len(active))
	for j := range active {
		lists[j] = make(NodeScoreList, len(nodes))
	}
	out := make([]NodePluginScores, len(nodes))
	// One array backs every node's three lists, each capped at the
	// plugins scored: a node's lists cost no allocation of their own.
	na := len(active)
	backing := make([]PluginScore, 3*na*len(nodes))
	for i, ni := range nodes {
		out[i].Name = ni.Node().Name
		if na > 0 {
			b := backing[3*na*i : 3*na*(i+1)]
			out[i].RawScores = b[0:0:na]
			out[i].NormalizedScores = b[na : na : 2*na]
			out[i].Scores = b[2*na : 2*na : 3*na]
		}
		for j, k := range active {
			sc, st := p.score[k].Score(ctx, state, pod, ni)
			if !st.IsSuccess() {
				err := fmt.Errorf("plugin %q failed with: %w", p.scoreNames[k], st.AsError())
				return nil, AsStatus(fmt.Errorf("running Score plugins: %w", err))
			}
			lists[j][i] = NodeScore{Name: out[i].Name, Score: sc}
			out[i].RawScores = append(out[i].RawScores, PluginScore{Name: p.scoreNames[k], Score: sc})
		}
	}
	// NormalizeScore: each plugin's list, in plugin order.
	for j, k := range active {
		if ext := p.score[k].ScoreExtensions(); ext != nil {
			if st := ext.NormalizeScore(ctx, state, pod, lists[j]); !st.IsSuccess() {
				err := fmt.Errorf("plugin %q failed with: %w", p.scoreNames[k], st.AsError())
				return nil, AsStatus(fmt.Errorf("running Normalize on Score plugins: %w", err))
			}
		}
	}
	// Range check, weights and totals, node by node.
	for i := range out {
		for j, k := range active {
			sc, name := lists[j][i].Score, p.scoreNames[k]
			if sc > MaxNodeScore || sc < MinNodeScore {
				err := rangeError(name, sc)
				return nil, AsStatus(fmt.Errorf("applying score defaultWeights on Score plugins: %w", err))
			}
			weighted := sc * p.scoreWeights[k]
			out[i].NormalizedScores = append(out[i].NormalizedScores, PluginScore{Name: name, Score: sc})
			out[i].Scores = append(out[i].Scores, PluginScore{Name: name, Score: weighted})
			out[i].TotalScore += weighted
		}
	}
	return out, nil
}

func rangeError(plugin string, s int64) error {
	return fmt.Errorf("plugin %q returns an invalid score %v, it should in the range of [%v, %v] after normalizing",
		plugin, s, MinNodeScore, MaxNodeScore)
}

// SortNodeScores orders scores best first: higher TotalScore, then higher
// Randomizer; the order kube-scheduler pops its scored-node heap in.
func SortNodeScores(scores []NodePluginScores) {
	sort.SliceStable(scores, func(i, j int) bool { return betterScore(&scores[i], &scores[j]) })
}

func betterScore(a, b *NodePluginScores) bool {
	return a.TotalScore > b.TotalScore || (a.TotalScore == b.TotalScore && a.Randomizer > b.Randomizer)
}

// BestNode returns the index of the best of scores (see SortNodeScores),
// the first of equals; -1 if scores is empty.
func BestNode(scores []NodePluginScores) int {
	best := -1
	for i := range scores {
		if best < 0 || betterScore(&scores[i], &scores[best]) {
			best = i
		}
	}
	return best
}
