package preemption_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/defaultpreemption"
	"github.com/schedkit/schedkit/preemption"
)

func unsched(nodes ...string) *framework.NodeToStatus {
	m := map[string]*framework.Status{}
	for _, n := range nodes {
		m[n] = framework.NewStatus(framework.Unschedulable)
	}
	return framework.NewNodeToStatus(m, framework.NewStatus(framework.UnschedulableAndUnresolvable))
}

// upstream: default_preemption_test.go TestPostFilter (the cases without
// extenders, pod groups or in-place resize).
func TestPostFilter(t *testing.T) {
	onePod := func(name string) *api.Node { return mkNode(name, "", "", "1") }
	nodeRes := func(name string) *api.Node { return mkNode(name, "200m", "400", "32") }
	big := func(name string) *api.Node { return mkNode(name, largeRes[0], largeRes[1], "32") }
	errNode := func(name string) *api.Node { n := big(name); n.Labels["error"] = "true"; return n }
	tests := []struct {
		name     string
		pod      *api.Pod
		pods     []*api.Pod
		pdbs     []*api.PodDisruptionBudget
		nodes    []*api.Node
		statuses *framework.NodeToStatus
		extra    bool // add upstream's test-plugin
		wantNode string
		wantNil  bool // a nil result (keep the nomination)
		wantCode framework.Code
		wantMsg  string
	}{
		{name: "pod with higher priority can be made schedulable",
			pod: mkPod("p", prio(highPriority)), pods: []*api.Pod{mkPod("p1", on("node1"))},
			nodes: []*api.Node{onePod("node1")}, statuses: unsched("node1"),
			wantNode: "node1", wantMsg: "preemption: found a potential placement for pod on node node1, preempting 1 victims"},
		{name: "pod with tied priority is still unschedulable",
			pod: mkPod("p"), pods: []*api.Pod{mkPod("p1", on("node1"))},
			nodes: []*api.Node{onePod("node1")}, statuses: unsched("node1"),
			wantCode: framework.Unschedulable, wantMsg: "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "preemption should respect filteredNodesStatuses",
			pod: mkPod("p", prio(highPriority)), pods: []*api.Pod{mkPod("p1", on("node1"))},
			nodes: []*api.Node{onePod("node1")},
			statuses: framework.NewNodeToStatus(map[string]*framework.Status{"node1": framework.NewStatus(framework.UnschedulableAndUnresolvable)},
				framework.NewStatus(framework.UnschedulableAndUnresolvable)),
			wantCode: framework.Unschedulable, wantMsg: "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable",
			pod: mkPod("p", prio(highPriority)), pods: []*api.Pod{mkPod("p1", on("node1"))},
			nodes: []*api.Node{onePod("node1")}, statuses: framework.NewDefaultNodeToStatus(),
			wantCode: framework.Unschedulable, wantMsg: "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "pod can be made schedulable on one node",
			pod:   mkPod("p", prio(midPriority)),
			pods:  []*api.Pod{mkPod("p1", prio(highPriority), on("node1")), mkPod("p2", prio(lowPriority), on("node2"))},
			nodes: []*api.Node{onePod("node1"), onePod("node2")}, statuses: unsched("node1", "node2"),
			wantNode: "node2", wantMsg: "preemption: found a potential placement for pod on node node2, preempting 1 victims"},
		{name: "pod can be made schedulable on minHighestPriority node",
			pod: mkPod("p", prio(veryHighPriority)),
			pods: []*api.Pod{
				mkPod("p1", label("pdb", "non-violating"), prio(highPriority), on("node1")),
				mkPod("p2", label("pdb", "violating"), prio(lowPriority), on("node1")),
				mkPod("p3", label("pdb", "violating"), prio(midPriority), on("node2")),
			},
			pdbs:  []*api.PodDisruptionBudget{pdb("violating-pdb", map[string]string{"pdb": "violating"}, 0), pdb("non-violating-pdb", map[string]string{"pdb": "non-violating"}, math.MaxInt32)},
			nodes: []*api.Node{onePod("node1"), onePod("node2")}, statuses: unsched("node1", "node2"),
			wantNode: "node2", wantMsg: "preemption: found a potential placement for pod on node node2, preempting 1 victims"},
		{name: "no candidate nodes found, no enough resource after removing low priority pods",
			pod: mkPod("p", prio(highPriority), req(largeRes)), pods: []*api.Pod{mkPod("p1", on("node1")), mkPod("p2", on("node2"))},
			nodes: []*api.Node{nodeRes("node1"), nodeRes("node2")}, statuses: unsched("node1", "node2"),
			wantCode: framework.Unschedulable, wantMsg: "preemption: 0/2 nodes are available: 2 Insufficient cpu."},
		{name: "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
			pod:      mkPod("p", prio(highPriority), req(largeRes)),
			pods:     []*api.Pod{mkPod("p1", on("node1"), prio(highPriority)), mkPod("p2", on("node2")), mkPod("p3", on("node3"), prio(highPriority))},
			nodes:    []*api.Node{onePod("node1"), nodeRes("node2"), onePod("node3")},
			statuses: unsched("node1", "node2", "node3"),
			wantCode: framework.Unschedulable, wantMsg: "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod."},
		{name: "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource",
			pod: mkPod("p", prio(highPriority), req(largeRes)), pods: []*api.Pod{mkPod("p1", on("node1")), mkPod("p2", on("node2"))},
			nodes: []*api.Node{nodeRes("node1"), nodeRes("node2"), nodeRes("node3"), nodeRes("node4")},
			statuses: framework.NewNodeToStatus(map[string]*framework.Status{
				"node1": framework.NewStatus(framework.Unschedulable), "node2": framework.NewStatus(framework.Unschedulable),
				"node4": framework.NewStatus(framework.UnschedulableAndUnresolvable)}, framework.NewStatus(framework.UnschedulableAndUnresolvable)),
			wantCode: framework.Unschedulable, wantMsg: "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling."},
		{name: "only one node but failed with TestPlugin", extra: true,
			pod: mkPod("p", prio(highPriority), req(largeRes)), pods: []*api.Pod{mkPod("p1", on("node1"))},
			nodes: []*api.Node{errNode("node1")}, statuses: unsched("node1"),
			wantNil: true, wantCode: framework.Error, wantMsg: `preemption: running RemovePod on PreFilter plugin "test-plugin": failed to remove pod: p`},
		{name: "one failed with TestPlugin and the other pass", extra: true,
			pod:   mkPod("p", prio(highPriority), req(largeRes)),
			pods:  []*api.Pod{mkPod("p1", on("node1")), mkPod("p2", on("node2"), req(mediumRes))},
			nodes: []*api.Node{errNode("node1"), big("node2")}, statuses: unsched("node1", "node2"),
			wantNode: "node2", wantMsg: "preemption: found a potential placement for pod on node node2, preempting 1 victims"},
		// schedkit: the eligibility messages, as PostFilter words them.
		{name: "preemptionPolicy Never",
			pod: mkPod("p", prio(highPriority), never()), pods: []*api.Pod{mkPod("p1", on("node1"))},
			nodes: []*api.Node{onePod("node1")}, statuses: unsched("node1"),
			wantNil: true, wantCode: framework.Unschedulable, wantMsg: "preemption: not eligible due to preemptionPolicy=Never."},
		{name: "a victim still terminating on the nominated node",
			pod: mkPod("p", prio(highPriority), nominated("node1")), pods: []*api.Pod{mkPod("p1", on("node1"), terminatingByPreemption())},
			nodes: []*api.Node{onePod("node1")}, statuses: unsched("node1"),
			wantNil: true, wantCode: framework.Unschedulable, wantMsg: "preemption: not eligible due to a terminating pod on the nominated node."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var extra framework.Registry
			cfg := framework.ProfileConfig{}
			if tc.extra {
				extra = framework.Registry{"test-plugin": func(any, framework.Handle) (framework.Plugin, error) { return errorPlugin{}, nil }}
				cfg.Plugins = []framework.PluginRef{{Name: "test-plugin"}}
			}
			h, err := newHandle(tc.nodes, tc.pods, tc.pdbs, 1, extra, cfg)
			if err != nil {
				t.Fatal(err)
			}
			r, st := h.postFilter(tc.pod, tc.statuses)
			if st.Code() != tc.wantCode || st.Message() != tc.wantMsg {
				t.Errorf("status = %v %q, want %v %q", st.Code(), st.Message(), tc.wantCode, tc.wantMsg)
			}
			switch {
			case tc.wantNil:
				if r != nil {
					t.Errorf("result = %+v, want nil", r)
				}
			case r == nil:
				t.Errorf("result = nil, want node %q", tc.wantNode)
			case r.NominatedNodeName != tc.wantNode:
				t.Errorf("nominated %q, want %q", r.NominatedNodeName, tc.wantNode)
			}
		})
	}
}

