package conformance

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/gangscheduling"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
)

// upStream drives upstream's scheduler the way scheduleOne does, without
// the queue and the API server: its cache (backend/cache) holds the
// nodes and pods, every cycle starts with Cache.UpdateSnapshot, runs
// schedulePod's steps (findNodesThatFitPod from the rotating start index
// with numFeasibleNodesToFind, prioritizeNodes, selectHost's heap), and a
// placement is Cache.AssumePod plus the Reserve plugins. A pod that fits
// nowhere runs DefaultPreemption's evaluation (PodEligibleToPreemptOthers,
// DryRunPreemption from a random offset, SelectCandidate); the victims
// are removed from the cache, as the informer does once the API server
// deletes them, and the pod, nominated, gets its next cycle at once.
//
// Not driven: the queue, binding, events, and OpportunisticBatching's
// node hint (beta, on by default in v1.37), which reuses a previous
// cycle's sorted nodes for a pod of the same signature.
type upStream struct {
	ctx       context.Context
	cancel    context.CancelFunc
	logger    klog.Logger
	cache     cache.Cache
	snap      *cache.Snapshot
	fw        schedframework.Framework
	pl        *defaultpreemption.DefaultPreemption
	pct       int32
	nextStart int
}

// emptyNominator is the PodNominator of a queue with no nominated pods.
type emptyNominator struct{}

func (emptyNominator) AddNominatedPod(klog.Logger, fwk.PodInfo, *fwk.NominatingInfo) {}
func (emptyNominator) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (emptyNominator) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)          {}
func (emptyNominator) NominatedPodsForNode(string) []fwk.PodInfo                     { return nil }

// streamPluginNames are the plugins both sides run: the conformance
// table's (the default profile's Filter and Score plugins but
// DynamicResources), then DefaultPreemption.
func streamPluginNames() []string {
	return append(upstream.PluginNames(), defaultpreemption.Name)
}

// newUpStream builds upstream's cache, snapshot and framework over the
// objects (schedkit's, converted), scoring pct percent of the nodes (0:
// adaptive) with the given parallelism.
func newUpStream(nodes []*v1.Node, pods []*v1.Pod, objects []any, pct int32, parallelism int) (*upStream, error) {
	return newUpStreamFor(nodes, pods, objects, pct, parallelism, false)
}

// newUpStreamFor is newUpStream; with gangs, GangScheduling runs too and
// the cache tracks PodGroups and their members (GenericWorkload on), as
// kube-scheduler's cache does for its PodGroup cycles.
func newUpStreamFor(nodes []*v1.Node, pods []*v1.Pod, objects []any, pct int32, parallelism int, gangs bool) (*upStream, error) {
	metrics.Register()
	ctx, cancel := context.WithCancel(context.Background())
	u := &upStream{ctx: ctx, cancel: cancel, logger: klog.FromContext(ctx), pct: pct}
	reg := runtime.Registry{queuesort.Name: queuesort.New, defaultbinder.Name: defaultbinder.New,
		defaultpreemption.Name: func(ctx context.Context, obj k8sruntime.Object, fh fwk.Handle) (fwk.Plugin, error) {
			p, err := defaultpreemption.New(ctx, obj, fh, plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
			u.pl = p
			return p, err
		}}
	for _, p := range upstream.Plugins {
		reg[p.Name] = p.Factory
	}
	args, err := upstream.DefaultPluginConfig()
	if err != nil {
		cancel()
		return nil, err
	}
	profile := &config.KubeSchedulerProfile{SchedulerName: "default-scheduler", PercentageOfNodesToScore: &pct, Plugins: &config.Plugins{
		QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: queuesort.Name}}},
		Bind:      config.PluginSet{Enabled: []config.Plugin{{Name: defaultbinder.Name}}},
	}}
	names := streamPluginNames()
	if gangs {
		reg[gangscheduling.Name] = runtime.FactoryAdapter(plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate), gangscheduling.New)
		names = append(names, gangscheduling.Name)
	}
	for _, name := range names {
		profile.Plugins.MultiPoint.Enabled = append(profile.Plugins.MultiPoint.Enabled, config.Plugin{Name: name, Weight: defaultWeight(name)})
		for _, a := range args {
			if a.Name == name {
				profile.PluginConfig = append(profile.PluginConfig, a)
			}
		}
	}
	u.cache = cache.New(ctx, nil, gangs, false)
	for _, n := range nodes {
		u.cache.AddNode(u.logger, n)
	}
	for _, p := range pods {
		if err := u.cache.AddPod(u.logger, p); err != nil {
			cancel()
			return nil, err
		}
	}
	u.snap = cache.NewEmptySnapshot()
	opts, err := upstream.ObjectOptions(upstream.ConvertObjects(objects))
	if err != nil {
		cancel()
		return nil, err
	}
	opts = append(opts, runtime.WithSnapshotSharedLister(u.snap), runtime.WithMutableSnapshotLister(u.snap), runtime.WithPodNominator(emptyNominator{}),
		runtime.WithParallelism(parallelism))
	if gangs {
		opts = append(opts, runtime.WithPodGroupManager(u.cache), runtime.WithPodActivator(noActivator{}), runtime.WithWaitingPods(runtime.NewWaitingPodsMap()))
	}
	u.fw, err = runtime.NewFramework(ctx, reg, profile, opts...)
	if err != nil {
		cancel()
		return nil, err
	}
	return u, nil
}

