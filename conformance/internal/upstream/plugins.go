package upstream

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/imagelocality"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/interpodaffinity"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodename"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeports"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeunschedulable"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/podtopologyspread"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumebinding"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// Plugin is one plugin run by both schedulers: its kube-scheduler name and
// upstream's factory for it (schedkit's comes from its own registry).
type Plugin struct {
	Name    string
	Factory runtime.PluginFactory
}

var fts = plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)

// Plugins are the plugins of the differential run, in kube-scheduler's
// default-profile order. To compare another plugin once schedkit has it,
// add one line here.
var Plugins = []Plugin{
	{nodename.Name, runtime.FactoryAdapter(fts, nodename.New)},
	{nodeunschedulable.Name, runtime.FactoryAdapter(fts, nodeunschedulable.New)},
	{tainttoleration.Name, runtime.FactoryAdapter(fts, tainttoleration.New)},
	{nodeaffinity.Name, runtime.FactoryAdapter(fts, nodeaffinity.New)},
	{nodeports.Name, runtime.FactoryAdapter(fts, nodeports.New)},
	{noderesources.Name, runtime.FactoryAdapter(fts, noderesources.NewFit)},
	{podtopologyspread.Name, runtime.FactoryAdapter(fts, podtopologyspread.New)},
	{interpodaffinity.Name, runtime.FactoryAdapter(fts, interpodaffinity.New)},
	{volumebinding.Name, runtime.FactoryAdapter(fts, volumebinding.New)},
	{noderesources.BalancedAllocationName, runtime.FactoryAdapter(fts, noderesources.NewBalancedAllocation)},
	{imagelocality.Name, imagelocality.New},
}

func init() { Plugins = append(Plugins, storagePlugins...) }

// PluginNames lists the names of Plugins.
func PluginNames() []string {
	var out []string
	for _, p := range Plugins {
		out = append(out, p.Name)
	}
	return out
}

var (
	defaultArgsOnce sync.Once
	defaultArgs     []config.PluginConfig
	defaultArgsErr  error
)

// DefaultPluginConfig returns the plugin arguments of kube-scheduler's
// default profile, as its v1 defaulting produces them.
func DefaultPluginConfig() ([]config.PluginConfig, error) {
	defaultArgsOnce.Do(func() {
		cfg, err := latest.Default()
		if err != nil {
			defaultArgsErr = err
			return
		}
		defaultArgs = cfg.Profiles[0].PluginConfig
	})
	return defaultArgs, defaultArgsErr
}

// Framework is an upstream scheduling framework over a snapshot.
type Framework struct {
	FW       schedframework.Framework
	Snapshot *cache.Snapshot
	weights  map[string]int64
	cancel   context.CancelFunc
	// order is the nodes' names in the order they were given:
	// cache.NewSnapshot lists them in map order.
	order []string
	// listed and ordered cache NodeInfos: the snapshot's list last
	// seen and that list in order, so that a measured cycle does not
	// pay for the reordering.
	mu      sync.Mutex
	listed  []fwk.NodeInfo // the snapshot's own slice
	seen    []fwk.NodeInfo // its elements then
	ordered []fwk.NodeInfo
}

// Close stops the framework's background goroutines (its metrics
// recorder runs until the framework's context is cancelled).
func (f *Framework) Close() {
	f.cancel()
	_ = f.FW.Close()
}

// NewFramework builds upstream's framework running exactly plugins, in
// order, with their weights, over a snapshot of nodes and pods, in
// process (no API server, no informers).
func NewFramework(ctx context.Context, nodes []*v1.Node, pods []*v1.Pod, plugins []regression.PluginRef) (*Framework, error) {
	return NewFrameworkParallel(ctx, nodes, pods, plugins, 1)
}

// NewFrameworkParallel is NewFramework with the given parallelism for
// Filter (in Schedule) and Score.
func NewFrameworkParallel(ctx context.Context, nodes []*v1.Node, pods []*v1.Pod, plugins []regression.PluginRef, parallelism int) (*Framework, error) {
	return NewFrameworkObjects(ctx, nodes, pods, nil, plugins, parallelism)
}

