package scheduler

import (
	"container/heap"
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/schedulinggates"
)

// Ported from upstream schedule_one_test.go TestNumFeasibleNodesToFind.
func TestNumFeasibleNodesToFind(t *testing.T) {
	tests := []struct {
		name              string
		globalPercentage  int32
		profilePercentage *int32
		numAllNodes       int32
		wantNumNodes      int32
	}{
		{name: "not set percentageOfNodesToScore and nodes number not more than 50", numAllNodes: 10, wantNumNodes: 10},
		{name: "set profile percentageOfNodesToScore and nodes number not more than 50", profilePercentage: ptr[int32](40), numAllNodes: 10, wantNumNodes: 10},
		{name: "not set percentageOfNodesToScore and nodes number more than 50", numAllNodes: 1000, wantNumNodes: 420},
		{name: "set profile percentageOfNodesToScore and nodes number more than 50", profilePercentage: ptr[int32](40), numAllNodes: 1000, wantNumNodes: 400},
		{name: "set global and profile percentageOfNodesToScore and nodes number more than 50", globalPercentage: 100, profilePercentage: ptr[int32](40), numAllNodes: 1000, wantNumNodes: 400},
		{name: "set global percentageOfNodesToScore and nodes number more than 50", globalPercentage: 40, numAllNodes: 1000, wantNumNodes: 400},
		{name: "not set profile percentageOfNodesToScore and nodes number more than 50*125", numAllNodes: 6000, wantNumNodes: 300},
		{name: "set profile percentageOfNodesToScore and nodes number more than 50*125", profilePercentage: ptr[int32](40), numAllNodes: 6000, wantNumNodes: 2400},
		// Not upstream cases: the floors.
		{name: "below 100 nodes all", numAllNodes: 99, wantNumNodes: 99},
		{name: "at least 100", globalPercentage: 1, numAllNodes: 5000, wantNumNodes: 100},
		{name: "5000 nodes adaptive", numAllNodes: 5000, wantNumNodes: 500},
		{name: "5% floor", numAllNodes: 100000, wantNumNodes: 5000},
		{name: "all", globalPercentage: 100, numAllNodes: 5000, wantNumNodes: 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Scheduler{percentage: tt.globalPercentage}
			if got := s.numFeasibleNodesToFind(tt.profilePercentage, tt.numAllNodes); got != tt.wantNumNodes {
				t.Errorf("numFeasibleNodesToFind() = %v, want %v", got, tt.wantNumNodes)
			}
		})
	}
}

type fitErrWant struct {
	numAll       int
	statuses     map[string]*framework.Status
	absent       *framework.Status
	unschedPl    []string
	preFilterMsg string
}