// upstream: default_preemption_test.go TestSelectBestCandidate.
func TestSelectBestCandidate(t *testing.T) {
	e0, e1, e2, e3, e4, e5, e6 := epoch(0), epoch(1), epoch(2), epoch(3), epoch(4), epoch(5), epoch(6)
	p := func(name, node string, pr int32, r [2]string, start *api.Time) *api.Pod {
		return mkPod(name, on(node), prio(pr), req(r), started(start))
	}
	tests := []struct {
		name     string
		nodes    []string
		pod      *api.Pod
		pods     []*api.Pod
		expected []string // any of them
	}{
		{"a pod that fits on both nodes when lower priority pods are preempted", []string{"node1", "node2"},
			mkPod("p", prio(highPriority), req(largeRes)),
			[]*api.Pod{p("p1", "node1", midPriority, largeRes, e0), p("p2", "node2", midPriority, largeRes, e0)},
			[]string{"node1", "node2"}},
		{"node with min highest priority pod is picked", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, mediumRes, e0), p("p1.2", "node1", midPriority, largeRes, e0),
				p("p2.1", "node2", midPriority, mediumRes, e0), p("p2.2", "node2", lowPriority, mediumRes, e0),
				p("p3.1", "node3", lowPriority, mediumRes, e0), p("p3.2", "node3", lowPriority, mediumRes, e0)},
			[]string{"node3"}},
		{"when highest priorities are the same, minimum sum of priorities is picked", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, mediumRes, e0), p("p1.2", "node1", midPriority, largeRes, e0),
				p("p2.1", "node2", midPriority, largeRes, e0), p("p2.2", "node2", lowPriority, mediumRes, e0),
				p("p3.1", "node3", midPriority, mediumRes, e0), p("p3.2", "node3", midPriority, mediumRes, e0)},
			[]string{"node2"}},
		{"when highest priority and sum are the same, minimum number of pods is picked", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, smallRes, e0), p("p1.2", "node1", negPriority, smallRes, e0),
				p("p1.3", "node1", midPriority, smallRes, e0), p("p1.4", "node1", negPriority, smallRes, e0),
				p("p2.1", "node2", midPriority, largeRes, e0), p("p2.2", "node2", negPriority, mediumRes, e0),
				p("p3.1", "node3", midPriority, mediumRes, e0), p("p3.2", "node3", negPriority, smallRes, e0), p("p3.3", "node3", lowPriority, smallRes, e0)},
			[]string{"node2"}},
		{"sum of adjusted priorities is considered", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, smallRes, e0), p("p1.2", "node1", negPriority, smallRes, e0), p("p1.3", "node1", negPriority, smallRes, e0),
				p("p2.1", "node2", midPriority, largeRes, e0), p("p2.2", "node2", negPriority, mediumRes, e0),
				p("p3.1", "node3", midPriority, mediumRes, e0), p("p3.2", "node3", negPriority, smallRes, e0), p("p3.3", "node3", lowPriority, smallRes, e0)},
			[]string{"node2"}},
		{"non-overlapping lowest high priority, sum priorities, and number of pods", []string{"node1", "node2", "node3", "node4"},
			mkPod("p", prio(veryHighPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, smallRes, e0), p("p1.2", "node1", lowPriority, smallRes, e0), p("p1.3", "node1", lowPriority, smallRes, e0),
				p("p2.1", "node2", highPriority, largeRes, e0),
				p("p3.1", "node3", midPriority, mediumRes, e0), p("p3.2", "node3", lowPriority, smallRes, e0), p("p3.3", "node3", lowPriority, smallRes, e0), p("p3.4", "node3", lowPriority, mediumRes, e0),
				p("p4.1", "node4", midPriority, mediumRes, e0), p("p4.2", "node4", midPriority, smallRes, e0), p("p4.3", "node4", midPriority, smallRes, e0), p("p4.4", "node4", negPriority, smallRes, e0)},
			[]string{"node1"}},
		{"same priority, same number of victims, different start time for each node's pod", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, mediumRes, e2), p("p1.2", "node1", midPriority, mediumRes, e2),
				p("p2.1", "node2", midPriority, mediumRes, e3), p("p2.2", "node2", midPriority, mediumRes, e3),
				p("p3.1", "node3", midPriority, mediumRes, e1), p("p3.2", "node3", midPriority, mediumRes, e1)},
			[]string{"node2"}},
		{"same priority, same number of victims, different start time for all pods", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", midPriority, mediumRes, e4), p("p1.2", "node1", midPriority, mediumRes, e2),
				p("p2.1", "node2", midPriority, mediumRes, e5), p("p2.2", "node2", midPriority, mediumRes, e1),
				p("p3.1", "node3", midPriority, mediumRes, e3), p("p3.2", "node3", midPriority, mediumRes, e6)},
			[]string{"node3"}},
		{"different priority, same number of victims, different start time for all pods", []string{"node1", "node2", "node3"},
			mkPod("p", prio(highPriority), req(veryLargeRes)),
			[]*api.Pod{p("p1.1", "node1", lowPriority, mediumRes, e4), p("p1.2", "node1", midPriority, mediumRes, e2),
				p("p2.1", "node2", midPriority, mediumRes, e6), p("p2.2", "node2", lowPriority, mediumRes, e1),
				p("p3.1", "node3", lowPriority, mediumRes, e3), p("p3.2", "node3", midPriority, mediumRes, e5)},
			[]string{"node2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []*api.Node
			for _, n := range tc.nodes {
				nodes = append(nodes, mkNode(n, veryLargeRes[0], veryLargeRes[1], "32"))
			}
			seen := map[string]bool{}
			for seed := range uint64(8) {
				h, err := newHandle(nodes, tc.pods, nil, seed, nil, framework.ProfileConfig{})
				if err != nil {
					t.Fatal(err)
				}
				r, st := h.postFilter(tc.pod, unsched(tc.nodes...))
				if !st.IsSuccess() || r == nil {
					t.Fatalf("seed %d: %v %v", seed, r, st)
				}
				if !slices.Contains(tc.expected, r.NominatedNodeName) {
					t.Errorf("seed %d: nominated %q, want one of %v", seed, r.NominatedNodeName, tc.expected)
				}
				seen[r.NominatedNodeName] = true
			}
			if len(tc.expected) > 1 && len(seen) < 2 {
				t.Errorf("ties always went to %v over 8 seeds", seen)
			}
		})
	}
}

