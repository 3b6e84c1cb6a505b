package scheduler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	mbits "math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
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
	profiles    []framework.ProfileConfig
	registry    framework.Registry
	percentage  int32
	parallelism int
	seed        uint64
	tieBreak    TieBreak
	diagnose    bool
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

// WithDiagnosis makes every Result carry the plugins' scores, as
// ScheduleWithDiagnosis does.
func WithDiagnosis(on bool) Option {
	return func(o *options) { o.diagnose = on }
}

// Scheduler places pods on the nodes of a snapshot with kube-scheduler's
// algorithm. Its methods may be called from several goroutines; they are
// serialized, as kube-scheduler's scheduling cycles are.
type Scheduler struct {
	mu           sync.Mutex
	snapshot     *cluster.Snapshot
	profiles     map[string]*framework.Profile
	profileNames []string
	percentage   int32
	parallelism  int
	rng          *rand.Rand
	tieBreak     TieBreak
	diagnose     bool

	nextStartNodeIndex int
	// q is the scheduler's queue; nominated are the nominated pods of the
	// queue being run (q's, or Simulate's own).
	q         *queue
	nominated nominator

	// minParallelNodes is the package's constant; tests lower it.
	minParallelNodes int

	// The cycle's eager scoring (see findNodesThatPassFilters).
	eager eagerRun

	// per-cycle scratch, reused
	state      *framework.CycleState
	scoreState *framework.CycleState   // eager scoring's child of state
	nts        *framework.NodeToStatus // nil once a FitError took it
	absent     *framework.Status       // the default status of absent nodes
	nodeList   cluster.NodeList
	scoreBuf   framework.ScoreBuffer
	filter     filterScratch
	one        [1]*cluster.NodeInfo
	heap       scoreHeap
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
		snapshot:    snapshot,
		profiles:    map[string]*framework.Profile{},
		percentage:  o.percentage,
		parallelism: framework.NewParallelizer(o.parallelism).Parallelism(),
		rng:         newRand(o.seed),
		tieBreak:    o.tieBreak,
		diagnose:    o.diagnose,
		q:           newQueue(),

		minParallelNodes: minParallelNodes,
	}
	s.nominated = s.q.nominated
	var queueSort, first string
	for _, cfg := range o.profiles {
		p, err := framework.NewProfile(cfg, o.registry, handle{s}, framework.WithParallelism(s.parallelism))
		if err != nil {
			return nil, fmt.Errorf("creating profile for scheduler name %s: %w", profileName(cfg.SchedulerName), err)
		}
		if _, dup := s.profiles[p.Name()]; dup {
			return nil, fmt.Errorf("duplicate profile with scheduler name %q", p.Name())
		}
		if queueSort == "" {
			queueSort, first = p.QueueSortName(), p.Name()
		} else if p.QueueSortName() != queueSort {
			return nil, fmt.Errorf("different queue sort plugins for profile %q: %q, first: %q", p.Name(), p.QueueSortName(), queueSort+" (profile "+first+")")
		}
		s.profiles[p.Name()] = p
		s.profileNames = append(s.profileNames, p.Name())
	}
	return s, nil
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

func profileName(n string) string {
	if n == "" {
		return framework.DefaultSchedulerName
	}
	return n
}

type handle struct{ s *Scheduler }

// minParallelNodes is the fewest nodes a cycle shares the filtering of
// with helper goroutines: below it, handing chunks between CPUs (each
// hand-over moves a few cache lines between them, about 250 ns each on
// the 2-vCPU machine BENCHMARKS.md describes) costs more than it saves.
// The cycle's goroutine filters one chunk, then offers the rest (with
// eager scoring, it offers the pass at once, and the helpers score the
// chunks they filter). A separate score pass has its own threshold,
// framework's minParallelPieces, higher because it is a hand-over of its
// own.
const minParallelNodes = 256

// eagerChunk is the chunk size of a parallel filtering pass that also
// scores (findNodesThatPassFilters): a chunk then costs about 40 ns a
// node, so that 64 nodes are some 2.5 µs, long enough next to handing
// out a chunk (a cache line between CPUs) and short enough that the
// goroutines finish close together.
const eagerChunk = 64

func (h handle) Snapshot() *cluster.Snapshot { return h.s.snapshot }

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