// Close stops the framework and the cache's goroutines.
func (u *upStream) Close() {
	u.cancel()
	_ = u.fw.Close()
}

// numFeasibleNodesToFind is schedulePod's sampling target.
func (u *upStream) numFeasibleNodesToFind(all int32) int32 {
	if all < 100 {
		return all
	}
	pct := u.pct
	if pct == 0 {
		pct = max(int32(50)-all/125, 5)
	}
	return max(all*pct/100, 100)
}

// upCycle is one cycle's outcome: the node, the nodes tied with it at
// the best total (all feasible nodes scored), or the fit error's
// diagnosis.
type upCycle struct {
	node     string
	tied     []string
	state    fwk.CycleState
	statuses *schedframework.NodeToStatus
}

var errUpNoFit = errors.New("upstream: no node fits")

// cycle is UpdateSnapshot and schedulePod for pod.
func (u *upStream) cycle(pod *v1.Pod, wantTied bool) (upCycle, error) {
	if err := u.cache.UpdateSnapshot(u.logger, u.snap); err != nil {
		return upCycle{}, err
	}
	return u.schedulePod(schedframework.NewCycleState(), pod, wantTied)
}

// schedulePod is schedulePod for pod on the current snapshot, with the
// cycle's state (a PodGroup cycle marks it as one of its pods').
func (u *upStream) schedulePod(state *schedframework.CycleState, pod *v1.Pod, wantTied bool) (upCycle, error) {
	ctx := u.ctx
	out := upCycle{state: state, statuses: schedframework.NewDefaultNodeToStatus()}
	all, err := u.snap.NodeInfos().List()
	if err != nil {
		return out, err
	}
	pre, st, _ := u.fw.RunPreFilterPlugins(ctx, state, pod)
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return out, st.AsError()
		}
		out.statuses.SetAbsentNodesStatus(st)
		return out, errUpNoFit
	}
	if nnn := pod.Status.NominatedNodeName; nnn != "" {
		if ni, err := u.snap.Get(nnn); err == nil {
			s := u.fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni)
			if s.IsSuccess() {
				out.node, out.tied = nnn, []string{nnn}
				return out, nil
			}
		}
	}
	nodes := all
	if !pre.AllNodes() {
		nodes = nodes[:0:0]
		for name := range pre.NodeNames {
			if ni, err := u.snap.Get(name); err == nil {
				nodes = append(nodes, ni)
			}
		}
		out.statuses.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "PreFilter"))
	}
	feasible, err := u.filter(ctx, state, pod, nodes, out.statuses)
	u.nextStart = (u.nextStart + len(feasible) + out.statuses.Len()) % len(all)
	if err != nil {
		return out, err
	}
	switch len(feasible) {
	case 0:
		return out, errUpNoFit
	case 1:
		out.node = feasible[0].Node().Name
		out.tied = []string{out.node}
		return out, nil
	}
	if st := u.fw.RunPreScorePlugins(ctx, state, pod, feasible); !st.IsSuccess() {
		return out, st.AsError()
	}
	scores, st := u.fw.RunScorePlugins(ctx, state, pod, feasible)
	if !st.IsSuccess() {
		return out, st.AsError()
	}
	if wantTied {
		best := scores[0].TotalScore
		for _, s := range scores {
			best = max(best, s.TotalScore)
		}
		for _, s := range scores {
			if s.TotalScore == best {
				out.tied = append(out.tied, s.Name)
			}
		}
	}
	out.node = schedframework.NewSortedScoredNodes(scores).Pop().Name
	return out, nil
}

