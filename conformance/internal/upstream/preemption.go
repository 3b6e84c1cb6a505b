package upstream

import (
	"context"
	"fmt"
	"math"

	v1 "k8s.io/api/core/v1"
	policy "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	clientsetfake "k8s.io/client-go/kubernetes/fake"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	schedframework "k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/schedkit/schedkit/api"
	schedconfig "github.com/schedkit/schedkit/framework/config"
)

// PreemptionCandidate is one node where upstream's dry run found room.
type PreemptionCandidate struct {
	// Victims are the victims' names, most important first.
	Victims []string
	// NumPDBViolations is upstream's count.
	NumPDBViolations int64
}

// PreemptionAnswer is upstream's DefaultPreemption outcome for a pod that
// fits no node.
type PreemptionAnswer struct {
	// Fits is set when some node passed Filter (no preemption runs);
	// Node is then the pod's nominated node when it passed the filters
	// there (it is tried first), else "" (the nodes are not scored).
	Fits bool
	Node string
	// Message is the PostFilter status message ("preemption: ...").
	Message string
	// Code is the PostFilter status code.
	Code string
	// Nominated is the node upstream's SelectCandidate picked; empty
	// when none.
	Nominated string
	// Tied are the candidates equal to Nominated under all five of
	// upstream's rules: upstream picks among them in map order, so any
	// of them is upstream's answer.
	Tied []string
	// Candidates are every dry-run candidate, by node.
	Candidates map[string]PreemptionCandidate
	// NumCandidates is how many candidates the dry run looked for among
	// NumPotential potential nodes (0 when it did not run).
	NumCandidates, NumPotential int
}

// Preemption runs one upstream cycle of pod over the cluster with the
// plugins of the conformance table and DefaultPreemption (default
// arguments), and when no node passes Filter, DefaultPreemption's
// evaluation: PodEligibleToPreemptOthers, the potential nodes
// (NodesForStatusCode), DryRunPreemption over all of them with one worker
// and offset 0, and SelectCandidate. The glue between those exported
// steps (the messages of Evaluator.evaluate and DefaultPreemption's
// "preemption: " prefix) is restated here; actuation (API calls) is not
// run.
// nominated are pending pods nominated to nodes (status.nominatedNodeName),
// which the framework's nominator returns for their node, in order.
func Preemption(nodes []*api.Node, pods, nominated []*api.Pod, pdbs []*api.PodDisruptionBudget, pod *api.Pod) PreemptionAnswer {
	pf := NewPreemptionFrameworkWith(nodes, pods, nominated, pdbs, nil, 1)
	defer pf.Close()
	return pf.Run(MustConvert[v1.Pod](pod), true)
}

// PreemptionFramework is upstream's framework with the table's plugins
// and DefaultPreemption over one cluster, for repeated runs.
type PreemptionFramework struct {
	f      schedframework.Framework
	pl     *defaultpreemption.DefaultPreemption
	snap   *cache.Snapshot
	pdbs   []*policy.PodDisruptionBudget
	cancel context.CancelFunc
}

// Close stops the framework.
func (pf *PreemptionFramework) Close() {
	pf.cancel()
	_ = pf.f.Close()
}

// NewPreemptionFramework builds the framework (Filter and dry runs with
// the given parallelism).
func NewPreemptionFramework(nodes []*api.Node, pods []*api.Pod, pdbs []*api.PodDisruptionBudget, parallelism int) *PreemptionFramework {
	return NewPreemptionFrameworkWith(nodes, pods, nil, pdbs, nil, parallelism)
}