// upstream: default_preemption_test.go TestPodEligibleToPreemptOthers
// (the cases without pod groups).
func TestPodEligibleToPreemptOthers(t *testing.T) {
	tests := []struct {
		name            string
		pod             *api.Pod
		pods            []*api.Pod
		nominatedStatus *framework.Status
		want            bool
	}{
		{"Pod with nominated node", mkPod("p_with_nominated_node", prio(highPriority), nominated("node1")),
			[]*api.Pod{mkPod("p1", prio(lowPriority), on("node1"), terminatingByPreemption())},
			framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint(s)"), true},
		{"Pod without nominated node", mkPod("p_without_nominated_node", prio(highPriority)), nil, nil, true},
		{"Pod with 'PreemptNever' preemption policy", mkPod("p_with_preempt_never_policy", prio(highPriority), never()), nil, nil, false},
		{"preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition",
			mkPod("p_with_nominated_node", prio(highPriority), nominated("node1")),
			[]*api.Pod{mkPod("p1", prio(lowPriority), on("node1"), terminatingByPreemption())}, nil, false},
		{"non-victim Pods terminating", mkPod("p_with_nominated_node", prio(highPriority), nominated("node1")),
			[]*api.Pod{func() *api.Pod {
				p := mkPod("p1", prio(lowPriority), on("node1"))
				t := *epoch(5)
				p.DeletionTimestamp = &t
				return p
			}()}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := newHandle([]*api.Node{mkNode("node1", "1", "1Gi", "32")}, tc.pods, nil, 1, nil, framework.ProfileConfig{})
			if err != nil {
				t.Fatal(err)
			}
			ni, _ := h.snap.Get("node1")
			if tc.pod.Status.NominatedNodeName == "" {
				ni = nil
			}
			got, _ := preemption.PodEligibleToPreemptOthers(tc.pod, tc.nominatedStatus, ni)
			if got != tc.want {
				t.Errorf("eligible = %v, want %v", got, tc.want)
			}
		})
	}
}