// Result is the outcome of a scheduling cycle.
type Result struct {
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
	// many PodDisruptionBudgets their evictions violate; an empty node
	// clears the pod's nomination, and nil (no PostFilter plugin, or an
	// ineligible pod) leaves it as it is.
	PostFilterResult *framework.PostFilterResult
	// Scores are every score plugin's raw, normalised and weighted score
	// of each feasible node, in filtering order, with diagnosis only.
	// Empty when a single node was feasible: kube-scheduler does not
	// score then.
	Scores []framework.NodePluginScores
	// NotEvaluated are the plugins the profile names that this build
	// lacks; the decision was made without them.
	NotEvaluated []string
}

// Schedule runs one scheduling cycle for pod and returns the chosen node.
// It does not assume the pod; call Assume for that. A pod that fits no
// node gets a *FitError, a gated pod a *GatedError.
func (s *Scheduler) Schedule(ctx context.Context, pod *api.Pod) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.schedule(ctx, pod, s.diagnose)
}

// ScheduleWithDiagnosis is Schedule with Result.Scores filled in.
func (s *Scheduler) ScheduleWithDiagnosis(ctx context.Context, pod *api.Pod) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.schedule(ctx, pod, true)
}

func (s *Scheduler) schedule(ctx context.Context, pod *api.Pod, diagnose bool) (Result, error) {
	prof, err := s.profileFor(pod)
	if err != nil {
		return Result{}, err
	}
	res := Result{Profile: prof.Name(), NotEvaluated: prof.NotEvaluated()}
	if st := prof.RunPreEnqueuePlugins(ctx, pod); !st.IsSuccess() {
		return res, &GatedError{Pod: pod, Status: st}
	}
	// The cycle's state and diagnosis are kept for the next cycle unless
	// they leave it (with a FitError).
	state := s.state
	if state == nil {
		state = framework.NewCycleState()
		s.state = state
	} else {
		state.Reset()
	}
	if err := s.schedulePod(ctx, prof, state, pod, &res, diagnose); err != nil {
		s.state = nil
		var fe *FitError
		if errors.As(err, &fe) && prof.HasPostFilterPlugins() {
			r, st := prof.RunPostFilterPlugins(ctx, state, pod, fe.Diagnosis.NodeToStatus)
			fe.Diagnosis.PostFilterMsg = st.Message()
			if r != nil {
				res.NominatedNode = r.NominatedNodeName
				res.PostFilterResult = r
			}
		}
		return res, err
	}
	return res, nil
}

// schedulePod is kube-scheduler's schedulePod: filter, then score unless
// a single node is feasible, then pick the best.
func (s *Scheduler) schedulePod(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, res *Result, diagnose bool) error {
	view := s.snapshot.View()
	numAll := view.NumNodes()
	if numAll == 0 {
		return ErrNoNodesAvailable
	}
	s.eager = eagerRun{}
	feasible, diag, nrej, err := s.findNodesThatFitPod(ctx, prof, state, pod, view, !diagnose)
	eager := s.eager
	s.eager = eagerRun{}
	numFeasible := len(feasible) + eager.fit
	if eager.run != nil && (err != nil || numFeasible < 2) {
		eager.run.Discard()
		eager.run = nil
	}
	if err != nil {
		return err
	}
	if numFeasible == 0 {
		s.nts = nil // the FitError takes it
		return &FitError{Pod: pod, NumAllNodes: numAll, Diagnosis: diag}
	}
	res.EvaluatedNodes = numFeasible + nrej
	res.FeasibleNodes = numFeasible
	if numFeasible == 1 {
		res.Node = feasible[0].Node().Name
		return nil
	}
	var totals []int64
	var scores []framework.NodePluginScores
	var best, ties int
	if run := eager.run; run != nil {
		// The nodes were scored as they passed Filter, each chunk's
		// summed with its own highest scores; sum again the chunks whose
		// highest scores were not the cycle's.
		if run.Normalize() {
			for c := range run.Chunks() {
				run.Sum(c)
			}
		}
		var st *framework.Status
		if best, ties, st = run.Finish(); !st.IsSuccess() {
			return st.AsError()
		}
		if ties != 1 {
			best = s.selectHost(run.Totals(), nil)
		}
		if eager.fit > 0 {
			res.Node = run.Node(best).Node().Name
		} else {
			res.Node = feasible[best].Node().Name
		}
		return nil
	}
	if totals, scores, best, ties, err = s.prioritizeNodes(ctx, prof, state, pod, feasible, diagnose); err != nil {
		return err
	}
	if ties != 1 {
		best = s.selectHost(totals, scores)
	}
	res.Node = feasible[best].Node().Name
	if diagnose {
		res.Scores = cloneScores(scores)
	}
	return nil
}