// Ported from upstream schedule_one_test.go TestSchedulerSchedulePod (the
// cases without volumes or extenders).
func TestSchedulePod(t *testing.T) {
	unresolvable := framework.NewStatus(framework.UnschedulableAndUnresolvable)
	tests := []struct {
		name          string
		plugins       []weighted
		nodes         []string
		pod           *api.Pod
		pods          []*api.Pod
		wantNodes     []string
		wantEvaluated int
		wantErr       *fitErrWant
		wantErrMsg    string
	}{
		{
			name:    "test 1",
			plugins: []weighted{w(falseFilter{})},
			nodes:   []string{"node1", "node2"},
			pod:     makePod("2"),
			wantErr: &fitErrWant{numAll: 2, statuses: map[string]*framework.Status{
				"node1": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("FalseFilter"),
				"node2": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("FalseFilter"),
			}, absent: unresolvable, unschedPl: []string{"FalseFilter"}},
			wantErrMsg: "0/2 nodes are available: 2 Nodes failed the fake plugin.",
		},
		{
			name:      "test 2",
			plugins:   []weighted{w(&trueFilter{}), w(equalPrioritizer{})},
			nodes:     []string{"node1", "node2"},
			pod:       makePod("ignore"),
			wantNodes: []string{"node1", "node2"},
		},
		{
			name:      "test 3: fits on a node where the pod ID matches the node name",
			plugins:   []weighted{w(matchFilter{})},
			nodes:     []string{"node1", "node2"},
			pod:       makePod("node2"),
			wantNodes: []string{"node2"},
		},
		{
			name:      "test 4",
			plugins:   []weighted{w(&trueFilter{}), w(numericMap{})},
			nodes:     []string{"3", "2", "1"},
			pod:       makePod("ignore"),
			wantNodes: []string{"3"},
		},
		{
			name:      "test 5",
			plugins:   []weighted{w(matchFilter{}), w(numericMap{})},
			nodes:     []string{"3", "2", "1"},
			pod:       makePod("2"),
			wantNodes: []string{"2"},
		},
		{
			name:      "test 6",
			plugins:   []weighted{w(&trueFilter{}), w(numericMap{}), {reverseNumericMap{}, 2}},
			nodes:     []string{"3", "2", "1"},
			pod:       makePod("2"),
			wantNodes: []string{"1"},
		},
		{
			name:    "test 7",
			plugins: []weighted{w(&trueFilter{}), w(falseFilter{}), w(numericMap{})},
			nodes:   []string{"3", "2", "1"},
			pod:     makePod("2"),
			wantErr: &fitErrWant{numAll: 3, statuses: map[string]*framework.Status{
				"3": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("FalseFilter"),
				"2": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("FalseFilter"),
				"1": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("FalseFilter"),
			}, absent: unresolvable, unschedPl: []string{"FalseFilter"}},
		},
		{
			name:    "test 8",
			plugins: []weighted{w(noPodsFilter{}), w(matchFilter{}), w(numericMap{})},
			pods:    []*api.Pod{func() *api.Pod { p := makePod("2"); p.Spec.NodeName = "2"; return p }()},
			pod:     makePod("2"),
			nodes:   []string{"1", "2"},
			wantErr: &fitErrWant{numAll: 2, statuses: map[string]*framework.Status{
				"1": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("MatchFilter"),
				"2": framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("NoPodsFilter"),
			}, absent: unresolvable, unschedPl: []string{"MatchFilter", "NoPodsFilter"}},
		},
		{
			name:       "test error with priority map",
			plugins:    []weighted{w(&trueFilter{}), w(falseMap{}), {trueMap{}, 2}},
			nodes:      []string{"2", "1"},
			pod:        makePod("2"),
			wantErrMsg: `running Score plugins: plugin "FalseMap" failed with: priority map encounters an error`,
		},
		{
			name:    "test with filter plugin returning Unschedulable status",
			plugins: []weighted{w(&fakeFilter{failed: map[string]framework.Code{"3": framework.Unschedulable}}), w(numericMap{})},
			nodes:   []string{"3"},
			pod:     makePod("test-filter"),
			wantErr: &fitErrWant{numAll: 1, statuses: map[string]*framework.Status{
				"3": framework.NewStatus(framework.Unschedulable, "injecting failure for pod test-filter").WithPlugin("FakeFilter"),
			}, absent: unresolvable, unschedPl: []string{"FakeFilter"}},
		},
		{
			name:    "test with filter plugin returning UnschedulableAndUnresolvable status",
			plugins: []weighted{w(&fakeFilter{failed: map[string]framework.Code{"3": framework.UnschedulableAndUnresolvable}}), w(numericMap{})},
			nodes:   []string{"3"},
			pod:     makePod("test-filter"),
			wantErr: &fitErrWant{numAll: 1, statuses: map[string]*framework.Status{
				"3": framework.NewStatus(framework.UnschedulableAndUnresolvable, "injecting failure for pod test-filter").WithPlugin("FakeFilter"),
			}, absent: unresolvable, unschedPl: []string{"FakeFilter"}},
		},
		{
			name:          "test with partial failed filter plugin",
			plugins:       []weighted{w(&fakeFilter{failed: map[string]framework.Code{"1": framework.Unschedulable}}), w(numericMap{})},
			nodes:         []string{"1", "2"},
			pod:           makePod("test-filter"),
			wantNodes:     []string{"2"},
			wantEvaluated: 2,
		},
		{
			name:    "test prefilter plugin returning Unschedulable status",
			plugins: []weighted{w(&fakePreFilter{name: "FakePreFilter", status: framework.NewStatus(framework.UnschedulableAndUnresolvable, "injected unschedulable status")})},
			nodes:   []string{"1", "2"},
			pod:     makePod("test-prefilter"),
			wantErr: &fitErrWant{numAll: 2, statuses: map[string]*framework.Status{},
				absent:    framework.NewStatus(framework.UnschedulableAndUnresolvable, "injected unschedulable status").WithPlugin("FakePreFilter"),
				unschedPl: []string{"FakePreFilter"}, preFilterMsg: "injected unschedulable status"},
			wantErrMsg: "0/2 nodes are available: injected unschedulable status.",
		},
		{
			name:       "test prefilter plugin returning error status",
			plugins:    []weighted{w(&fakePreFilter{name: "FakePreFilter", status: framework.NewStatus(framework.Error, "injected error status")})},
			nodes:      []string{"1", "2"},
			pod:        makePod("test-prefilter"),
			wantErrMsg: `running PreFilter plugin "FakePreFilter": injected error status`,
		},
		{
			name: "test prefilter plugin returning node",
			plugins: []weighted{
				w(&fakePreFilter{name: "FakePreFilter1"}),
				w(&fakePreFilter{name: "FakePreFilter2", result: &framework.PreFilterResult{NodeNames: set("node2")}}),
				w(&fakePreFilter{name: "FakePreFilter3", result: &framework.PreFilterResult{NodeNames: set("node1", "node2")}}),
			},
			nodes:         []string{"node1", "node2", "node3"},
			pod:           makePod("test-prefilter"),
			wantNodes:     []string{"node2"},
			wantEvaluated: 1,
		},
		{
			name: "test prefilter plugin returning non-intersecting nodes",
			plugins: []weighted{
				w(&fakePreFilter{name: "FakePreFilter1"}),
				w(&fakePreFilter{name: "FakePreFilter2", result: &framework.PreFilterResult{NodeNames: set("node2")}}),
				w(&fakePreFilter{name: "FakePreFilter3", result: &framework.PreFilterResult{NodeNames: set("node1")}}),
			},
			nodes: []string{"node1", "node2", "node3"},
			pod:   makePod("test-prefilter"),
			wantErr: &fitErrWant{numAll: 3, statuses: map[string]*framework.Status{},
				absent:    framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously"),
				unschedPl: []string{"FakePreFilter2", "FakePreFilter3"}, preFilterMsg: "node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously"},
			wantErrMsg: "0/3 nodes are available: node(s) didn't satisfy plugin(s) [FakePreFilter2 FakePreFilter3] simultaneously.",
		},
		{
			name: "test prefilter plugin returning empty node set",
			plugins: []weighted{
				w(&fakePreFilter{name: "FakePreFilter1"}),
				w(&fakePreFilter{name: "FakePreFilter2", result: &framework.PreFilterResult{NodeNames: set()}}),
			},
			nodes: []string{"node1"},
			pod:   makePod("test-prefilter"),
			wantErr: &fitErrWant{numAll: 1, statuses: map[string]*framework.Status{},
				absent:    framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin FakePreFilter2"),
				unschedPl: []string{"FakePreFilter2"}, preFilterMsg: "node(s) didn't satisfy plugin FakePreFilter2"},
		},
		{
			name: "test some nodes are filtered out by prefilter plugin and other are filtered out by filter plugin",
			plugins: []weighted{
				w(&fakePreFilter{name: "FakePreFilter", result: &framework.PreFilterResult{NodeNames: set("node2")}}),
				w(&fakeFilter{failed: map[string]framework.Code{"node2": framework.Unschedulable}}),
			},
			nodes: []string{"node1", "node2"},
			pod:   makePod("test-prefilter"),
			wantErr: &fitErrWant{numAll: 2, statuses: map[string]*framework.Status{
				"node2": framework.NewStatus(framework.Unschedulable, "injecting failure for pod test-prefilter").WithPlugin("FakeFilter"),
			}, absent: framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [FakePreFilter]"),
				unschedPl: []string{"FakeFilter", "FakePreFilter"}},
			wantErrMsg: "0/2 nodes are available: 1 injecting failure for pod test-prefilter, 1 node(s) didn't satisfy plugin(s) [FakePreFilter].",
		},
		{
			name: "test prefilter plugin returning skip",
			plugins: []weighted{
				w(&fakePreFilter{name: "FakePreFilter1"}),
				w(&fakeFilter{name: "FakeFilter1", failed: map[string]framework.Code{"node1": framework.Unschedulable}}),
				w(skipPreFilterErrFilter{}),
				w(equalPrioritizer{}),
			},
			nodes:         []string{"node1", "node2", "node3"},
			pod:           makePod("test-prefilter"),
			wantNodes:     []string{"node2", "node3"},
			wantEvaluated: 3,
		},
		{
			name:      "test all prescore plugins return skip",
			plugins:   []weighted{w(&trueFilter{}), w(skipScore{})},
			nodes:     []string{"node1", "node2"},
			pod:       makePod("ignore"),
			wantNodes: []string{"node1", "node2"},
		},
		{
			name:          "test without score plugin no extra nodes are evaluated",
			plugins:       []weighted{w(&trueFilter{})},
			nodes:         []string{"node1", "node2", "node3"},
			pod:           makePod("pod1"),
			wantNodes:     []string{"node1", "node2", "node3"},
			wantEvaluated: 1,
		},
		{
			name:          "test no score plugin, prefilter plugin returning 2 nodes",
			plugins:       []weighted{w(&fakePreFilter{name: "FakePreFilter", result: &framework.PreFilterResult{NodeNames: set("node1", "node2")}})},
			nodes:         []string{"node1", "node2", "node3"},
			pod:           makePod("test-prefilter"),
			wantNodes:     []string{"node1", "node2"},
			wantEvaluated: 1,
		},
		{
			name: "test prefilter plugin returned an invalid node",
			plugins: []weighted{
				w(&fakePreFilter{name: "FakePreFilter", result: &framework.PreFilterResult{NodeNames: set("invalid-node")}}),
				w(&trueFilter{}),
			},
			nodes: []string{"1", "2"},
			pod:   makePod("test-prefilter"),
			wantErr: &fitErrWant{numAll: 2, statuses: map[string]*framework.Status{},
				absent:    framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [FakePreFilter]"),
				unschedPl: []string{"FakePreFilter"}},
		},
		{
			name:    "prefilter returned an invalid node and no filter or score plugin",
			plugins: []weighted{w(&fakePreFilter{name: "FakePreFilter", result: &framework.PreFilterResult{NodeNames: set("invalid-node")}})},
			nodes:   []string{"1", "2"},
			pod:     makePod("p"),
			wantErr: &fitErrWant{numAll: 2, statuses: map[string]*framework.Status{},
				absent:    framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [FakePreFilter]"),
				unschedPl: []string{"FakePreFilter"}},
		},
	}
	for _, tt := range tests {
		for _, par := range []int{1, 4} {
			t.Run(tt.name+"/parallelism="+strconv.Itoa(par), func(t *testing.T) {
				s := testScheduler(t, makeNodes(tt.nodes...), tt.pods, tt.plugins, WithParallelism(par))
				res, err := s.Schedule(context.Background(), tt.pod)
				if tt.wantErr == nil && tt.wantErrMsg == "" {
					if err != nil {
						t.Fatalf("unexpected error: %v", err)
					}
					if !slices.Contains(tt.wantNodes, res.Node) {
						t.Errorf("node = %q, want one of %v", res.Node, tt.wantNodes)
					}
					want := len(tt.nodes)
					if tt.wantEvaluated != 0 {
						want = tt.wantEvaluated
					}
					if res.EvaluatedNodes != want {
						t.Errorf("EvaluatedNodes = %d, want %d", res.EvaluatedNodes, want)
					}
					return
				}
				if err == nil {
					t.Fatalf("no error; node %q", res.Node)
				}
				if tt.wantErrMsg != "" && err.Error() != tt.wantErrMsg {
					t.Errorf("error =\n%s\nwant\n%s", err, tt.wantErrMsg)
				}
				var fe *FitError
				if tt.wantErr == nil {
					if errors.As(err, &fe) {
						t.Errorf("got a FitError: %v", err)
					}
					return
				}
				if !errors.As(err, &fe) {
					t.Fatalf("error %v is not a FitError", err)
				}
				if fe.NumAllNodes != tt.wantErr.numAll || fe.Pod != tt.pod {
					t.Errorf("NumAllNodes = %d, pod %v", fe.NumAllNodes, fe.Pod)
				}
				d := fe.Diagnosis
				if d.PreFilterMsg != tt.wantErr.preFilterMsg {
					t.Errorf("PreFilterMsg = %q, want %q", d.PreFilterMsg, tt.wantErr.preFilterMsg)
				}
				if got := d.SortedUnschedulablePlugins(); !slices.Equal(got, tt.wantErr.unschedPl) {
					t.Errorf("UnschedulablePlugins = %v, want %v", got, tt.wantErr.unschedPl)
				}
				if !d.NodeToStatus.AbsentNodesStatus().Equal(tt.wantErr.absent) {
					t.Errorf("absent status = %v (%v, %q), want %v (%q)", d.NodeToStatus.AbsentNodesStatus(), d.NodeToStatus.AbsentNodesStatus().Code(),
						d.NodeToStatus.AbsentNodesStatus().Plugin(), tt.wantErr.absent, tt.wantErr.absent.Plugin())
				}
				if d.NodeToStatus.Len() != len(tt.wantErr.statuses) {
					t.Errorf("statuses = %v, want %v", d.NodeToStatus.NodeNames(), tt.wantErr.statuses)
				}
				for n, want := range tt.wantErr.statuses {
					if got := d.NodeToStatus.Get(n); !got.Equal(want) {
						t.Errorf("node %s: %v (%v %q), want %v (%v %q)", n, got, got.Code(), got.Plugin(), want, want.Code(), want.Plugin())
					}
				}
			})
		}
	}
}