// upstream: preemption util_test.go TestFilterVictimsWithPDBViolation
// semantics: budgets in the pod's namespace with a non-empty selector
// matching its labels, disruptedPods skipped, one disruption used per
// matching pod in order.
func TestFilterPodsWithPDBViolation(t *testing.T) {
	a := func(name string, labels ...string) *api.Pod {
		p := mkPod(name)
		for i := 0; i+1 < len(labels); i += 2 {
			label(labels[i], labels[i+1])(p)
		}
		return p
	}
	other := pdb("other-ns", map[string]string{"app": "x"}, 0)
	other.Namespace = "kube-system"
	empty := pdb("empty", nil, 0)
	empty.Spec.Selector = &api.LabelSelector{}
	nilSel := pdb("nil", nil, 0)
	nilSel.Spec.Selector = nil
	tests := []struct {
		name               string
		pods               []*api.Pod
		pdbs               []*api.PodDisruptionBudget
		violating, nonViol string
	}{
		{"no budgets", []*api.Pod{a("p1", "app", "x")}, nil, "", "p1"},
		{"one disruption allowed: the second pod violates", []*api.Pod{a("p1", "app", "x"), a("p2", "app", "x")},
			[]*api.PodDisruptionBudget{pdb("b", map[string]string{"app": "x"}, 1)}, "p2", "p1"},
		{"pods without labels never violate", []*api.Pod{a("p1"), a("p2", "app", "x")},
			[]*api.PodDisruptionBudget{pdb("b", map[string]string{"app": "x"}, 0)}, "p2", "p1"},
		{"already disrupted pods do not count", []*api.Pod{a("p1", "app", "x"), a("p2", "app", "x")},
			[]*api.PodDisruptionBudget{pdb("b", map[string]string{"app": "x"}, 0, "p1")}, "p2", "p1"},
		{"other namespace, empty and nil selectors match nothing", []*api.Pod{a("p1", "app", "x")},
			[]*api.PodDisruptionBudget{other, empty, nilSel}, "", "p1"},
		{"negative disruptionsAllowed", []*api.Pod{a("p1", "app", "x")},
			[]*api.PodDisruptionBudget{pdb("b", map[string]string{"app": "x"}, -1)}, "p1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, nv := preemption.FilterPodsWithPDBViolation(tc.pods, preemption.CompilePDBs(tc.pdbs))
			if names(v) != tc.violating || names(nv) != tc.nonViol {
				t.Errorf("violating %q non-violating %q, want %q %q", names(v), names(nv), tc.violating, tc.nonViol)
			}
		})
	}
}