// eagerRun is a cycle's eager scoring: run scored the nodes as they
// passed Filter. When fit is not 0, the list of feasible nodes was not
// built: fit nodes passed, and run.Node gives them.
type eagerRun struct {
	run *framework.ScoreRun
	fit int
}

// findNodesThatFitPod runs PreFilter, the nominated node and then Filter
// over the nodes from the rotating start index; eager allows scoring
// nodes as they pass (findNodesThatPassFilters).
func (s *Scheduler) findNodesThatFitPod(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, view *cluster.View, eager bool) ([]*cluster.NodeInfo, framework.Diagnosis, int, error) {
	if s.nts == nil {
		s.nts = framework.NewDefaultNodeToStatus()
		s.absent = s.nts.AbsentNodesStatus()
	} else {
		s.nts.Reset(s.absent)
	}
	diag := framework.Diagnosis{NodeToStatus: s.nts}
	// The cycle's node list, refreshed from the last cycle's: only the
	// nodes that changed since are copied.
	allNodes := s.nodeList.Update(view)
	preRes, st, unschedPlugins := prof.RunPreFilterPlugins(ctx, state, pod, allNodes)
	diag.UnschedulablePlugins = unschedPlugins
	if !st.IsSuccess() {
		if !st.IsRejected() {
			return nil, diag, 0, st.AsError()
		}
		diag.NodeToStatus.SetAbsentNodesStatus(st)
		diag.PreFilterMsg = st.Message()
		diag.AddPluginStatus(st)
		return nil, diag, 0, nil
	}

	if nnn := pod.Status.NominatedNodeName; nnn != "" {
		if ni, ok := view.Get(nnn); ok {
			s.one[0] = ni
			feasible, nrej, err := s.findNodesThatPassFilters(ctx, prof, state, pod, &diag, s.one[:], false)
			// An error on the nominated node is ignored, as upstream
			// logs it and goes on with all nodes.
			if err == nil && len(feasible) != 0 {
				return feasible, diag, nrej, nil
			}
		}
	}

	nodes := allNodes
	if !preRes.AllNodes() {
		names := make([]string, 0, len(preRes.NodeNames))
		for n := range preRes.NodeNames {
			names = append(names, n)
		}
		sort.Strings(names)
		nodes = make([]*cluster.NodeInfo, 0, len(names))
		for _, n := range names {
			if ni, ok := view.Get(n); ok {
				nodes = append(nodes, ni)
			}
		}
		diag.NodeToStatus.SetAbsentNodesStatus(framework.NewStatus(framework.UnschedulableAndUnresolvable,
			fmt.Sprintf("node(s) didn't satisfy plugin(s) %v", diag.SortedUnschedulablePlugins())))
	}
	feasible, nrej, err := s.findNodesThatPassFilters(ctx, prof, state, pod, &diag, nodes, eager)
	// Advance the start index even on error, so that every node gets its
	// turn.
	processed := len(feasible) + s.eager.fit + nrej
	s.nextStartNodeIndex = (s.nextStartNodeIndex + processed) % len(allNodes)
	if err != nil {
		return nil, diag, 0, err
	}
	return feasible, diag, nrej, nil
}

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

// filterScratch is a filtering pass's memory, kept from cycle to cycle. A
// pass records its outcome compactly, one bit per node that passed and
// the number of the pass for each chunk that ran, and nothing is cleared
// between passes: the cycle's goroutine reads little of what helpers
// wrote and writes nothing they write next time, since on many machines a
// cache line moving between CPUs costs more than filtering a node.
type filterScratch struct {
	passBits  []uint64 // per chunk, bitStride words: bit i, the chunk's node i passed every filter
	chunkPass []uint32 // per chunk, at c*passStride: the number of the pass that last ran it
	pass      uint32
	status    []*framework.Status // the status of each node that did not pass
	chunkCnt  []int32
	chunkEnd  []bool
	feasible  []*cluster.NodeInfo
	pos       []*cluster.NodeInfo // eager scoring: each chunk's passing nodes first
	job       filterJob
	helpers   framework.HelpGroup
}