// NewPreemptionFrameworkWith is NewPreemptionFramework with pods
// nominated to nodes (the framework's PodNominator returns them) and
// DefaultPreemption's arguments (nil: the defaults).
func NewPreemptionFrameworkWith(nodes []*api.Node, pods, nominated []*api.Pod, pdbs []*api.PodDisruptionBudget, args *schedconfig.DefaultPreemptionArgs, parallelism int) *PreemptionFramework {
	ctx, cancel := context.WithCancel(context.Background())
	metrics.Register()
	vn, vp := ConvertCluster(nodes, pods)
	var vpdbs []*policy.PodDisruptionBudget
	for _, b := range pdbs {
		vpdbs = append(vpdbs, MustConvert[policy.PodDisruptionBudget](b))
	}
	var pl *defaultpreemption.DefaultPreemption
	reg := runtime.Registry{queuesort.Name: queuesort.New, defaultbinder.Name: defaultbinder.New,
		defaultpreemption.Name: func(ctx context.Context, obj k8sruntime.Object, fh fwk.Handle) (fwk.Plugin, error) {
			p, err := defaultpreemption.New(ctx, obj, fh, fts)
			pl = p
			return p, err
		}}
	profile := &config.KubeSchedulerProfile{SchedulerName: "default-scheduler", Plugins: &config.Plugins{
		QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: queuesort.Name}}},
		Bind:      config.PluginSet{Enabled: []config.Plugin{{Name: defaultbinder.Name}}},
	}}
	defaults, err := DefaultPluginConfig()
	if err != nil {
		panic(err)
	}
	names := append(PluginNames(), defaultpreemption.Name)
	for _, p := range Plugins {
		reg[p.Name] = p.Factory
	}
	for _, name := range names {
		profile.Plugins.MultiPoint.Enabled = append(profile.Plugins.MultiPoint.Enabled, config.Plugin{Name: name})
		for _, a := range defaults {
			if a.Name != name {
				continue
			}
			if name == defaultpreemption.Name && args != nil {
				dpa := *a.Args.(*config.DefaultPreemptionArgs)
				if args.MinCandidateNodesPercentage != nil {
					dpa.MinCandidateNodesPercentage = *args.MinCandidateNodesPercentage
				}
				if args.MinCandidateNodesAbsolute != nil {
					dpa.MinCandidateNodesAbsolute = *args.MinCandidateNodesAbsolute
				}
				a.Args = &dpa
			}
			profile.PluginConfig = append(profile.PluginConfig, a)
		}
	}
	snap := cache.NewSnapshot(vp, vn)
	factory := informers.NewSharedInformerFactory(clientsetfake.NewClientset(), 0)
	f, err := runtime.NewFramework(ctx, reg, profile, runtime.WithSnapshotSharedLister(snap),
		runtime.WithMutableSnapshotLister(snap), runtime.WithPodNominator(newNominator(nominated)), runtime.WithInformerFactory(factory), runtime.WithParallelism(parallelism))
	if err != nil {
		cancel()
		panic(err)
	}
	return &PreemptionFramework{f: f, pl: pl, snap: snap, pdbs: vpdbs, cancel: cancel}
}