// upstream: default_preemption_test.go TestDryRunPreemption "mixed
// priority pods are preempted, pick later StartTime one when priorities
// are equal": victims are reprieved from the most important down.
func TestSelectVictimsOnNodeReprieveOrder(t *testing.T) {
	pods := []*api.Pod{
		mkPod("p1.1", on("node1"), prio(lowPriority), req(smallRes), started(epoch(5))),
		mkPod("p1.2", on("node1"), prio(lowPriority), req(smallRes), started(epoch(4))),
		mkPod("p1.3", on("node1"), prio(midPriority), req(mediumRes), started(epoch(3))),
		mkPod("p1.4", on("node1"), prio(highPriority), req(smallRes), started(epoch(2))),
		mkPod("p2", on("node2"), prio(highPriority), req(largeRes), started(epoch(1))),
	}
	nodes := []*api.Node{mkNode("node1", veryLargeRes[0], veryLargeRes[1], "32"), mkNode("node2", veryLargeRes[0], veryLargeRes[1], "32")}
	h, err := newHandle(nodes, pods, nil, 1, nil, framework.ProfileConfig{})
	if err != nil {
		t.Fatal(err)
	}
	o := h.preempt(mkPod("p", prio(highPriority), req(largeRes)), unsched("node1", "node2"))
	if len(o.Candidates) != 1 || o.Candidates[0].Node != "node1" || names(o.Candidates[0].Victims) != "p1.3,p1.1" {
		t.Fatalf("candidates = %+v", o.Candidates)
	}
	if st := o.NodeStatuses.Get("node2"); st.Message() != preemption.NoVictimsFound {
		t.Errorf("node2: %v", st)
	}
}