// findNodesThatPassFilters filters nodes from the rotating start index
// until numFeasibleNodesToFind nodes fit. Nodes are filtered in parallel
// chunks, but the outcome is that of kube-scheduler with one goroutine:
// the first nodes to fit in rotation order, and the rejected nodes met
// before the next fitting one, recorded in diag.
//
// With eager set, when every node is to be filtered (so every node that
// passes is scored), no pod is nominated and the profile's scoring
// plugins allow it (framework.Profile.ScoresEagerly), it scores each
// chunk's passing nodes right after filtering the chunk, on the same
// goroutine, while their data is in its cache; the run is left in
// s.eager. PreScore runs first, into a child of the cycle's state, while
// helpers already filter; a helper scores its chunks once the run is
// published. Upstream runs PreScore after Filter and only when two or
// more nodes fit; for such plugins that makes no difference, and a
// PreScore that fails here runs again in its place (the cycle then
// scores after Filter), which reports it as upstream does.
func (s *Scheduler) findNodesThatPassFilters(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, diag *framework.Diagnosis, nodes []*cluster.NodeInfo, eager bool) ([]*cluster.NodeInfo, int, error) {
	numAll := len(nodes)
	numToFind := int(s.numFeasibleNodesToFind(prof.PercentageOfNodesToScore(), int32(numAll)))
	if !prof.HasScorePlugins() {
		numToFind = 1
	}
	fs := &s.filter
	feasible := fs.feasible[:0]
	if numAll == 0 {
		return feasible, 0, nil
	}
	numToFind = min(numToFind, numAll)
	start := s.nextStartNodeIndex
	if !prof.HasFilterPlugins() {
		for i := range numToFind {
			feasible = append(feasible, nodes[(start+i)%numAll])
		}
		fs.feasible = feasible
		return feasible, 0, nil
	}

	eager = eager && numToFind == numAll && numAll > 1 && len(s.nominated) == 0 && prof.ScoresEagerly()
	par := s.parallelism
	chunk := framework.NodeChunkSize(numAll, par) // a multiple of 64
	helpers := 0
	if numAll >= s.minParallelNodes {
		helpers = min(par, (numAll+chunk-1)/chunk) - 1
	} else if numToFind == numAll {
		// One goroutine filtering every node: chunks would only add
		// their cost.
		chunk = framework.MaxNodeChunk
	}
	if helpers > 0 && eager {
		chunk = min(chunk, max(eagerChunk, (numAll/(8*par)+63)&^63))
		helpers = min(par, (numAll+chunk-1)/chunk) - 1
	}
	chunks := (numAll + chunk - 1) / chunk
	stride := bitStride(chunk)
	fs.status = framework.GrowAligned(fs.status, numAll)
	fs.passBits = framework.GrowAligned(fs.passBits, chunks*stride)
	if cap(fs.chunkCnt) < chunks {
		fs.chunkCnt = make([]int32, chunks)
		fs.chunkEnd = make([]bool, chunks)
	}
	if cap(fs.chunkPass) < chunks*passStride {
		fs.chunkPass = framework.GrowAligned(fs.chunkPass, chunks*passStride)
	}
	status, passBits := fs.status[:numAll], fs.passBits[:chunks*stride]
	chunkCnt, chunkEnd, chunkPass := fs.chunkCnt[:chunks], fs.chunkEnd[:chunks], fs.chunkPass[:chunks*passStride]
	clear(chunkEnd)
	if fs.pass++; fs.pass == 0 {
		clear(fs.chunkPass[:cap(fs.chunkPass)])
		fs.pass = 1
	}
	pass := fs.pass

	// With eager scoring, helpers are offered the pass at once (they
	// filter while PreScore runs); otherwise once the calling goroutine
	// has filtered a chunk, so that a pass that finds its nodes quickly
	// stays on one goroutine.
	offerLater := helpers
	if eager {
		fs.pos = framework.GrowAligned(fs.pos, numAll)
		offerLater = 0
	}
	j := &fs.job
	*j = filterJob{
		prof: prof, ctx: ctx, state: state, pod: pod, nodes: nodes, nominated: s.nominated, done: ctx.Done(),
		start: start, numToFind: numToFind, chunk: chunk, chunks: chunks,
		passBits: passBits, stride: stride, chunkPass: chunkPass, pass: pass, status: status, chunkCnt: chunkCnt, chunkEnd: chunkEnd,
		helpersWanted: offerLater, helpAfter: chunk, helpers: &fs.helpers,
		fromBack: numToFind == numAll, eager: eager, pos: fs.pos,
	}
	j.limit.Store(int64(numAll))
	j.firstFailed.Store(int64(numAll))
	j.deal.Reset(chunks)
	var run *framework.ScoreRun
	if eager {
		// Helpers start filtering now; they score once the run is
		// published.
		if helpers > 0 {
			framework.OfferHelp(j, helpers, j.helpers)
		}
		run = s.startEagerScoring(ctx, prof, state, pod, nodes, chunk, j)
	}
	j.run(true)
	j.helpers.Wait()

	if run != nil && j.firstFailed.Load() == int64(numAll) && ctx.Err() == nil {
		// Every node was filtered, and those that passed scored: unless
		// fewer than two passed (the cycle then needs the node, or the
		// diagnosis), only their number is needed.
		fit := 0
		for c := range chunks {
			if chunkPass[c*passStride] != pass {
				fit = -1 // not run
				break
			}
			for _, w := range passBits[c*stride : c*stride+(min(chunk, numAll-c*chunk)+63)>>6] {
				fit += mbits.OnesCount64(w)
			}
		}
		if fit >= 2 {
			*j = filterJob{}
			s.eager = eagerRun{run: run, fit: fit}
			return feasible, numAll - fit, nil
		}
	}

	var err error
	last := int(min(j.limit.Load(), int64(numAll-1)))
	// The rejected nodes are only counted here: a cycle that finds a
	// node drops its diagnosis, so the per-node statuses are recorded
	// only when none fits (or when the nominated node's pass already
	// recorded one, which the count must not take twice).
	nrej, stop := 0, last+1
	firstFailed := int(j.firstFailed.Load())
	// ni is the index in nodes of the i-th node in rotation order, c
	// the chunk that begins at nextChunk, and words the pass bits of the
	// chunk that begins at base; they advance without a division per
	// node.
	ni, c, nextChunk, base := start%numAll, 0, 0, 0
	var words []uint64
	for i := 0; i <= last; i, ni = i+1, ni+1 {
		if ni == numAll {
			ni = 0
		}
		if i == nextChunk {
			if chunkPass[c*passStride] != pass {
				stop = i // not run
				break
			}
			words, base = passBits[c*stride:(c+1)*stride], i
			c, nextChunk = c+1, nextChunk+chunk
		}
		if i == firstFailed {
			err = status[i].AsError()
			stop = i
			break
		}
		if off := i - base; words[off>>6]&(1<<(off&63)) == 0 {
			nrej++
			continue
		}
		if len(feasible) == numToFind {
			stop = i
			break
		}
		// Left as is when the last cycle put the same node there: a
		// write would take the line from the CPUs that read it.
		if nd, k := nodes[ni], len(feasible); k < cap(feasible) && feasible[:k+1][k] == nd {
			feasible = feasible[:k+1]
		} else {
			feasible = append(feasible, nd)
		}
	}
	rejectedCount := nrej
	if len(feasible) == 0 || diag.NodeToStatus.Len() > 0 {
		for i := range stop {
			if !j.passed(i) {
				diag.NodeToStatus.Set(nodes[(start+i)%numAll].Node().Name, status[i])
				diag.AddPluginStatus(status[i])
			}
		}
		rejectedCount = diag.NodeToStatus.Len()
	}
	*j = filterJob{}
	fs.feasible = feasible
	if err == nil {
		err = ctx.Err()
	}
	s.eager = eagerRun{run: run}
	return feasible, rejectedCount, err
}

