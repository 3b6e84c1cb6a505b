package scheduler

import (
	"context"
	"errors"
	"fmt"
	"github.com/schedkit/schedkit/admission"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
	"github.com/schedkit/schedkit/scheduler/internal/engine"
)

// Sampling constants, as kube-scheduler's.
const (
	// MinFeasibleNodesToFind is the fewest feasible nodes a cycle looks
	// for (all of them in smaller clusters).
	MinFeasibleNodesToFind = 100
	// MinFeasibleNodesPercentageToFind is the lowest percentage of nodes
	// the adaptive sampling goes down to.
	MinFeasibleNodesPercentageToFind = 5
	// DefaultPercentageOfNodesToScore is 0: adaptive, 50% minus 1% per 125
	// nodes, at least 5%.
	DefaultPercentageOfNodesToScore = 0
)

// ErrNoNodesAvailable is returned when the snapshot has no nodes.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// FitError is the error of a pod that fits no node; errors.As finds it in
// Schedule's error.
type FitError = framework.FitError

// GatedError is returned for a pod a PreEnqueue plugin holds back, such
// as SchedulingGates for a pod with spec.schedulingGates.
type GatedError struct {
	// Pod is the pod held back.
	Pod *api.Pod
	// Status is the PreEnqueue plugin's status; Status.Plugin() names it.
	Status *framework.Status
}

func (e *GatedError) Error() string {
	return fmt.Sprintf("pod %s/%s is not admitted to the scheduling queue by plugin %q: %s",
		e.Pod.Namespace, e.Pod.Name, e.Status.Plugin(), e.Status.Message())
}

type options struct {
	// unmodelled is WithUnmodelledFields's; sandboxOnly is a test hook:
	// WhyNot verifies every change to the cluster in the sandbox, so
	// that tests compare the two ways.
	unmodelled  func(*api.Pod) []string
	sandboxOnly bool

	profiles    []framework.ProfileConfig
	registry    framework.Registry
	percentage  int32
	parallelism int
	seed        uint64
	tieBreak    TieBreak
	checkEngine bool
	admission   *admission.Policies
	gates       featuregates.Gates
}

// WithFeatureGates sets the feature gates the scheduler follows, as
// kube-scheduler's --feature-gates: every profile's default plugins
// follow them (GangScheduling with GenericWorkload on), and with
// GenericWorkload on Simulate and RunQueue run PodGroup cycles (Schedule
// and Explain still judge one pod; ExplainGroup runs its group's cycle).
// A profile whose Features are set keeps them. The default is v1.37.2's
// defaults.
func WithFeatureGates(g featuregates.Gates) Option {
	return func(o *options) { o.gates = g }
}

// TieBreak says how a cycle picks among nodes of equal total score.
type TieBreak int

const (
	// TieBreakUpstream picks the node kube-scheduler v1.37 picks when no
	// extender scores: every node's Randomizer stays 0 and the winner is
	// the root of a container/heap built over the scores in filtering
	// order (schedulePod's NewSortedScoredNodes(...).Pop()). It is
	// deterministic and the default.
	TieBreakUpstream TieBreak = iota
	// TieBreakRandom gives each tied node a Randomizer drawn from the
	// source seeded by WithSeed, in node order, and the highest wins (what
	// kube-scheduler does when extenders score), so runs with one seed are
	// reproducible and ties spread across nodes.
	TieBreakRandom
)

// WithTieBreak chooses how ties between equally scored nodes are broken;
// the default is TieBreakUpstream.
func WithTieBreak(t TieBreak) Option {
	return func(o *options) { o.tieBreak = t }
}

// Option configures New.
type Option func(*options)

// WithProfiles sets the scheduling profiles; the default is one
// framework.ProfileConfig{} (kube-scheduler's default profile).
func WithProfiles(cfgs ...framework.ProfileConfig) Option {
	return func(o *options) { o.profiles = append([]framework.ProfileConfig(nil), cfgs...) }
}