func set(names ...string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, n := range names {
		m[n] = struct{}{}
	}
	return m
}

// Ported from upstream TestFindFitAllError and TestFindFitSomeError.
func TestFindFitErrors(t *testing.T) {
	s := testScheduler(t, makeNodes("3", "2", "1"), nil, []weighted{w(&trueFilter{}), w(matchFilter{})})
	_, err := s.Schedule(context.Background(), makePod("x"))
	var fe *FitError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v", err)
	}
	for _, n := range []string{"1", "2", "3"} {
		if got := fe.Diagnosis.NodeToStatus.Get(n); !got.Equal(framework.NewStatus(framework.Unschedulable, errReasonFake).WithPlugin("MatchFilter")) {
			t.Errorf("node %s: %v", n, got)
		}
	}
	if got := fe.Diagnosis.SortedUnschedulablePlugins(); !slices.Equal(got, []string{"MatchFilter"}) {
		t.Errorf("UnschedulablePlugins = %v", got)
	}

	res, err := s.Schedule(context.Background(), makePod("1"))
	if err != nil || res.Node != "1" {
		t.Fatalf("node %q err %v", res.Node, err)
	}
}

// Ported from upstream TestFairEvaluationForNodes.
func TestFairEvaluationForNodes(t *testing.T) {
	const numAllNodes = 500
	names := make([]string, numAllNodes)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	for _, par := range []int{1, 3, 16} {
		s := testScheduler(t, makeNodes(names...), nil, []weighted{w(&trueFilter{}), w(equalPrioritizer{})},
			WithPercentageOfNodesToScore(30), WithParallelism(par))
		nodesToFind := int(s.numFeasibleNodesToFind(nil, numAllNodes))
		if nodesToFind != 150 {
			t.Fatalf("nodesToFind = %d", nodesToFind)
		}
		for i := 0; i < 2*(numAllNodes/nodesToFind+1); i++ {
			res, err := s.Schedule(context.Background(), makePod("p"))
			if err != nil {
				t.Fatal(err)
			}
			if res.FeasibleNodes != nodesToFind || res.EvaluatedNodes != nodesToFind {
				t.Errorf("feasible %d evaluated %d, want %d", res.FeasibleNodes, res.EvaluatedNodes, nodesToFind)
			}
			if s.nextStartNodeIndex != (i+1)*nodesToFind%numAllNodes {
				t.Errorf("nextStartNodeIndex = %d, want %d", s.nextStartNodeIndex, (i+1)*nodesToFind%numAllNodes)
			}
		}
	}
}