// startEagerScoring runs PreScore into a child of state and starts the
// score run over j's chunks, and publishes it to j's goroutines (nil when
// PreScore fails or the plugins cannot be scored by chunks: the cycle
// then scores after Filter). It publishes even if a plugin panics, so
// that no helper waits for ever.
func (s *Scheduler) startEagerScoring(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, chunk int, j *filterJob) (run *framework.ScoreRun) {
	defer func() { j.publish(run) }()
	s.scoreState = state.Child(s.scoreState)
	if st := prof.RunPreScorePlugins(ctx, s.scoreState, pod, nodes); !st.IsSuccess() {
		return nil
	}
	return prof.NewScoreRun(ctx, s.scoreState, pod, j.pos[:len(nodes)], &s.scoreBuf, chunk)
}

// filterJob is one filtering pass of findNodesThatPassFilters, run by one
// or more goroutines: each takes the next chunk of nodes in rotation
// order, records every node's outcome, and then advances the prefix of
// finished chunks, lowering limit once it holds the node that fits
// beyond the target.
type filterJob struct {
	prof      *framework.Profile
	ctx       context.Context
	state     *framework.CycleState
	pod       *api.Pod
	nodes     []*cluster.NodeInfo
	nominated nominator
	done      <-chan struct{}
	start     int
	numToFind int
	chunk     int
	chunks    int
	passBits  []uint64
	stride    int // bitStride(chunk)
	chunkPass []uint32
	pass      uint32
	status    []*framework.Status
	chunkCnt  []int32
	chunkEnd  []bool

	// limit is the last index whose outcome can matter: the node that
	// fits beyond numToFind, or the first node whose filters failed.
	// firstFailed is the first node whose filters failed.
	limit, firstFailed atomic.Int64
	// chunks deals the chunks: to the calling goroutine from the front,
	// to helpers from the back when every node is to be filtered (which
	// keeps each goroutine on the same part of the scratch from one
	// cycle to the next) and from the front otherwise (so that the
	// search stops early).
	deal     framework.ChunkDealer
	fromBack bool

	mu                sync.Mutex
	prefix, prefixFit int

	// eager is set when the calling goroutine publishes a score run
	// (publish): each goroutine then scores each chunk's passing nodes,
	// placed first in the chunk's part of pos, right after filtering the
	// chunk, if the run published is not nil.
	eager     bool
	pos       []*cluster.NodeInfo
	published atomic.Bool
	scoreRun  atomic.Pointer[framework.ScoreRun]

	// helpersWanted is how many helpers the calling goroutine offers
	// the job to once it has filtered helpAfter nodes with chunks left,
	// so that a cycle that finds its nodes quickly stays on one
	// goroutine; helpers tracks those offered it (it lives in the
	// scratch, so that its memory is reused).
	helpersWanted, helpAfter int
	helpers                  *framework.HelpGroup
}