// NewFrameworkObjects is NewFrameworkParallel with cluster objects
// (upstream's or schedkit's Services, ReplicaSets, volumes, claims, ...;
// see InformerFactory and ConvertObjects) that plugins read through
// informers' listers.
func NewFrameworkObjects(ctx context.Context, nodes []*v1.Node, pods []*v1.Pod, objects []any, plugins []regression.PluginRef, parallelism int) (*Framework, error) {
	// The framework records plugin metrics; they must be registered.
	metrics.Register()
	reg := runtime.Registry{
		queuesort.Name:     queuesort.New,
		defaultbinder.Name: defaultbinder.New,
	}
	for _, p := range Plugins {
		reg[p.Name] = p.Factory
	}
	args, err := DefaultPluginConfig()
	if err != nil {
		return nil, err
	}
	profile := &config.KubeSchedulerProfile{
		SchedulerName: "default-scheduler",
		Plugins: &config.Plugins{
			QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: queuesort.Name}}},
			Bind:      config.PluginSet{Enabled: []config.Plugin{{Name: defaultbinder.Name}}},
		},
	}
	weights := map[string]int64{}
	for _, p := range plugins {
		if _, ok := reg[p.Name]; !ok {
			return nil, fmt.Errorf("plugin %q is not in the conformance table", p.Name)
		}
		profile.Plugins.MultiPoint.Enabled = append(profile.Plugins.MultiPoint.Enabled, config.Plugin{Name: p.Name, Weight: p.Weight})
		w := int64(p.Weight)
		if w == 0 {
			w = 1
		}
		weights[p.Name] = w
		for _, a := range args {
			if a.Name == p.Name {
				profile.PluginConfig = append(profile.PluginConfig, a)
			}
		}
	}
	snap := cache.NewSnapshot(pods, nodes)
	cacheImageSizes(snap, nodes)
	opts, err := ObjectOptions(ConvertObjects(objects))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	f, err := runtime.NewFramework(ctx, reg, profile, append(opts,
		runtime.WithSnapshotSharedLister(snap),
		runtime.WithParallelism(parallelism))...)
	if err != nil {
		cancel()
		return nil, err
	}
	return &Framework{FW: f, Snapshot: snap, weights: weights, cancel: cancel, order: nodeOrder(nodes)}, nil
}

// NodeInfos lists the snapshot's nodes in the order they were given,
// the order schedkit's snapshot visits them in: the snapshot's own list
// is in map order, so a cycle that stops at the first node's error
// would otherwise stop at a random node.
func (f *Framework) NodeInfos() []fwk.NodeInfo {
	l, err := f.Snapshot.NodeInfos().List()
	if err != nil {
		panic(err)
	}
	if f.order == nil {
		return l
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(l) > 0 && len(l) == len(f.listed) && &l[0] == &f.listed[0] && slices.Equal(l, f.seen) {
		return f.ordered
	}
	byName := make(map[string]fwk.NodeInfo, len(l))
	for _, ni := range l {
		byName[ni.Node().Name] = ni
	}
	out := make([]fwk.NodeInfo, 0, len(l))
	for _, n := range f.order {
		if ni, ok := byName[n]; ok {
			out = append(out, ni)
			delete(byName, n)
		}
	}
	for _, ni := range l {
		if _, ok := byName[ni.Node().Name]; ok {
			out = append(out, ni)
		}
	}
	f.listed, f.seen, f.ordered = l, slices.Clone(l), out
	return out
}

func nodeOrder(nodes []*v1.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Name
	}
	return out
}

func statusAnswer(s *fwk.Status) regression.StatusAnswer {
	if s == nil {
		return regression.StatusAnswer{Code: fwk.Success.String()}
	}
	return regression.StatusAnswer{Code: s.Code().String(), Reasons: regression.SortScalarReasons(s.Reasons()), Plugin: s.Plugin()}
}