// Ported from upstream TestPreferNominatedNodeFilterCallCounts.
func TestPreferNominatedNodeFilterCallCounts(t *testing.T) {
	nominated := func(name string) *api.Pod {
		p := makePod(name)
		p.Status.NominatedNodeName = "node1"
		return p
	}
	tests := []struct {
		name   string
		pod    *api.Pod
		failed map[string]framework.Code
		want   int32
	}{
		{name: "pod has the nominated node set, filter is called only once", pod: nominated("p_with_nominated_node"), want: 1},
		{name: "pod without the nominated pod, filter is called for each node", pod: makePod("p_without_nominated_node"), want: 3},
		{name: "nominated pod cannot pass the filter, filter is called for each node", pod: nominated("p_with_nominated_node"),
			failed: map[string]framework.Code{"node1": framework.Unschedulable}, want: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFilter{failed: tt.failed}
			s := testScheduler(t, makeNodes("node1", "node2", "node3"), nil, []weighted{w(f), w(equalPrioritizer{})})
			res, err := s.Schedule(context.Background(), tt.pod)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.calls.Load(); got != tt.want {
				t.Errorf("filter called %d times, want %d", got, tt.want)
			}
			if tt.pod.Status.NominatedNodeName != "" && tt.failed == nil && (res.Node != "node1" || res.EvaluatedNodes != 1) {
				t.Errorf("result %+v", res)
			}
		})
	}
}