// Help is run by a helper goroutine (framework.Helper): it filters chunks
// alongside the cycle's own goroutine.
func (j *filterJob) Help() { j.run(false) }

// lower lowers limit to i.
func (j *filterJob) lower(i int) {
	for {
		cur := j.limit.Load()
		if int64(i) >= cur || j.limit.CompareAndSwap(cur, int64(i)) {
			return
		}
	}
}

// failedAt records that node i's filters failed.
func (j *filterJob) failedAt(i int) {
	for {
		cur := j.firstFailed.Load()
		if int64(i) >= cur || j.firstFailed.CompareAndSwap(cur, int64(i)) {
			return
		}
	}
}

// maxChunkWords bounds the 64-node words of a filter chunk.
const maxChunkWords = framework.MaxNodeChunk / 64

// run filters chunks until none that matters is left. The calling
// goroutine (first) offers the job to helpers once it has filtered
// helpAfter nodes.
func (j *filterJob) run(first bool) {
	numAll := len(j.nodes)
	status := j.status
	filtered := 0
	back := !first && j.fromBack
	for {
		var c int
		var ok bool
		if back {
			c, ok = j.deal.Back()
		} else {
			c, ok = j.deal.Front()
		}
		if !ok {
			return
		}
		if int64(c*j.chunk) > j.limit.Load() {
			if back {
				continue // a lower chunk may still matter
			}
			return
		}
		if first && j.helpersWanted > 0 && filtered >= j.helpAfter && c+1 < j.chunks {
			framework.OfferHelp(j, j.helpersWanted, j.helpers)
			j.helpersWanted = 0
		}
		lo, end := c*j.chunk, min((c+1)*j.chunk, numAll)
		fit := int32(0)
		// The chunk's bits, set locally and stored whole: chunks start
		// at multiples of 64, so no two share a word.
		var bits [maxChunkWords]uint64
		classify := func(i int, st *framework.Status) {
			switch {
			case st.IsSuccess():
				bits[(i-lo)>>6] |= 1 << ((i - lo) & 63)
				fit++
			case st.Code() == framework.Error:
				status[i] = st
				j.lower(i)
				j.failedAt(i)
			default:
				status[i] = st
			}
		}
		if len(j.nominated) == 0 {
			if j.done != nil {
				select {
				case <-j.done:
					return
				default:
				}
			}
			// The chunk's nodes in rotation order are one or two runs of
			// nodes; filter them a run at a time. Statuses are set only
			// for the nodes that do not pass.
			a, n := (j.start+lo)%numAll, end-lo
			if k := numAll - a; k < n {
				fit = int32(j.prof.RunFilterPluginsOnNodesBits(j.ctx, j.state, j.pod, j.nodes[a:], status[lo:lo+k], bits[:], 0))
				fit += int32(j.prof.RunFilterPluginsOnNodesBits(j.ctx, j.state, j.pod, j.nodes[:n-k], status[lo+k:end], bits[:], k))
			} else {
				fit = int32(j.prof.RunFilterPluginsOnNodesBits(j.ctx, j.state, j.pod, j.nodes[a:a+n], status[lo:end], bits[:], 0))
			}
			if int(fit) < n {
				for w := 0; w < (n+63)>>6; w++ {
					// The nodes of word w that did not pass.
					miss := ^bits[w]
					if r := n - w<<6; r < 64 {
						miss &= 1<<r - 1
					}
					for miss != 0 {
						i := lo + w<<6 + mbits.TrailingZeros64(miss)
						miss &= miss - 1
						if status[i].Code() == framework.Error {
							j.lower(i)
							j.failedAt(i)
						}
					}
				}
			}
			if j.eager {
				if r := j.awaitRun(); r != nil {
					j.scoreChunk(r, c, lo, end, &bits)
				}
			}
		} else {
			for i := lo; i < end; i++ {
				if int64(i) > j.limit.Load() {
					break
				}
				if j.done != nil {
					select {
					case <-j.done:
						return
					default:
					}
				}
				ni := j.nodes[(j.start+i)%numAll]
				classify(i, j.prof.RunFilterPluginsWithNominatedPods(j.ctx, j.state, j.pod, ni, j.nominated[ni.Node().Name]))
			}
		}
		copy(j.passBits[c*j.stride:c*j.stride+(end-lo+63)>>6], bits[:])
		j.chunkPass[c*passStride] = j.pass
		if !j.fromBack {
			// Filtering every node needs no count of the nodes that fit.
			j.finish(c, fit)
		}
		filtered += end - lo
	}
}