// WithRegistry adds factories to (or replaces factories of)
// DefaultRegistry.
func WithRegistry(r framework.Registry) Option {
	return func(o *options) { maps.Copy(o.registry, r) }
}

// WithPlugin makes a plugin factory available to profiles under name.
func WithPlugin(name string, f framework.PluginFactory) Option {
	return func(o *options) { o.registry[name] = f }
}

// WithPercentageOfNodesToScore sets the share of nodes, in percent, whose
// feasibility a cycle looks for before scoring; 0 (the default) is
// kube-scheduler's adaptive sampling. Profiles may override it.
func WithPercentageOfNodesToScore(p int32) Option {
	return func(o *options) { o.percentage = p }
}

// WithParallelism sets the number of goroutines filtering and scoring
// use; the default (and any n < 1) is GOMAXPROCS.
func WithParallelism(n int) Option {
	return func(o *options) { o.parallelism = n }
}

// WithSeed seeds the source that breaks ties between equally scored
// nodes under TieBreakRandom, so that runs are reproducible; the default
// seed is 0. Under TieBreakUpstream (the default) ties are broken
// deterministically and the seed is unused.
func WithSeed(seed uint64) Option {
	return func(o *options) { o.seed = seed }
}

// WithEngineCheck makes every Schedule run both the engine and the
// plain cycle (cycle.go) and fail with an error describing the first
// difference in their outcomes (node, counts, next start index, error
// or diagnosis). It is a debugging aid: cycles cost about twice as much.
func WithEngineCheck(on bool) Option {
	return func(o *options) { o.checkEngine = on }
}

// Scheduler places pods on the nodes of a snapshot with kube-scheduler's
// algorithm. Its methods may be called from several goroutines; they are
// serialized, as kube-scheduler's scheduling cycles are. Close releases
// its helper goroutines.
type Scheduler struct {
	// opts are the options New was given, for the sandboxes the
	// what-ifs verify their answers in; unmodelled is opts.unmodelled.
	opts       options
	unmodelled func(*api.Pod) []string

	mu           sync.Mutex
	snapshot     *cluster.Snapshot
	profiles     map[string]*framework.Profile
	profileNames []string
	percentage   int32
	parallelism  int
	pcg          *rand.PCG // rng's source, copied to replay a draw
	rng          *rand.Rand
	tieBreak     TieBreak
	checkEngine  bool
	// admission admits new pods (WithAdmission); nil reads pods as
	// they are.
	admission *admission.Policies
	// gates are the feature gates (WithFeatureGates).
	gates featuregates.Gates
	// current is the queue being run when it is not q (Simulate's);
	// gangIdx counts the snapshot's pods per PodGroup.
	current *queue
	gangIdx gangIndex
	// plain is a test hook: Schedule runs the plain cycle (cycle.go)
	// instead of the engine, so that tests observe the definition.
	plain bool

	nextStartNodeIndex int
	// q is the scheduler's queue; nominated are the nominated pods of the
	// queue being run (q's, or Simulate's own).
	q         *queue
	nominated nominator

	// cfgs and registry made the profiles; a fork makes its own from
	// them. fork is the fork's tie to its origin (fork.go); version
	// counts the changes of the queue and the snapshot made through the
	// scheduler, so that Commit sees whether the origin changed.
	cfgs     []framework.ProfileConfig
	registry framework.Registry
	fork     *forkTie
	version  uint64
	// shared holds the values plugins share with forks (handle.Shared).
	shared *sharedValues

	// engine runs the fast cycles (internal/engine).
	engine *engine.Engine

	// per-cycle scratch of the engine's cycles, reused
	cycle    engine.Cycle
	diag     framework.Diagnosis
	selectFn func([]int64) int // s.selectTotals
	state    *framework.CycleState
	nts      *framework.NodeToStatus // nil once a FitError took it
	absent   *framework.Status       // the default status of absent nodes
	nodeList cluster.NodeList
}