// Run is one failed cycle of vpod and DefaultPreemption's evaluation
// (see Preemption); without detail, Candidates and Tied are left out.
func (pf *PreemptionFramework) Run(vpod *v1.Pod, detail bool) PreemptionAnswer {
	ctx := context.Background()
	f, pl, snap, vpdbs := pf.f, pf.pl, pf.snap, pf.pdbs
	// The failed cycle: PreFilter, then Filter on every node.
	state := schedframework.NewCycleState()
	allNodes, _ := snap.NodeInfos().List()
	m := schedframework.NewDefaultNodeToStatus()
	res, st, _ := f.RunPreFilterPlugins(ctx, state, vpod)
	switch {
	case st.Code() == fwk.Error:
		return PreemptionAnswer{Code: "Error", Message: st.Message()}
	case !st.IsSuccess():
		m.SetAbsentNodesStatus(st)
	default:
		// The nominated node first (schedulePod's evaluateNominatedNode):
		// if it passes the filters, the pod goes there; a rejection stays
		// in the statuses unless the pass over the nodes filters it again.
		if nnn := vpod.Status.NominatedNodeName; nnn != "" {
			if ni, err := snap.NodeInfos().Get(nnn); err == nil {
				s := f.RunFilterPluginsWithNominatedPods(ctx, state, vpod, ni)
				if s.IsSuccess() {
					return PreemptionAnswer{Fits: true, Node: nnn}
				}
				if s.IsRejected() {
					m.Set(nnn, s)
				}
			}
		}
		for _, ni := range allNodes {
			if !res.AllNodes() && !res.NodeNames.Has(ni.Node().Name) {
				continue
			}
			s := f.RunFilterPluginsWithNominatedPods(ctx, state, vpod, ni)
			if s.IsSuccess() {
				return PreemptionAnswer{Fits: true}
			}
			m.Set(ni.Node().Name, s)
		}
	}

	out := PreemptionAnswer{Code: fwk.Unschedulable.String()}
	prefix := func(s string) string { return "preemption: " + s }
	if ok, msg := pl.PodEligibleToPreemptOthers(ctx, vpod, m.Get(vpod.Status.NominatedNodeName)); !ok {
		out.Message = prefix(msg)
		return out
	}
	potential, err := m.NodesForStatusCode(snap.NodeInfos(), fwk.Unschedulable)
	if err != nil {
		panic(err)
	}
	var candidates []preemption.Candidate
	statuses := schedframework.NewDefaultNodeToStatus()
	if len(potential) > 0 {
		// Upstream draws the offset at random; these runs start at 0.
		_, num := pl.GetOffsetAndNumCandidates(int32(len(potential)))
		out.NumCandidates, out.NumPotential = int(num), len(potential)
		var derr error
		candidates, statuses, derr = pl.Evaluator.DryRunPreemption(ctx, state, vpod, potential, vpdbs, 0, num)
		if derr != nil && len(candidates) == 0 {
			return PreemptionAnswer{Code: "Error", Message: prefix(derr.Error())}
		}
	}
	if len(candidates) == 0 {
		fe := &schedframework.FitError{Pod: vpod, NumAllNodes: len(allNodes), Diagnosis: schedframework.Diagnosis{NodeToStatus: statuses}}
		fe.Diagnosis.NodeToStatus.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "Preemption is not helpful for scheduling"))
		out.Message = prefix(fe.Error())
		return out
	}
	out.Candidates = map[string]PreemptionCandidate{}
	for _, c := range candidates {
		pc := PreemptionCandidate{NumPDBViolations: c.Victims().NumPDBViolations}
		for _, p := range c.Victims().Pods {
			pc.Victims = append(pc.Victims, p.Name)
		}
		out.Candidates[c.Name()] = pc
	}
	best := pl.Evaluator.SelectCandidate(ctx, candidates)
	out.Nominated, out.Code = best.Name(), fwk.Success.String()
	out.Message = prefix(fmt.Sprintf("found a potential placement for pod on node %v, preempting %d victims", best.Name(), len(best.Victims().Pods)))
	if !detail {
		out.Candidates = nil
		return out
	}
	key := func(c preemption.Candidate) [5]int64 {
		v := c.Victims()
		var sum int64
		for _, p := range v.Pods {
			sum += int64(corev1helpers.PodPriority(p)) + int64(math.MaxInt32+1)
		}
		start := int64(math.MaxInt64) // a missing start time is "now", after all others
		if t := earliestStart(v.Pods); t != nil {
			start = t.UnixNano()
		}
		return [5]int64{-v.NumPDBViolations, -int64(corev1helpers.PodPriority(v.Pods[0])), -sum, -int64(len(v.Pods)), start}
	}
	bk := key(best)
	for _, c := range candidates {
		if key(c) == bk {
			out.Tied = append(out.Tied, c.Name())
		}
	}
	return out
}

// earliestStart is util.GetEarliestPodStartTime without its time.Now for
// pods that have not started: nil when no highest-priority victim has a
// start time.
func earliestStart(pods []*v1.Pod) *metav1.Time {
	var earliest *metav1.Time
	maxPrio := corev1helpers.PodPriority(pods[0])
	for _, p := range pods {
		pr := corev1helpers.PodPriority(p)
		if pr > maxPrio {
			maxPrio, earliest = pr, nil
		}
		if pr == maxPrio && p.Status.StartTime != nil && (earliest == nil || p.Status.StartTime.Before(earliest)) {
			earliest = p.Status.StartTime
		}
	}
	return earliest
}

// fixedNominator is a PodNominator holding a fixed set of nominated pods
// (what the scheduling queue's nominator holds for the pending pods with
// status.nominatedNodeName), by node in the order given.
type fixedNominator map[string][]fwk.PodInfo

func newNominator(pods []*api.Pod) fixedNominator {
	n := fixedNominator{}
	for _, p := range pods {
		vp := MustConvert[v1.Pod](p)
		if vp.Status.NominatedNodeName == "" {
			continue
		}
		pi, err := schedframework.NewPodInfo(vp)
		if err != nil {
			panic(err)
		}
		n[vp.Status.NominatedNodeName] = append(n[vp.Status.NominatedNodeName], pi)
	}
	return n
}

func (fixedNominator) AddNominatedPod(klog.Logger, fwk.PodInfo, *fwk.NominatingInfo) {}
func (fixedNominator) DeleteNominatedPodIfExists(*v1.Pod)                            {}
func (fixedNominator) UpdateNominatedPod(klog.Logger, *v1.Pod, fwk.PodInfo)          {}
func (n fixedNominator) NominatedPodsForNode(node string) []fwk.PodInfo              { return n[node] }