// Ported from upstream TestFindFitPredicateCallCounts: nominated pods of
// higher or equal priority make Filter run twice.
func TestFindFitPredicateCallCounts(t *testing.T) {
	for _, tt := range []struct {
		name string
		prio int32
		want int32
	}{
		{"nominated pods have lower priority, predicate is called once", 1000, 1},
		{"nominated pods have higher priority, predicate is called twice", 0, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFilter{}
			s := testScheduler(t, makeNodes("1"), nil, []weighted{w(f)})
			nom := makePod("nominated")
			nom.Spec.Priority = ptr[int32](100)
			nom.Status.NominatedNodeName = "1"
			if err := s.Enqueue(context.Background(), nom); err != nil {
				t.Fatal(err)
			}
			pod := makePod("1")
			pod.Spec.Priority = ptr(tt.prio)
			if _, err := s.Schedule(context.Background(), pod); err != nil {
				t.Fatal(err)
			}
			if got := f.calls.Load(); got != tt.want {
				t.Errorf("filter called %d times, want %d", got, tt.want)
			}
		})
	}
}

// TestSelectHostUpstream pins v1.37.2's selection without extenders:
// every Randomizer is 0 and schedulePod pops the root of a container/heap
// (NewSortedScoredNodes) built over the scores in filtering order, so
// among ties the heap's sifting decides, deterministically.
func TestSelectHostUpstream(t *testing.T) {
	s := &Scheduler{}
	cases := []struct {
		totals []int64
		want   int
	}{
		{[]int64{1, 2}, 1},
		{[]int64{2, 2, 2}, 0},
		{[]int64{3, 2, 1, 3}, 0},
		{[]int64{1, 5, 3, 5, 5}, 1},
		{[]int64{0, 7, 7, 1, 7, 7, 2, 7}, 1},
		{[]int64{4, 1, 4, 9, 9, 9, 9, 9, 9}, 3},
	}
	for _, c := range cases {
		// The reference: stdlib heap over the same Less as upstream's
		// nodeScoreHeap, popped once.
		ref := make(refHeap, len(c.totals))
		for i, v := range c.totals {
			ref[i] = [2]int64{v, int64(i)}
		}
		heap.Init(&ref)
		want := int(heap.Pop(&ref).([2]int64)[1])
		if want != c.want {
			t.Fatalf("reference for %v = %d, table says %d", c.totals, want, c.want)
		}
		if got := s.selectHost(c.totals, nil); got != c.want {
			t.Errorf("selectHost(%v) = %d, want %d", c.totals, got, c.want)
		}
	}
}

