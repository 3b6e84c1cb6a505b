package regression

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/scheduler"
)

// PluginRef is a plugin to run, with its score weight (0 means 1).
type PluginRef struct {
	Name   string `json:"name"`
	Weight int32  `json:"weight,omitempty"`
}

// PluginsInput is a cluster (nodes and the pods bound to them), a pod to
// place, and the plugins to run, in order.
type PluginsInput struct {
	Nodes   []*api.Node `json:"nodes"`
	Pods    []*api.Pod  `json:"pods,omitempty"`
	Pod     *api.Pod    `json:"pod"`
	Plugins []PluginRef `json:"plugins"`
	// Objects are the storage objects the plugins look up.
	Objects *StorageObjects `json:"objects,omitempty"`
	// Workloads are the objects PodTopologySpread's default constraints
	// read (Services, ReplicaSets, StatefulSets, ReplicationControllers).
	Workloads Workloads `json:"workloads,omitzero"`
	// Namespaces are the cluster's Namespace objects (InterPodAffinity
	// reads their labels).
	Namespaces []*api.Namespace `json:"namespaces,omitempty"`
}

// StatusAnswer is a plugin status.
type StatusAnswer struct {
	Code    string   `json:"code"`
	Reasons []string `json:"reasons,omitempty"`
	Plugin  string   `json:"plugin,omitempty"`
}

// PluginsAnswer is one scheduling cycle of the pod with the plugins, run
// the way kube-scheduler's schedulePod runs them but over every node (no
// sampling) and scoring even a single feasible node:
// PreFilter; Filter on every node the PreFilter result keeps; PreScore
// and Score (normalised, then weighted) on the feasible nodes.
type PluginsAnswer struct {
	// Err is an error building the cluster or the plugins, or running
	// them (a status of code Error), and Stage the extension point that
	// failed.
	Err   string `json:"err,omitempty"`
	Stage string `json:"stage,omitempty"`
	// PreFilter is the PreFilter status when it is not Success.
	PreFilter *StatusAnswer `json:"preFilter,omitempty"`
	// PreFilterNodes are the nodes a PreFilter result narrowed the cycle
	// to, sorted; nil when it kept all nodes.
	PreFilterNodes []string `json:"preFilterNodes,omitempty"`
	// Filter is the Filter status of every filtered node.
	Filter map[string]StatusAnswer `json:"filter,omitempty"`
	// Scores are each feasible node's normalised score per plugin, before
	// weighting.
	Scores map[string]map[string]int64 `json:"scores,omitempty"`
	// Total is each feasible node's weighted sum.
	Total map[string]int64 `json:"total,omitempty"`
	// Best are the feasible nodes with the highest total, sorted: the
	// scheduler picks one of them.
	Best []string `json:"best,omitempty"`
}

// BestNodes returns the sorted names with the highest total.
func BestNodes(total map[string]int64) []string {
	var best []string
	var max int64
	for n, t := range total {
		switch {
		case len(best) == 0 || t > max:
			best, max = []string{n}, t
		case t == max:
			best = append(best, n)
		}
	}
	sort.Strings(best)
	return best
}

type handle struct{ s *cluster.Snapshot }

func (h handle) Snapshot() *cluster.Snapshot { return h.s }

func statusAnswer(s *framework.Status) StatusAnswer {
	return StatusAnswer{Code: s.Code().String(), Reasons: SortScalarReasons(s.Reasons()), Plugin: s.Plugin()}
}

// SortScalarReasons returns reasons with its trailing run of
// "Insufficient <scalar resource>" reasons sorted. NodeResourcesFit
// reports pods, cpu, memory and ephemeral storage in that order and then
// the scalar resources (extended, huge pages) in the order of a Go map
// upstream, so only their set is meaningful.
func SortScalarReasons(reasons []string) []string {
	i := len(reasons)
	for i > 0 && isScalarReason(reasons[i-1]) {
		i--
	}
	if len(reasons)-i < 2 {
		return reasons
	}
	out := slices.Clone(reasons)
	sort.Strings(out[i:])
	return out
}

func isScalarReason(r string) bool {
	name, ok := strings.CutPrefix(r, "Insufficient ")
	if !ok {
		return false
	}
	switch name {
	case "cpu", "memory", "ephemeral-storage", "pods":
		return false
	}
	return true
}