// RunCycle runs one cycle of pod over nodes, as regression.RunCycle does
// with schedkit.
func (f *Framework) RunCycle(ctx context.Context, nodes []fwk.NodeInfo, pod *v1.Pod) regression.PluginsAnswer {
	var a regression.PluginsAnswer
	state := schedframework.NewCycleState()
	res, st, _ := f.FW.RunPreFilterPlugins(ctx, state, pod)
	if !st.IsSuccess() {
		if st.Code() == fwk.Error {
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
	a.Filter = map[string]regression.StatusAnswer{}
	var feasible []fwk.NodeInfo
	for _, ni := range nodes {
		if !res.AllNodes() && !res.NodeNames.Has(ni.Node().Name) {
			continue
		}
		st := f.FW.RunFilterPlugins(ctx, state, pod, ni)
		if st.Code() == fwk.Error {
			a.Err, a.Stage, a.Filter = st.Message(), "Filter", nil
			return a
		}
		a.Filter[ni.Node().Name] = statusAnswer(st)
		if st.IsSuccess() {
			feasible = append(feasible, ni)
		}
	}
	if len(feasible) == 0 || !f.FW.HasScorePlugins() {
		return a
	}
	if st := f.FW.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		a.Err, a.Stage = st.Message(), "PreScore"
		return a
	}
	scores, st := f.FW.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		a.Err, a.Stage = st.Message(), "Score"
		return a
	}
	a.Scores = map[string]map[string]int64{}
	a.Total = map[string]int64{}
	for _, ns := range scores {
		m := map[string]int64{}
		for _, ps := range ns.Scores {
			m[ps.Name] = ps.Score / f.weights[ps.Name]
		}
		a.Scores[ns.Name] = m
		a.Total[ns.Name] = ns.TotalScore
	}
	a.Best = regression.BestNodes(a.Total)
	return a
}

// ConvertCluster converts schedkit nodes and pods to upstream's.
func ConvertCluster(nodes []*api.Node, pods []*api.Pod) ([]*v1.Node, []*v1.Pod) {
	var vn []*v1.Node
	for _, n := range nodes {
		vn = append(vn, MustConvert[v1.Node](n))
	}
	var vp []*v1.Pod
	for _, p := range pods {
		vp = append(vp, MustConvert[v1.Pod](p))
	}
	return vn, vp
}

// PluginsCycle is upstream's answer for a plugins input.
func PluginsCycle(in *regression.PluginsInput) regression.PluginsAnswer {
	ctx := context.Background()
	nodes, pods := ConvertCluster(in.Nodes, in.Pods)
	objects := append(ConvertStorage(in.Objects), ConvertWorkloads(&in.Workloads)...)
	for _, ns := range in.Namespaces {
		objects = append(objects, MustConvert[v1.Namespace](ns))
	}
	f, err := NewFrameworkObjects(ctx, nodes, pods, objects, in.Plugins, 1)
	if err != nil {
		return regression.PluginsAnswer{Err: err.Error()}
	}
	defer f.Close()
	return f.RunCycle(ctx, f.NodeInfos(), MustConvert[v1.Pod](in.Pod))
}

// cacheImageSizes gives every node's image states the size the
// scheduler's cache takes (cacheImpl.addNodeImageStates): the size the
// first node, in the order nodes are added, reports for the name.
// cache.NewSnapshot, which builds a snapshot without the cache, takes
// each node's own report instead.
func cacheImageSizes(snap *cache.Snapshot, nodes []*v1.Node) {
	first := map[string]int64{}
	for _, n := range nodes {
		for _, im := range n.Status.Images {
			for _, name := range im.Names {
				if _, ok := first[name]; !ok {
					first[name] = im.SizeBytes
				}
			}
		}
	}
	list, err := snap.NodeInfos().List()
	if err != nil {
		panic(err)
	}
	for _, ni := range list {
		for name, st := range ni.GetImageStates() {
			st.Size = first[name]
		}
	}
}