// upstream: TestDryRunPreemption's PDB cases: a PDB-violating victim is
// reprieved first and counted when it cannot be.
func TestSelectVictimsOnNodePDB(t *testing.T) {
	pods := []*api.Pod{
		mkPod("p1.1", on("node1"), prio(lowPriority), req(mediumRes), label("app", "foo"), started(epoch(1))),
		mkPod("p1.2", on("node1"), prio(lowPriority), req(mediumRes), label("app", "foo"), started(epoch(2))),
		mkPod("p2.1", on("node2"), prio(lowPriority), req(veryLargeRes), started(epoch(1))),
	}
	nodes := []*api.Node{mkNode("node1", veryLargeRes[0], veryLargeRes[1], "32"), mkNode("node2", veryLargeRes[0], veryLargeRes[1], "32")}
	for _, tc := range []struct {
		allowed    int32
		disrupted  []string
		violations int
	}{{1, nil, 1}, {2, nil, 0}, {1, []string{"p1.2"}, 0}, {0, nil, 2}} {
		h, err := newHandle(nodes, pods, []*api.PodDisruptionBudget{pdb("b", map[string]string{"app": "foo"}, tc.allowed, tc.disrupted...)}, 1, nil, framework.ProfileConfig{})
		if err != nil {
			t.Fatal(err)
		}
		o := h.preempt(mkPod("p", prio(highPriority), req(veryLargeRes)), unsched("node1", "node2"))
		var c1 *preemption.Candidate
		for i := range o.Candidates {
			if o.Candidates[i].Node == "node1" {
				c1 = &o.Candidates[i]
			}
		}
		if c1 == nil || names(c1.Victims) != "p1.1,p1.2" || c1.NumPDBViolations != tc.violations {
			t.Errorf("allowed %d disrupted %v: node1 %+v, want 2 victims, %d violations", tc.allowed, tc.disrupted, c1, tc.violations)
		}
		// node2 wins: fewer violations, or as many and fewer victims.
		if o.Chosen == nil || o.Chosen.Node != "node2" {
			t.Errorf("allowed %d: chose %+v, want node2", tc.allowed, o.Chosen)
		}
	}
}

func TestCalculateNumCandidates(t *testing.T) {
	// upstream: TestCalculateNumCandidates (v1.2x, defaultpreemption).
	tests := []struct{ nodes, pct, abs, want int32 }{
		{10, 5, 0, 0}, {10, 0, 5, 5}, {10, 0, 20, 10}, {100, 10, 5, 10}, {5000, 10, 100, 500}, {500, 10, 100, 100}, {50, 10, 100, 50},
	}
	for _, tc := range tests {
		if got := preemption.CalculateNumCandidates(tc.nodes, tc.pct, tc.abs); got != tc.want {
			t.Errorf("%+v: got %d", tc, got)
		}
	}
}