// Profile returns schedkit's profile running exactly plugins, in order,
// besides the queue sort and bind plugins every profile needs.
func Profile(snap *cluster.Snapshot, plugins []PluginRef) (*framework.Profile, error) {
	return ProfileWithArgs(snap, plugins, nil)
}

// ProfileWithArgs is Profile with plugin arguments, by plugin name.
func ProfileWithArgs(snap *cluster.Snapshot, plugins []PluginRef, args map[string]any) (*framework.Profile, error) {
	cfg := framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{
		{Name: queuesort.Name}, {Name: defaultbinder.Name}}, PluginArgs: args}
	for _, p := range plugins {
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: p.Name, Weight: p.Weight})
	}
	return framework.NewProfile(cfg, scheduler.DefaultRegistry(), handle{snap})
}

// EvalPlugins is schedkit's answer for a plugins input.
func EvalPlugins(in *PluginsInput) PluginsAnswer {
	var a PluginsAnswer
	snap, err := newSnapshot(in)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	prof, err := Profile(snap, in.Plugins)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	return RunCycle(prof, snap.View().Nodes(), in.Pod)
}

// RunCycle runs one cycle of pod over nodes with prof.
func RunCycle(prof *framework.Profile, nodes []*cluster.NodeInfo, pod *api.Pod) PluginsAnswer {
	var a PluginsAnswer
	ctx := context.Background()
	state := framework.NewCycleState()
	res, st, _ := prof.RunPreFilterPlugins(ctx, state, pod, nodes)
	if !st.IsSuccess() {
		if st.IsError() {
			a.Err, a.Stage = st.Message(), "PreFilter"
			return a
		}
		s := statusAnswer(st)
		a.PreFilter = &s
		return a
	}
	if !res.AllNodes() {
		a.PreFilterNodes = slices.Sorted(maps.Keys(res.NodeNames))
		if a.PreFilterNodes == nil {
			a.PreFilterNodes = []string{}
		}
	}
	a.Filter = map[string]StatusAnswer{}
	var feasible []*cluster.NodeInfo
	for _, ni := range nodes {
		if !res.AllNodes() {
			if _, ok := res.NodeNames[ni.Name()]; !ok {
				continue
			}
		}
		st := prof.RunFilterPlugins(ctx, state, pod, ni)
		if st.IsError() {
			// Which nodes were filtered before the error depends on
			// the order nodes are visited in: report only the error.
			a.Err, a.Stage, a.Filter = st.Message(), "Filter", nil
			return a
		}
		a.Filter[ni.Name()] = statusAnswer(st)
		if st.IsSuccess() {
			feasible = append(feasible, ni)
		}
	}
	if len(feasible) == 0 || !prof.HasScorePlugins() {
		return a
	}
	if st := prof.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		a.Err, a.Stage = st.Message(), "PreScore"
		return a
	}
	scores, st := prof.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		a.Err, a.Stage = st.Message(), "Score"
		return a
	}
	a.Scores = map[string]map[string]int64{}
	a.Total = map[string]int64{}
	for _, ns := range scores {
		m := map[string]int64{}
		for _, ps := range ns.NormalizedScores {
			m[ps.Name] = ps.Score
		}
		a.Scores[ns.Name] = m
		a.Total[ns.Name] = ns.TotalScore
	}
	a.Best = BestNodes(a.Total)
	return a
}

// ScheduleAnswer is the outcome of one scheduling cycle through the
// scheduler (schedkit's scheduler.Scheduler, every node sampled): the
// nodes it may pick (the best-scored feasible ones, sorted; one of them
// is chosen at random) or, when none fits, the PreFilter rejection or
// each filtered node's rejection.
type ScheduleAnswer struct {
	Err  string   `json:"err,omitempty"`
	Best []string `json:"best,omitempty"`
	// Scores are the diagnosis' normalised scores per node and plugin,
	// when more than one node was feasible (and so scored).
	Scores    map[string]map[string]int64 `json:"scores,omitempty"`
	PreFilter *StatusAnswer               `json:"preFilter,omitempty"`
	Rejected  map[string]StatusAnswer     `json:"rejected,omitempty"`
}

// KindSchedule compares scheduler.Scheduler's decisions.
const KindSchedule = "schedule"