// filter is findNodesThatPassFilters: Filter in parallel from the
// rotating start index until the sampling target is met.
func (u *upStream) filter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo, statuses *schedframework.NodeToStatus) ([]fwk.NodeInfo, error) {
	n := len(nodes)
	want := u.numFeasibleNodesToFind(int32(n))
	feasible := make([]fwk.NodeInfo, want)
	var found atomic.Int32
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		node   string
		status *fwk.Status
	}
	rejected := make([]*result, n)
	var failed atomic.Pointer[fwk.Status]
	u.fw.Parallelizer().Until(ctx, n, func(i int) {
		ni := nodes[(u.nextStart+i)%n]
		s := u.fw.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni)
		switch {
		case s.Code() == fwk.Error:
			failed.Store(s)
			cancel()
		case s.IsSuccess():
			if k := found.Add(1); k > want {
				cancel()
				found.Add(-1)
			} else {
				feasible[k-1] = ni
			}
		default:
			rejected[i] = &result{ni.Node().Name, s}
		}
	}, metrics.Filter)
	for _, r := range rejected {
		if r != nil {
			statuses.Set(r.node, r.status)
		}
	}
	if s := failed.Load(); s != nil {
		return nil, s.AsError()
	}
	return feasible[:found.Load()], nil
}

// place schedules pod as scheduleOne would and assumes it, returning its
// node ("" when it fits nowhere even by preempting). With want set (the
// lockstep check), the nodes tied at the best total (or, for a pod that
// preempts, the candidates alike the chosen one) are returned too, and
// want is taken instead of upstream's own pick when it is among them, so
// that both sides go on from the same cluster.
func (u *upStream) place(pod *v1.Pod, want string) (node string, tied []string, err error) {
	c, err := u.cycle(pod, want != "")
	if errors.Is(err, errUpNoFit) {
		alike, perr := u.preempt(pod, c)
		if perr != nil || len(alike) == 0 {
			return "", nil, perr
		}
		best := alike[0].node
		for _, a := range alike {
			tied = append(tied, a.node)
			if a.node == want {
				best = a.node
			}
		}
		for _, a := range alike {
			if a.node != best {
				continue
			}
			for _, v := range a.victims {
				if err := u.cache.RemovePod(u.logger, v); err != nil {
					return "", nil, err
				}
			}
		}
		pod = pod.DeepCopy()
		pod.Status.NominatedNodeName = best
		c, err = u.cycle(pod, false)
		c.tied = tied
	}
	if err != nil {
		return "", nil, err
	}
	if want != "" && slices.Contains(c.tied, want) {
		c.node = want
	}
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = c.node
	if err := u.cache.AssumePod(u.logger, assumed); err != nil {
		return "", nil, err
	}
	if st := u.fw.RunReservePluginsReserve(u.ctx, c.state, assumed, c.node); !st.IsSuccess() {
		return "", nil, st.AsError()
	}
	return c.node, c.tied, nil
}

// upCandidate is one preemption candidate: its node and victims.
type upCandidate struct {
	node    string
	victims []*v1.Pod
}

// preempt is DefaultPreemption's evaluation after a failed cycle: the
// chosen candidate first, then the candidates alike it under
// SelectCandidate's rules (no start times in these workloads); none when
// preemption cannot help.
func (u *upStream) preempt(pod *v1.Pod, c upCycle) ([]upCandidate, error) {
	ctx := u.ctx
	if ok, _ := u.pl.PodEligibleToPreemptOthers(ctx, pod, c.statuses.Get(pod.Status.NominatedNodeName)); !ok {
		return nil, nil
	}
	potential, err := c.statuses.NodesForStatusCode(u.snap.NodeInfos(), fwk.Unschedulable)
	if err != nil || len(potential) == 0 {
		return nil, err
	}
	offset, num := u.pl.GetOffsetAndNumCandidates(int32(len(potential)))
	cands, _, err := u.pl.Evaluator.DryRunPreemption(ctx, c.state, pod, potential, nil, offset, num)
	if len(cands) == 0 {
		return nil, err
	}
	best := u.pl.Evaluator.SelectCandidate(ctx, cands)
	key := func(c preemption.Candidate) [4]int64 {
		v := c.Victims()
		var sum int64
		for _, p := range v.Pods {
			sum += int64(corev1helpers.PodPriority(p))
		}
		return [4]int64{v.NumPDBViolations, int64(corev1helpers.PodPriority(v.Pods[0])), sum, int64(len(v.Pods))}
	}
	out := []upCandidate{{best.Name(), best.Victims().Pods}}
	for _, c := range cands {
		if c.Name() != best.Name() && key(c) == key(best) {
			out = append(out, upCandidate{c.Name(), c.Victims().Pods})
		}
	}
	return out, nil
}

// upstreamStreamSide converts a workload for upstream: nodes, initial
// pods, and the stream.
func upstreamStreamSide(w streamWorkload, stream []*api.Pod) ([]*v1.Node, []*v1.Pod, []*v1.Pod) {
	vn, vp := upstream.ConvertCluster(w.nodes, w.initPods)
	_, vs := upstream.ConvertCluster(nil, stream)
	return vn, vp, vs
}