// scoreChunk places the nodes of chunk c (positions [lo, end) in
// rotation order) whose bits are set first in the chunk's part of pos and
// scores them. A node already in its place is not written again, so that
// the line stays with the CPUs that read it.
func (j *filterJob) scoreChunk(r *framework.ScoreRun, c, lo, end int, bits *[maxChunkWords]uint64) {
	numAll := len(j.nodes)
	k := lo
	ni := (j.start + lo) % numAll
	for i := lo; i < end; i, ni = i+1, ni+1 {
		if ni == numAll {
			ni = 0
		}
		if off := i - lo; bits[off>>6]&(1<<(off&63)) == 0 {
			continue
		}
		if nd := j.nodes[ni]; j.pos[k] != nd {
			j.pos[k] = nd
		}
		k++
	}
	r.ScoreFirst(c, k-lo)
}

// publish makes run the pass's score run.
func (j *filterJob) publish(run *framework.ScoreRun) {
	j.scoreRun.Store(run)
	j.published.Store(true)
}

// awaitRun returns the published score run, polling until there is one
// (the calling goroutine publishes it right after PreScore).
func (j *filterJob) awaitRun() *framework.ScoreRun {
	for i := 1; !j.published.Load(); i++ {
		if i%1024 == 0 {
			runtime.Gosched()
		}
	}
	return j.scoreRun.Load()
}

// Each chunk records its outcome in cache lines of its own, so that
// goroutines filtering neighbouring chunks never write the same line (a
// line passed between CPUs costs about as much as filtering a few nodes):
// bitStride(chunk) words of pass bits, and its pass number at
// c*passStride in chunkPass.
const passStride = 64 / 4

func bitStride(chunk int) int { return ((chunk+63)/64 + 7) &^ 7 }

// passed reports whether the node at rotation position i passed.
func (j *filterJob) passed(i int) bool {
	c := i / j.chunk
	off := i - c*j.chunk
	return j.passBits[c*j.stride+off>>6]&(1<<(off&63)) != 0
}

