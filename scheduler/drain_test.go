package scheduler

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// drainPod is the pod "default/bar" on node "node", as kubectl's
// TestDrain builds it: controlled by a controller of kind (none when
// ""), with an emptyDir volume when emptyDir, in phase.
func drainPod(kind string, emptyDir bool, phase api.PodPhase) *api.Pod {
	p := boundPrioPod("bar", 0, "100m", "node", 0)
	p.Labels = map[string]string{"name": "bar"}
	p.Status.Phase = phase
	if kind != "" {
		apiVersion := map[string]string{"ReplicationController": "v1", "Job": "batch/v1"}[kind]
		if apiVersion == "" {
			apiVersion = "apps/v1"
		}
		p.OwnerReferences = []api.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: strings.ToLower(kind[:2]), Controller: ptr(true)}}
		if kind == "DaemonSet" {
			p.OwnerReferences[0].Name = "ds"
		}
	}
	if emptyDir {
		p.Spec.Volumes = []api.Volume{{Name: "scratch", EmptyDir: &api.EmptyDirVolumeSource{}}}
	}
	return p
}

// Drain's filters judge each pod as kubectl drain v1.37's do, with its
// texts. The rows named "TestDrain: ..." are the rows of k8s.io/kubectl
// pkg/cmd/drain TestDrain with that description.
func TestDrainFilters(t *testing.T) {
	running, succeeded := api.PodRunning, api.PodSucceeded
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds", Namespace: "default"}}
	tests := []struct {
		name     string
		pod      *api.Pod
		opt      DrainOptions
		noDS     bool // the object store holds no DaemonSet
		outcome  DrainOutcome
		warnings string
		errors   string
	}{
		{name: "TestDrain: RC-managed pod", pod: drainPod("ReplicationController", false, running), outcome: DrainEvicted},
		{name: "TestDrain: DS-managed pod", pod: drainPod("DaemonSet", false, running), outcome: DrainRefused,
			errors: "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/bar"},
		{name: "TestDrain: DS-managed terminated pod", pod: drainPod("DaemonSet", false, succeeded), outcome: DrainEvicted},
		{name: "TestDrain: orphaned DS-managed pod", pod: drainPod("", false, running), outcome: DrainRefused,
			errors: "cannot delete Pods that declare no controller (use --force to override): default/bar"},
		{name: "TestDrain: orphaned DS-managed pod with --force", pod: drainPod("", false, running), opt: DrainOptions{Force: true}, outcome: DrainEvicted,
			warnings: "deleting Pods that declare no controller: default/bar"},
		{name: "TestDrain: DS-managed pod with --ignore-daemonsets", pod: drainPod("DaemonSet", false, running), opt: DrainOptions{IgnoreDaemonSets: true}, outcome: DrainIgnored,
			warnings: "ignoring DaemonSet-managed Pods: default/bar"},
		{name: "TestDrain: DS-managed pod with emptyDir with --ignore-daemonsets", pod: drainPod("DaemonSet", true, running), opt: DrainOptions{IgnoreDaemonSets: true}, outcome: DrainIgnored,
			warnings: "ignoring DaemonSet-managed Pods: default/bar"},
		// The local storage warning is dropped by the controller filter
		// that follows it, as kubectl drops it.
		{name: "TestDrain: Job-managed pod with local storage", pod: drainPod("Job", true, running), opt: DrainOptions{Force: true, DeleteEmptyDirData: true}, outcome: DrainEvicted},
		{name: "TestDrain: Job-managed terminated pod", pod: drainPod("Job", true, succeeded), outcome: DrainEvicted},
		{name: "TestDrain: RS-managed pod", pod: drainPod("ReplicaSet", false, running), outcome: DrainEvicted},
		{name: "TestDrain: naked pod", pod: drainPod("", false, running), outcome: DrainRefused,
			errors: "cannot delete Pods that declare no controller (use --force to override): default/bar"},
		{name: "TestDrain: naked pod with --force", pod: drainPod("", false, running), opt: DrainOptions{Force: true}, outcome: DrainEvicted,
			warnings: "deleting Pods that declare no controller: default/bar"},
		{name: "TestDrain: pod with EmptyDir", pod: drainPod("", true, running), opt: DrainOptions{Force: true}, outcome: DrainRefused,
			errors: "cannot delete Pods with local storage (use --delete-emptydir-data to override): default/bar"},
		{name: "TestDrain: terminated pod with emptyDir", pod: drainPod("", true, succeeded), outcome: DrainEvicted},
		{name: "TestDrain: pod with EmptyDir and --delete-emptydir-data", pod: drainPod("", true, running), opt: DrainOptions{Force: true, DeleteEmptyDirData: true}, outcome: DrainEvicted,
			warnings: "deleting Pods that declare no controller: default/bar"},
		{name: "TestDrain: empty node"},
		// daemonSetFilter: the DaemonSet is gone (the API server's
		// NotFound text), refused without --force.
		{name: "DS-managed pod whose DaemonSet is gone", pod: func() *api.Pod {
			p := drainPod("DaemonSet", false, running)
			p.OwnerReferences[0].Name = "missing-ds"
			return p
		}(),
			outcome: DrainRefused, errors: `cannot delete daemonsets.apps "missing-ds" not found: default/bar`},
		// With --force it is evicted; the warning is dropped by the
		// filters after it, as kubectl drops it.
		{name: "DS-managed pod whose DaemonSet is gone, --force", pod: func() *api.Pod {
			p := drainPod("DaemonSet", false, running)
			p.OwnerReferences[0].Name = "missing-ds"
			return p
		}(),
			opt: DrainOptions{Force: true}, outcome: DrainEvicted},
		// An input without DaemonSets: the pod's DaemonSet is taken to be
		// left out, not gone.
		{name: "DS-managed pod, no DaemonSet in the input", pod: drainPod("DaemonSet", false, running), noDS: true, opt: DrainOptions{IgnoreDaemonSets: true}, outcome: DrainIgnored,
			warnings: "ignoring DaemonSet-managed Pods: default/bar"},
		// mirrorPodFilter: skipped without a word.
		{name: "mirror pod", pod: func() *api.Pod {
			p := drainPod("", false, running)
			p.Annotations = map[string]string{mirrorPodAnnotation: ""}
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "node", Controller: ptr(true)}}
			return p
		}(), outcome: DrainIgnored},
		// --pod-selector: a pod it does not select is not listed.
		{name: "pod-selector leaves the pod out", pod: drainPod("", false, running), opt: DrainOptions{PodSelector: "name!=bar"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pods []*api.Pod
			if tc.pod != nil {
				pods = append(pods, tc.pod)
			}
			snap, err := cluster.NewSnapshot([]*api.Node{cpuNode("node", "4"), cpuNode("other", "4")}, pods)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.noDS {
				if err := snap.AddObject(ds); err != nil {
					t.Fatal(err)
				}
			}
			s, err := New(snap)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rep, err := s.Drain(context.Background(), []string{"node"}, time.Unix(0, 0), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			var outcome DrainOutcome
			if len(rep.Pods) == 1 {
				outcome = rep.Pods[0].Outcome
			} else if len(rep.Pods) > 1 {
				t.Fatalf("%d pods", len(rep.Pods))
			}
			var errs []string
			for _, e := range rep.Errors {
				errs = append(errs, e.Error())
			}
			if outcome != tc.outcome || strings.Join(rep.Warnings, "|") != tc.warnings || strings.Join(errs, "|") != tc.errors {
				t.Errorf("outcome %v, warnings %q, errors %q\nwant %v, %q, %q", outcome, rep.Warnings, errs, tc.outcome, tc.warnings, tc.errors)
			}
			if fmt.Sprint(rep.Cordoned) != "[node]" {
				t.Errorf("cordoned %v", rep.Cordoned)
			}
		})
	}
}