func TestNewArgs(t *testing.T) {
	bad := int32(101)
	_, err := defaultpreemption.New(&config.DefaultPreemptionArgs{MinCandidateNodesPercentage: &bad}, nil)
	if err == nil || err.Error() != "minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]" {
		t.Errorf("err = %v", err)
	}
	if _, err := defaultpreemption.New(3, nil); err == nil || err.Error() != "got args of type int, want *DefaultPreemptionArgs" {
		t.Errorf("err = %v", err)
	}
}

// upstream: TestDryRunPreemption "preemption looks past numCandidates
// until a non-PDB violating node is found": Outcome.DryRun lists the
// nodes tried from the offset on, with their victims, and marks the
// node left out because the list of PDB-violating candidates was full
// (upstream's offset 4 case: node5, node1 kept, node2 dropped, node3).
func TestOutcomeDryRun(t *testing.T) {
	pods := []*api.Pod{
		mkPod("p1", on("node1"), label("app", "foo"), prio(midPriority), req(largeRes)),
		mkPod("p2", on("node2"), label("app", "foo"), prio(midPriority), req(largeRes)),
		mkPod("p3", on("node3"), prio(midPriority), req(largeRes)),
		mkPod("p4", on("node4"), prio(midPriority), req(largeRes)),
		mkPod("p5", on("node5"), label("app", "foo"), prio(midPriority), req(largeRes)),
	}
	var nodes []*api.Node
	for i := 1; i <= 5; i++ {
		nodes = append(nodes, mkNode(fmt.Sprint("node", i), veryLargeRes[0], veryLargeRes[1], "32"))
	}
	pct, abs := int32(40), int32(2)
	cfg := framework.ProfileConfig{PluginArgs: map[string]any{defaultpreemption.Name: &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: &pct, MinCandidateNodesAbsolute: &abs}}}
	// By offset: each node tried, "+" kept as a candidate, "-" left out.
	want := map[int32]string{
		0: "node1+ node2+ node3+",
		1: "node2+ node3+",
		2: "node3+ node4+",
		3: "node4+ node5+",
		4: "node5+ node1+ node2- node3+",
	}
	seen := map[int32]bool{}
	for seed := uint64(0); seed < 200 && len(seen) < len(want); seed++ {
		h, err := newHandle(nodes, pods, []*api.PodDisruptionBudget{pdb("pdb", map[string]string{"app": "foo"}, 0)}, seed, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		o := h.preempt(mkPod("p", prio(highPriority), req(largeRes)), unsched("node1", "node2", "node3", "node4", "node5"))
		if o.NumPotential != 5 || o.NumCandidates != 2 {
			t.Fatalf("potential %d, candidates %d", o.NumPotential, o.NumCandidates)
		}
		var got []string
		for _, d := range o.DryRun {
			mark := "+"
			if !d.Candidate {
				mark = "-"
			}
			got = append(got, d.Node+mark)
			if !d.Status.IsSuccess() || len(d.Victims) != 1 || d.Victims[0].Name != "p"+strings.TrimPrefix(d.Node, "node") {
				t.Errorf("offset %d: %s: %v victims %s", o.Offset, d.Node, d.Status, names(d.Victims))
			}
			if wantViol := d.Node != "node3" && d.Node != "node4"; (d.NumPDBViolations == 1) != wantViol {
				t.Errorf("offset %d: %s: %d violations", o.Offset, d.Node, d.NumPDBViolations)
			}
		}
		if g := strings.Join(got, " "); g != want[o.Offset] {
			t.Errorf("offset %d: dry run %s, want %s", o.Offset, g, want[o.Offset])
		}
		kept := 0
		for _, d := range o.DryRun {
			if d.Candidate {
				kept++
			}
		}
		if kept != len(o.Candidates) {
			t.Errorf("offset %d: %d kept, %d candidates", o.Offset, kept, len(o.Candidates))
		}
		seen[o.Offset] = true
	}
	if len(seen) != len(want) {
		t.Errorf("offsets seen %v", seen)
	}
}