// finish records that chunk c ran with fit nodes fitting, and advances
// the prefix of finished chunks.
func (j *filterJob) finish(c int, fit int32) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.chunkCnt[c], j.chunkEnd[c] = fit, true
	for j.prefix < j.chunks && j.chunkEnd[j.prefix] {
		if j.prefixFit+int(j.chunkCnt[j.prefix]) > j.numToFind {
			// The node that fits beyond the target is in this chunk:
			// nothing after it matters.
			n := j.prefixFit
			for i := j.prefix * j.chunk; ; i++ {
				if j.passed(i) {
					if n++; n > j.numToFind {
						j.lower(i)
						break
					}
				}
			}
			j.prefix = j.chunks
			break
		}
		j.prefixFit += int(j.chunkCnt[j.prefix])
		j.prefix++
	}
}

// prioritizeNodes runs PreScore and Score over the feasible nodes and
// returns their total scores, and with diagnosis every plugin's scores.
// Without score plugins every node scores 1.
//
// When it can tell without a pass over the totals, it also returns the
// index of the first node with the highest total and ties, how many have
// it; ties is 0 otherwise.
func (s *Scheduler) prioritizeNodes(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, diagnose bool) (totals []int64, scores []framework.NodePluginScores, best, ties int, err error) {
	if !prof.HasScorePlugins() {
		totals := make([]int64, len(nodes))
		if diagnose {
			scores = make([]framework.NodePluginScores, len(nodes))
		}
		for i, n := range nodes {
			totals[i] = 1
			if diagnose {
				scores[i] = framework.NodePluginScores{Name: n.Node().Name, TotalScore: 1}
			}
		}
		return totals, scores, 0, 0, nil
	}
	if st := prof.RunPreScorePlugins(ctx, state, pod, nodes); !st.IsSuccess() {
		return nil, nil, 0, 0, st.AsError()
	}
	if !diagnose {
		totals, st := prof.RunScorePluginsTotals(ctx, state, pod, nodes, &s.scoreBuf)
		if !st.IsSuccess() {
			return nil, nil, 0, 0, st.AsError()
		}
		best, ties := s.scoreBuf.Best()
		return totals, nil, best, ties, nil
	}
	s.scoreBuf.TotalsOnly = false
	scores, st := prof.RunScorePluginsInto(ctx, state, pod, nodes, &s.scoreBuf)
	if !st.IsSuccess() {
		return nil, nil, 0, 0, st.AsError()
	}
	totals = make([]int64, len(scores))
	for i := range scores {
		totals[i] = scores[i].TotalScore
	}
	return totals, scores, 0, 0, nil
}

// selectHost returns the index of the node with the highest total score;
// ties are broken as s.tieBreak says. scores, if given, get the
// Randomizers drawn under TieBreakRandom.
func (s *Scheduler) selectHost(totals []int64, scores []framework.NodePluginScores) int {
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
	if s.tieBreak == TieBreakUpstream {
		return s.heapRoot(totals)
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

// scoreHeap is heapRoot's memory: the node indexes being sifted, and the
// totals they are ordered by.
type scoreHeap struct {
	totals []int64
	idx    []int
	vals   []int64
}

// heapRoot returns the node upstream's heap pops first: the root after
// container/heap's Init over the scores in filtering order, where Less is
// a higher total (kube-scheduler's nodeScoreHeap with every Randomizer
// 0), so ties are resolved only by the heap's own sifting. It runs
// Init's sift-downs on the totals directly.
func (s *Scheduler) heapRoot(totals []int64) int {
	h := &s.heap
	n := len(totals)
	idx, vals := h.idx[:0], append(h.vals[:0], totals...)
	for i := range n {
		idx = append(idx, i)
	}
	h.idx, h.vals = idx, vals
	for i := n/2 - 1; i >= 0; i-- {
		// container/heap's down(h, i, n).
		j := i
		for {
			c := 2*j + 1
			if c >= n || c < 0 {
				break
			}
			if r := c + 1; r < n && vals[r] > vals[c] {
				c = r
			}
			if !(vals[c] > vals[j]) {
				break
			}
			idx[j], idx[c] = idx[c], idx[j]
			vals[j], vals[c] = vals[c], vals[j]
			j = c
		}
	}
	return idx[0]
}

func cloneScores(in []framework.NodePluginScores) []framework.NodePluginScores {
	out := make([]framework.NodePluginScores, len(in))
	for i, n := range in {
		n.RawScores = slices.Clone(n.RawScores)
		n.NormalizedScores = slices.Clone(n.NormalizedScores)
		n.Scores = slices.Clone(n.Scores)
		out[i] = n
	}
	return out
}