func init() { evaluators[KindSchedule] = decodeEval(EvalSchedule) }

// EvalSchedule is schedkit's answer for a schedule input (a PluginsInput).
func EvalSchedule(in *PluginsInput) ScheduleAnswer {
	var a ScheduleAnswer
	snap, err := newSnapshot(in)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	cfg := framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{
		{Name: queuesort.Name}, {Name: defaultbinder.Name}}}
	for _, p := range in.Plugins {
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: p.Name, Weight: p.Weight})
	}
	s, err := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithParallelism(1), scheduler.WithPercentageOfNodesToScore(100))
	if err != nil {
		a.Err = err.Error()
		return a
	}
	defer s.Close()
	// The answer is the plain cycle's (Explain runs it).
	ex, err := s.Explain(context.Background(), in.Pod)
	if err != nil {
		a.Err = err.Error()
		return a
	}
	res, err := ex.Decision, ex.Err
	// Schedule runs the engine (nodes scored as they pass Filter, helpers
	// at parallelism 2): it must decide the same, and WithEngineCheck
	// compares its whole outcome with the plain cycle's.
	for _, par := range []int{1, 2} {
		fast, perr := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithParallelism(par), scheduler.WithPercentageOfNodesToScore(100), scheduler.WithEngineCheck(true))
		if perr != nil {
			a.Err = perr.Error()
			return a
		}
		pres, perr := fast.Schedule(context.Background(), in.Pod)
		fast.Close()
		if fmt.Sprint(perr) != fmt.Sprint(err) || pres.Node != res.Node {
			a.Err = fmt.Sprintf("the engine at parallelism %d chose %q (error %v), the plain cycle %q (error %v)", par, pres.Node, perr, res.Node, err)
			return a
		}
	}
	var fe *framework.FitError
	switch {
	case errors.As(err, &fe):
		d := fe.Diagnosis
		if d.PreFilterMsg != "" {
			st := statusAnswer(d.NodeToStatus.AbsentNodesStatus())
			a.PreFilter = &st
			return a
		}
		a.Rejected = map[string]StatusAnswer{}
		d.NodeToStatus.ForEachExplicitNode(func(name string, st *framework.Status) {
			a.Rejected[name] = statusAnswer(st)
		})
		return a
	case err != nil:
		a.Err = err.Error()
		return a
	}
	if res.FeasibleNodes <= 1 {
		// One feasible node: kube-scheduler does not score it.
		a.Best = []string{res.Node}
		return a
	}
	total := map[string]int64{}
	a.Scores = map[string]map[string]int64{}
	for _, n := range ex.Nodes {
		if !n.Feasible {
			continue
		}
		total[n.Name] = n.Total
		m := map[string]int64{}
		for _, ps := range n.Scores {
			m[ps.Plugin] = ps.Normalized
		}
		a.Scores[n.Name] = m
	}
	a.Best = BestNodes(total)
	if !slices.Contains(a.Best, res.Node) {
		a.Err = fmt.Sprintf("scheduler chose %s, not one of the best %v", res.Node, a.Best)
	}
	return a
}

// ScheduleFromCycle derives a ScheduleAnswer from a cycle's answer.
func ScheduleFromCycle(c PluginsAnswer) ScheduleAnswer {
	var feasible []string
	for n, st := range c.Filter {
		if st.Code == "Success" {
			feasible = append(feasible, n)
		}
	}
	if len(feasible) == 1 && (c.Err == "" || c.Stage == "PreScore" || c.Stage == "Score") {
		// The scheduler does not score a single feasible node.
		return ScheduleAnswer{Best: feasible}
	}
	a := ScheduleAnswer{Err: c.Err, PreFilter: c.PreFilter}
	if c.Err != "" || c.PreFilter != nil {
		return a
	}
	if len(c.Best) > 0 {
		a.Best, a.Scores = c.Best, c.Scores
		return a
	}
	if len(feasible) > 0 {
		// Feasible but not scored (no score plugins): any may be picked.
		sort.Strings(feasible)
		a.Best = feasible
		return a
	}
	a.Rejected = map[string]StatusAnswer{}
	for n, st := range c.Filter {
		a.Rejected[n] = st
	}
	return a
}