// New returns a Scheduler deciding over snapshot. Assume adds pods to the
// snapshot, so the caller should not change it meanwhile.
func New(snapshot *cluster.Snapshot, opts ...Option) (*Scheduler, error) {
	if snapshot == nil {
		return nil, errors.New("scheduler: nil snapshot")
	}
	o := options{registry: DefaultRegistry()}
	for _, opt := range opts {
		opt(&o)
	}
	return newWithOptions(snapshot, o)
}

// newWithOptions is New with the options applied.
func newWithOptions(snapshot *cluster.Snapshot, o options) (*Scheduler, error) {
	if o.tieBreak != TieBreakUpstream && o.tieBreak != TieBreakRandom {
		return nil, fmt.Errorf("tie break %d is not TieBreakUpstream or TieBreakRandom", o.tieBreak)
	}
	if o.percentage < 0 || o.percentage > 100 {
		return nil, fmt.Errorf("percentageOfNodesToScore %d is not in [0, 100]", o.percentage)
	}
	if len(o.profiles) == 0 {
		o.profiles = []framework.ProfileConfig{{}}
	}
	s := &Scheduler{
		opts:        o,
		unmodelled:  o.unmodelled,
		snapshot:    snapshot,
		profiles:    map[string]*framework.Profile{},
		percentage:  o.percentage,
		tieBreak:    o.tieBreak,
		checkEngine: o.checkEngine,
		admission:   o.admission,
		gates:       o.gates,
		q:           newQueue(),
		cfgs:        o.profiles,
		registry:    registryFor(o.registry, o.gates),
		shared:      &sharedValues{m: map[string]any{}},
	}
	s.pcg, s.rng = newRand(o.seed)
	s.nominated = s.q.nominated
	if err := s.makeProfiles(); err != nil {
		return nil, err
	}
	s.engine = engine.New(o.parallelism)
	for _, name := range s.profileNames {
		s.engine.Prepare(s.profiles[name])
	}
	s.selectFn = s.selectTotals
	s.parallelism = s.engine.Parallelism()
	// The snapshot's view and the cycles' node list are made now, as
	// kube-scheduler's cache makes its snapshot's node list before a
	// cycle, so that the first cycle finds them; a change of the
	// snapshot before it costs that cycle only the parts it changed.
	s.nodeList.Update(snapshot.View())
	return s, nil
}

// registryFor is the registry the profiles are made from under gates g:
// base, with DynamicResources built with the gates its allocator reads.
// base is not changed.
func registryFor(base framework.Registry, g featuregates.Gates) framework.Registry {
	if !g.Enabled(featuregates.DRAFractionalCapacityRange) {
		return base
	}
	r := maps.Clone(base)
	r[dynamicresources.Name] = dynamicresources.NewWithOptions(dynamicresources.Options{Features: dra.Features{FractionalCapacityRange: true}})
	return r
}

// Close stops the scheduler's helper goroutines and waits for them to
// exit. The scheduler stays usable: later cycles run on the calling
// goroutine alone.
func (s *Scheduler) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.engine.Close()
}

// makeProfiles makes the scheduler's profiles from s.cfgs, their plugins
// bound to s.
func (s *Scheduler) makeProfiles() error {
	var queueSort, first string
	for _, cfg := range s.cfgs {
		if cfg.Features.IsDefault() {
			cfg.Features = s.gates
		}
		p, err := framework.NewProfile(cfg, s.registry, handle{s})
		if err != nil {
			return fmt.Errorf("creating profile for scheduler name %s: %w", profileName(cfg.SchedulerName), err)
		}
		if _, dup := s.profiles[p.Name()]; dup {
			return fmt.Errorf("duplicate profile with scheduler name %q", p.Name())
		}
		if queueSort == "" {
			queueSort, first = p.QueueSortName(), p.Name()
		} else if p.QueueSortName() != queueSort {
			return fmt.Errorf("different queue sort plugins for profile %q: %q, first: %q", p.Name(), p.QueueSortName(), queueSort+" (profile "+first+")")
		}
		s.profiles[p.Name()] = p
		s.profileNames = append(s.profileNames, p.Name())
	}
	return nil
}