// A refused pod stops its node's drain; the other node is drained. The
// eviction API refuses what a budget does not allow, unless eviction is
// disabled; a budget without status gets the disruption controller's.
func TestDrainNodesAndBudgets(t *testing.T) {
	ready := func(p *api.Pod) *api.Pod {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		return p
	}
	owned := func(name, node string) *api.Pod {
		p := ready(boundPrioPod(name, 0, "100m", node, 0))
		p.Labels = map[string]string{"app": "web"}
		p.Status.Phase = api.PodRunning
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", Controller: ptr(true)}}
		return p
	}
	bare := ready(boundPrioPod("bare", 0, "100m", "a", 0))
	bare.Status.Phase = api.PodRunning
	pods := []*api.Pod{owned("web-a", "a"), bare, owned("web-b1", "b"), owned("web-b2", "b"), owned("web-c", "c")}
	one := api.IntOrString{IntVal: 1}
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
	pdb.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	pdb.Spec.MaxUnavailable = &one
	for _, tc := range []struct {
		opt  DrainOptions
		want string
	}{
		{DrainOptions{}, "web-a NotDrained, bare Refused, web-b1 Evicted, web-b2 Blocked"},
		{DrainOptions{DisableEviction: true}, "web-a NotDrained, bare Refused, web-b1 Deleted, web-b2 Deleted"},
		{DrainOptions{Force: true}, "web-a Evicted, bare Evicted, web-b1 Blocked, web-b2 Blocked"},
	} {
		snap, err := cluster.NewSnapshot([]*api.Node{cpuNode("a", "4"), cpuNode("b", "4"), cpuNode("c", "4")}, pods)
		if err != nil {
			t.Fatal(err)
		}
		if err := snap.AddObject(pdb); err != nil {
			t.Fatal(err)
		}
		s, err := New(snap)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := s.Drain(context.Background(), []string{"a", "b"}, time.Unix(0, 0), tc.opt)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range rep.Pods {
			got = append(got, p.Pod.Name+" "+p.Outcome.String())
			if p.Outcome == DrainEvicted || p.Outcome == DrainDeleted {
				if p.Replaced != (p.Pod.Name != "bare") || (p.Replaced && p.Placement.Node != "c") {
					t.Errorf("%+v: %s replaced %v on %q", tc.opt, p.Pod.Name, p.Replaced, p.Placement.Node)
				}
			}
			if p.Outcome == DrainBlocked && !strings.HasPrefix(p.Message, "Cannot evict pod as it would violate the pod's disruption budget.") {
				t.Errorf("blocked message %q", p.Message)
			}
		}
		if g := strings.Join(got, ", "); g != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.opt, g, tc.want)
		}
	}
}