type refHeap [][2]int64

func (h refHeap) Len() int           { return len(h) }
func (h refHeap) Less(i, j int) bool { return h[i][0] > h[j][0] }
func (h refHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)        { *h = append(*h, x.([2]int64)) }
func (h *refHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func TestSelectHost(t *testing.T) {
	s := &Scheduler{tieBreak: TieBreakRandom}
	mk := func(scores ...int64) []framework.NodePluginScores {
		out := make([]framework.NodePluginScores, len(scores))
		for i, sc := range scores {
			out[i] = framework.NodePluginScores{Name: strconv.Itoa(i), TotalScore: sc}
		}
		return out
	}
	totals := func(l []framework.NodePluginScores) []int64 {
		out := make([]int64, len(l))
		for i := range l {
			out[i] = l[i].TotalScore
		}
		return out
	}
	sel := func(s *Scheduler, l []framework.NodePluginScores) int { return s.selectHost(totals(l), l) }
	for seed := uint64(0); seed < 5; seed++ {
		_, s.rng = newRand(seed)
		if got := sel(s, mk(1, 5, 3)); got != 1 {
			t.Errorf("unique max: %d", got)
		}
	}
	// Ties are broken uniformly among the top nodes only.
	counts := map[int]int{}
	for seed := uint64(0); seed < 3000; seed++ {
		_, s.rng = newRand(seed)
		l := mk(7, 3, 7, 7, 1)
		got := sel(s, l)
		counts[got]++
		if l[got].Randomizer == 0 {
			t.Fatalf("winner has no Randomizer")
		}
		if l[1].Randomizer != 0 || l[4].Randomizer != 0 {
			t.Fatalf("lower scores got a Randomizer")
		}
		if framework.BestNode(l) != got {
			t.Fatalf("selectHost disagrees with BestNode")
		}
	}
	if len(counts) != 3 {
		t.Fatalf("winners %v", counts)
	}
	for _, i := range []int{0, 2, 3} {
		if counts[i] < 850 || counts[i] > 1150 {
			t.Errorf("node %d won %d of 3000 ties", i, counts[i])
		}
	}
	// Same seed, same choice.
	_, ra := newRand(42)
	_, rb := newRand(42)
	a, b := &Scheduler{rng: ra}, &Scheduler{rng: rb}
	for range 100 {
		if sel(a, mk(2, 2, 2, 2)) != sel(b, mk(2, 2, 2, 2)) {
			t.Fatal("not reproducible")
		}
	}
}

func TestScheduleErrors(t *testing.T) {
	s := testScheduler(t, makeNodes("n1"), nil, []weighted{w(&trueFilter{})})
	p := makePod("p")
	p.Spec.SchedulerName = "other"
	if _, err := s.Schedule(context.Background(), p); err == nil || err.Error() != `profile not found for scheduler name "other"` {
		t.Errorf("err = %v", err)
	}
	empty := testScheduler(t, nil, nil, []weighted{w(&trueFilter{})})
	if _, err := empty.Schedule(context.Background(), makePod("p")); !errors.Is(err, ErrNoNodesAvailable) {
		t.Errorf("err = %v", err)
	}
	gated := makePod("g")
	gated.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "a"}, {Name: "b"}}
	s2 := testScheduler(t, makeNodes("n1"), nil, []weighted{w(schedulinggates.SchedulingGates{}), w(&trueFilter{})})
	_, err := s2.Schedule(context.Background(), gated)
	var ge *GatedError
	if !errors.As(err, &ge) || ge.Status.Plugin() != "SchedulingGates" || ge.Status.Message() != "waiting for scheduling gates: [a b]" {
		t.Errorf("err = %v", err)
	}
}