func newRand(seed uint64) (*rand.PCG, *rand.Rand) {
	src := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	return src, rand.New(src)
}

func profileName(n string) string {
	if n == "" {
		return config.DefaultSchedulerName
	}
	return n
}

type handle struct{ s *Scheduler }

func (h handle) Snapshot() *cluster.Snapshot { return h.s.snapshot }

// Shared is framework.SharedValues: a scheduler and its forks share the
// values.
func (h handle) Shared(key string, build func() (any, error)) (any, error) {
	return h.s.shared.get(key, build)
}

// sharedValues are the values a scheduler's plugins share with its
// forks' (framework.SharedValues).
type sharedValues struct {
	mu sync.Mutex
	m  map[string]any
}

func (v *sharedValues) get(key string, build func() (any, error)) (any, error) {
	if v == nil {
		return build()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if x, ok := v.m[key]; ok {
		return x, nil
	}
	x, err := build()
	if err != nil {
		return nil, err
	}
	v.m[key] = x
	return x, nil
}

// FeatureGates returns the feature gates the scheduler follows.
func (s *Scheduler) FeatureGates() featuregates.Gates { return s.gates }

// Snapshot returns the snapshot the scheduler decides over.
func (s *Scheduler) Snapshot() *cluster.Snapshot { return s.snapshot }

// Profile returns the profile with the scheduler name ("" is the
// default).
func (s *Scheduler) Profile(schedulerName string) (*framework.Profile, bool) {
	p, ok := s.profiles[profileName(schedulerName)]
	return p, ok
}

// Profiles returns the profiles' scheduler names, in configuration order.
func (s *Scheduler) Profiles() []string { return slices.Clone(s.profileNames) }

func (s *Scheduler) profileFor(pod *api.Pod) (*framework.Profile, error) {
	p, ok := s.profiles[profileName(pod.Spec.SchedulerName)]
	if !ok {
		return nil, fmt.Errorf("profile not found for scheduler name %q", pod.Spec.SchedulerName)
	}
	return p, nil
}

// Decision is what one scheduling cycle decides for a pod: the node, or
// for a pod that fits nowhere the nomination PostFilter made. Schedule
// returns it; Explain returns it inside an Explanation, with every node
// and every plugin.
type Decision struct {
	// Node is the chosen node; empty on failure.
	Node string
	// Profile is the scheduler name of the profile used.
	Profile string
	// EvaluatedNodes is the number of nodes filtered: the feasible ones
	// plus those rejected.
	EvaluatedNodes int
	// FeasibleNodes is the number of nodes that passed Filter (at most
	// the sampling target).
	FeasibleNodes int
	// NominatedNode is the node PostFilter (preemption) nominated when
	// the pod fits nowhere.
	NominatedNode string
	// PostFilterResult is what PostFilter (preemption) returned when the
	// pod fits nowhere: the nominated node, the victims to evict and how
	// many PodDisruptionBudgets their evictions violate. An empty node
	// clears the pod's nomination. nil leaves it as it is: the profile
	// has no PostFilter plugin, or the pod is not eligible.
	PostFilterResult *framework.PostFilterResult
	// NotEvaluated are the plugins the profile names that this build
	// lacks; the decision was made without them.
	NotEvaluated []string
	// Unverified says why the decision may differ from kube-scheduler's,
	// one sentence each: the features the pod uses whose plugins are in
	// NotEvaluated (with the fields WithUnmodelledFields names), a pod
	// that fits no node while DefaultPreemption is missing, and the
	// extended resources it requests that DRA would decide. nil when
	// the decision is verified.
	Unverified []string
}

// Schedule runs one scheduling cycle for pod and returns the decision.
// It does not assume the pod; call Assume for that. A pod that fits no
// node gets a *FitError, a gated pod a *GatedError, a cancelled context
// its error. Filter and Score run in the fast engine, which decides
// exactly what the plain cycle (cycle.go) decides. Explain returns the
// same decision with every node and every plugin.
func (s *Scheduler) Schedule(ctx context.Context, pod *api.Pod) (Decision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	pod, err := s.admit(pod)
	if err != nil {
		return Decision{}, err
	}
	return s.schedule(ctx, pod)
}

// schedule runs one cycle: the engine (with WithEngineCheck, the engine
// and the plain cycle, compared; with the plain test hook, the plain
// cycle), then PostFilter when no node fits.
func (s *Scheduler) schedule(ctx context.Context, pod *api.Pod) (Decision, error) {
	return s.scheduleOne(ctx, pod, true)
}

// scheduleOne is schedule; without postFilter a pod that fits nowhere
// leaves with its FitError alone, as a PodGroup cycle's pods do (the
// group's PodGroupPostFilter runs instead).
func (s *Scheduler) scheduleOne(ctx context.Context, pod *api.Pod, postFilter bool) (Decision, error) {
	prof, err := s.profileFor(pod)
	if err != nil {
		return Decision{}, err
	}
	if st := prof.RunPreEnqueuePlugins(ctx, pod); !st.IsSuccess() {
		return Decision{Profile: prof.Name(), NotEvaluated: prof.NotEvaluated(), Unverified: s.unverified(prof, pod, false)}, &GatedError{Pod: pod, Status: st}
	}
	return s.scheduleQueued(ctx, prof, pod, postFilter)
}

// scheduleQueued is scheduleOne for a pod of prof that passed
// PreEnqueue when it joined the queue and cannot fail it since (a
// member of a PodGroup cycle: its group's counts only grow in the
// cycle), as upstream's scheduling cycle does not run PreEnqueue.
func (s *Scheduler) scheduleQueued(ctx context.Context, prof *framework.Profile, pod *api.Pod, postFilter bool) (Decision, error) {
	var err error
	var res Decision
	var state *framework.CycleState
	start := s.nextStartNodeIndex
	switch {
	case s.plain:
		state = framework.NewCycleState()
		res, s.nextStartNodeIndex, err = s.plainCycle(ctx, prof, state, pod, start, nil)
	case s.checkEngine:
		state = framework.NewCycleState()
		res, s.nextStartNodeIndex, err = s.checkedCycle(ctx, prof, state, pod, start)
	default:
		// The cycle's state is kept for the next cycle unless it leaves
		// with a FitError (PostFilter reads it).
		state = s.state
		if state == nil {
			state = framework.NewCycleState()
			s.state = state
		} else {
			state.Reset()
		}
		res, s.nextStartNodeIndex, err = s.engineCycle(ctx, prof, state, pod, start)
	}
	if err != nil {
		var fe *FitError
		if errors.As(err, &fe) {
			s.state = nil
			if postFilter && prof.HasPostFilterPlugins() {
				r, st := prof.RunPostFilterPlugins(ctx, state, pod, fe.Diagnosis.NodeToStatus)
				fe.Diagnosis.PostFilterMsg = st.Message()
				if r != nil {
					res.NominatedNode = r.NominatedNodeName
					res.PostFilterResult = r
				}
			}
		}
		res.Unverified = s.unverified(prof, pod, res.Outcome(err) == OutcomeUnschedulable)
		return res, err
	}
	res.Unverified = s.unverified(prof, pod, false)
	return res, nil
}

// engineCycle is plainCycle with Filter and Score run by the engine:
// the same PreFilter and nominated node, then engine.Run over the nodes
// PreFilter left.
func (s *Scheduler) engineCycle(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, start int) (Decision, int, error) {
	res := Decision{Profile: prof.Name(), NotEvaluated: prof.NotEvaluated()}
	view := s.snapshot.View()
	numAll := view.NumNodes()
	if numAll == 0 {
		return res, start, ErrNoNodesAvailable
	}
	if s.nts == nil {
		// A cycle that fails records a status for every node it
		// filtered: by the nodes' slots, in one slice sized for them
		// all when the first node is rejected (none while every node
		// fits). (A FitError takes it; a cycle that succeeds keeps it
		// for the next.)
		if s.absent == nil {
			s.absent = framework.NewStatus(framework.UnschedulableAndUnresolvable)
		}
		s.nts = framework.NewNodeToStatusFor(view, s.absent)
	} else {
		s.nts.ResetFor(view, s.absent)
	}
	s.diag = framework.Diagnosis{NodeToStatus: s.nts}
	diag := &s.diag
	fitError := func() error {
		s.nts = nil // the FitError takes it
		return &FitError{Pod: pod, NumAllNodes: numAll, Diagnosis: *diag}
	}
	// The cycle's node list, refreshed from the last cycle's: only the
	// nodes that changed since are copied.
	allNodes := s.nodeList.Update(view)
	nodes, done, err := s.preFilter(ctx, prof, state, pod, view, allNodes, diag, nil)
	if err != nil {
		return res, start, err
	}
	if done {
		return res, start, fitError()
	}
	if ni := s.nominatedNode(ctx, prof, state, pod, view, diag, nil); ni != nil {
		res.Node, res.EvaluatedNodes, res.FeasibleNodes = ni.Node().Name, 1, 1
		return res, start, nil
	}
	c := &s.cycle
	*c = engine.Cycle{
		Profile: prof, State: state, Pod: pod, Nodes: nodes, Start: start,
		NumToFind: s.numToFind(prof, len(nodes)), Nominated: s.nominated, Diagnosis: diag, Objects: view.Objects(),
		Eager: true, Select: s.selectFn,
	}
	out, err := s.engine.Run(ctx, c)
	*c = engine.Cycle{}
	next := (start + out.Feasible + out.Rejected) % numAll
	if out.Filtered && out.Feasible > 0 {
		res.EvaluatedNodes, res.FeasibleNodes = out.Feasible+out.Rejected, out.Feasible
	}
	if err != nil {
		return res, next, err
	}
	if out.Feasible == 0 {
		return res, next, fitError()
	}
	res.Node = out.Node.Node().Name
	return res, next, nil
}

// checkedCycle runs the plain cycle and the engine from the same start
// index and random source, and returns the engine's result, or an error
// wrapping errEngineMismatch that describes the first difference.
func (s *Scheduler) checkedCycle(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, start int) (Decision, int, error) {
	src := *s.pcg
	want, wantNext, wantErr := s.plainCycle(ctx, prof, framework.NewCycleState(), pod, start, nil)
	after := *s.pcg
	*s.pcg = src
	got, gotNext, gotErr := s.engineCycle(ctx, prof, state, pod, start)
	diff := func(what string, g, w any) (Decision, int, error) {
		return got, gotNext, fmt.Errorf("%w for pod %s/%s: %s: engine %v, plain %v", errEngineMismatch, pod.Namespace, pod.Name, what, g, w)
	}
	switch {
	case got.Node != want.Node:
		return diff("node", got.Node, want.Node)
	case got.FeasibleNodes != want.FeasibleNodes || got.EvaluatedNodes != want.EvaluatedNodes:
		return diff("feasible/evaluated nodes", [2]int{got.FeasibleNodes, got.EvaluatedNodes}, [2]int{want.FeasibleNodes, want.EvaluatedNodes})
	case gotNext != wantNext:
		return diff("next start index", gotNext, wantNext)
	case errString(gotErr) != errString(wantErr):
		return diff("error", gotErr, wantErr)
	case *s.pcg != after:
		return diff("random draws", "differ", "")
	}
	var gfe, wfe *FitError
	if errors.As(gotErr, &gfe) && errors.As(wantErr, &wfe) {
		g, w := statusMap(gfe.Diagnosis.NodeToStatus), statusMap(wfe.Diagnosis.NodeToStatus)
		if len(g) != len(w) {
			return diff("rejected nodes", len(g), len(w))
		}
		for n, st := range w {
			if !st.Equal(g[n]) {
				return diff("status of node "+n, g[n], st)
			}
		}
		if !slices.Equal(gfe.Diagnosis.SortedUnschedulablePlugins(), wfe.Diagnosis.SortedUnschedulablePlugins()) {
			return diff("unschedulable plugins", gfe.Diagnosis.SortedUnschedulablePlugins(), wfe.Diagnosis.SortedUnschedulablePlugins())
		}
	}
	return got, gotNext, gotErr
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// selectTotals is the engine's tie-break: selectHost over totals.
func (s *Scheduler) selectTotals(totals []int64) int { return s.selectHost(totals, nil) }

// numFeasibleNodesToFind is kube-scheduler's: all nodes below 100; else
// the percentage (the profile's, else the scheduler's; 0 means 50% minus
// 1% per 125 nodes, at least 5%) of the nodes, at least 100.
func (s *Scheduler) numFeasibleNodesToFind(profilePercentage *int32, numAllNodes int32) int32 {
	return numFeasibleNodesToFind(s.percentage, profilePercentage, numAllNodes)
}

func numFeasibleNodesToFind(global int32, profilePercentage *int32, numAllNodes int32) int32 {
	if numAllNodes < MinFeasibleNodesToFind {
		return numAllNodes
	}
	percentage := global
	if profilePercentage != nil {
		percentage = *profilePercentage
	}
	if percentage == 0 {
		percentage = int32(50) - numAllNodes/125
		if percentage < MinFeasibleNodesPercentageToFind {
			percentage = MinFeasibleNodesPercentageToFind
		}
	}
	n := numAllNodes * percentage / 100
	if n < MinFeasibleNodesToFind {
		return MinFeasibleNodesToFind
	}
	return n
}

// selectHost returns the index of the node with the highest total score;
// ties are broken as s.tieBreak says. scores, if given, get the
// Randomizers drawn under TieBreakRandom.
func (s *Scheduler) selectHost(totals []int64, scores []framework.NodePluginScores) int {
	if s.tieBreak == TieBreakUpstream {
		return s.heapRoot(totals)
	}
	best, ties := 0, 1
	for i := 1; i < len(totals); i++ {
		switch {
		case totals[i] > totals[best]:
			best, ties = i, 1
		case totals[i] == totals[best]:
			ties++
		}
	}
	if ties == 1 {
		return best
	}
	top := totals[best]
	best = -1
	var bestR int
	for i, t := range totals {
		if t != top {
			continue
		}
		r := int(s.rng.Int64())
		if scores != nil {
			scores[i].Randomizer = r
		}
		if best < 0 || r > bestR {
			best, bestR = i, r
		}
	}
	return best
}

// heapRoot returns the node upstream's heap pops first: the root after
// container/heap's Init over the scores in filtering order, where Less is
// a higher total (kube-scheduler's nodeScoreHeap with every Randomizer
// 0), so ties are resolved only by the heap's own sifting (0 for no
// totals, as selectHost has always returned).
//
// It sifts nothing: after Init, the root of a subtree is its own node
// when no node below it has a higher total, else the root of its right
// subtree when that subtree's highest total is strictly above the left
// one's, else the root of its left subtree. From the root down, that
// leads to the node with the highest total whose path from the root
// (left 0, right 1) is the lowest in lexicographic order, an ancestor
// before its descendants. Node i's path is the binary number i+1 without
// its leading 1, so of two such nodes i < j at depths di <= dj, i comes
// first unless i+1 > (j+1)>>(dj-di). One pass over the totals finds it.
func (s *Scheduler) heapRoot(totals []int64) int { return heapRootOf(totals) }

// heapRootOf is heapRoot, for the what-ifs that re-rank totals.
func heapRootOf(totals []int64) int {
	if len(totals) == 0 {
		return 0
	}
	best, top := 0, totals[0]
	bp, bd := uint64(1), 1 // node best's i+1 and its bit length
	for i := 1; i < len(totals); i++ {
		t := totals[i]
		if t < top {
			continue
		}
		p := uint64(i) + 1
		d := bits.Len64(p)
		if t > top {
			best, top, bp, bd = i, t, p, d
			continue
		}
		if bp > p>>(d-bd) {
			best, bp, bd = i, p, d
		}
	}
	return best
}