// The status the disruption controller computes for a budget it has not
// seen: expected, healthy (Ready) and desired pods, percentages rounded up.
func TestComputedBudgetStatus(t *testing.T) {
	var pods []*api.Pod
	for i := range 4 {
		p := boundPrioPod(fmt.Sprint("p", i), 0, "1", "n", 0)
		p.Labels = map[string]string{"app": "x"}
		if i < 3 {
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		}
		pods = append(pods, p)
	}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}
	for _, tc := range []struct {
		min, max *api.IntOrString
		want     api.PodDisruptionBudgetStatus
	}{
		{min: &api.IntOrString{IntVal: 2}, want: api.PodDisruptionBudgetStatus{ExpectedPods: 4, CurrentHealthy: 3, DesiredHealthy: 2, DisruptionsAllowed: 1}},
		{min: &api.IntOrString{IsString: true, StrVal: "60%"}, want: api.PodDisruptionBudgetStatus{ExpectedPods: 4, CurrentHealthy: 3, DesiredHealthy: 3, DisruptionsAllowed: 0}},
		{max: &api.IntOrString{IsString: true, StrVal: "30%"}, want: api.PodDisruptionBudgetStatus{ExpectedPods: 4, CurrentHealthy: 3, DesiredHealthy: 2, DisruptionsAllowed: 1}},
		{max: &api.IntOrString{IntVal: 0}, want: api.PodDisruptionBudgetStatus{ExpectedPods: 4, CurrentHealthy: 3, DesiredHealthy: 4, DisruptionsAllowed: 0}},
	} {
		pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "b", Namespace: "default"}}
		pdb.Spec.Selector, pdb.Spec.MinAvailable, pdb.Spec.MaxUnavailable = sel, tc.min, tc.max
		got := computedBudgetStatus(pdb, pods)
		if got.ExpectedPods != tc.want.ExpectedPods || got.CurrentHealthy != tc.want.CurrentHealthy || got.DesiredHealthy != tc.want.DesiredHealthy || got.DisruptionsAllowed != tc.want.DisruptionsAllowed {
			t.Errorf("min %v max %v: %+v, want %+v", tc.min, tc.max, got, tc.want)
		}
	}
}