// Explain reports each feasible node's raw, normalised and weighted
// scores, and the plain test hook makes Schedule run the plain cycle,
// which decides what the engine decides.
func TestExplainScoresAndPlainHook(t *testing.T) {
	s := testScheduler(t, makeNodes("3", "2", "1"), nil, []weighted{w(&trueFilter{}), w(numericMap{}), {reverseNumericMap{}, 2}})
	ex, err := s.Explain(context.Background(), makePod("p"))
	if err != nil || ex.Err != nil {
		t.Fatal(err, ex.Err)
	}
	if ex.Node != "1" || ex.FeasibleNodes != 3 {
		t.Fatalf("decision %+v", ex.Decision)
	}
	var n1 NodeExplanation
	for _, n := range ex.Nodes {
		if n.Name == "1" {
			n1 = n
		}
	}
	want := NodeExplanation{Name: "1", Evaluated: true, Feasible: true, Total: 7, Scores: []PluginScore{
		{Plugin: "NumericMap", Raw: 1, Normalized: 1, Weight: 1, Weighted: 1},
		{Plugin: "ReverseNumericMap", Raw: 1, Normalized: 3, Weight: 2, Weighted: 6},
	}}
	if !reflect.DeepEqual(n1, want) {
		t.Errorf("node 1 = %+v\nwant %+v", n1, want)
	}
	for _, plain := range []bool{false, true} {
		s.plain = plain
		res, err := s.Schedule(context.Background(), makePod("q"))
		if err != nil || res.Node != "1" {
			t.Errorf("plain %v: %+v, %v", plain, res, err)
		}
	}
}

// The scheduler reuses a cycle's state and diagnosis in the next cycle,
// but not those a FitError took: its diagnosis stays as it was.
func TestFitErrorDiagnosisOutlivesNextCycles(t *testing.T) {
	codes := map[string]framework.Code{"a": framework.Unschedulable, "b": framework.UnschedulableAndUnresolvable}
	f := &tableFilter{code: codes}
	s := testScheduler(t, makeNodes("a", "b"), nil, []weighted{w(f)})
	ctx := context.Background()
	_, err := s.Schedule(ctx, makePod("p0"))
	var fe *FitError
	if !errors.As(err, &fe) {
		t.Fatalf("want a FitError, got %v", err)
	}
	want := map[string]string{}
	fe.Diagnosis.NodeToStatus.ForEachExplicitNode(func(n string, st *framework.Status) { want[n] = st.Code().String() })
	if len(want) != 2 {
		t.Fatalf("statuses %v", want)
	}
	codes["a"], codes["b"] = framework.Success, framework.Unschedulable
	if res, err := s.Schedule(ctx, makePod("p1")); err != nil || res.Node != "a" {
		t.Fatalf("got %v, %v", res.Node, err)
	}
	codes["a"] = framework.UnschedulableAndUnresolvable
	if _, err := s.Schedule(ctx, makePod("p2")); !errors.As(err, new(*FitError)) {
		t.Fatalf("want a FitError, got %v", err)
	}
	got := map[string]string{}
	fe.Diagnosis.NodeToStatus.ForEachExplicitNode(func(n string, st *framework.Status) { got[n] = st.Code().String() })
	if !reflect.DeepEqual(got, want) {
		t.Errorf("first FitError's statuses changed: %v, want %v", got, want)
	}
}
