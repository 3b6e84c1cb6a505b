package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/scheduler"
)

const gangExample = "../../../examples/manifests/gang"

// TestSimulateGangs: with GenericWorkload on, simulate places the
// bundled gangs all or nothing and says so per group.
func TestSimulateGangs(t *testing.T) {
	code, out, stderr := runCmd(t, "", "simulate", "-f", bundled, "-f", gangExample, "--feature-gates", "GenericWorkload=true")
	if code != exitUnschedulable {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{
		"default/trainer  4          4     4       True (Scheduled)       gang of 4 fits on nodes node-a2, node-b2",
		"default/sweep    8          8     0       False (Unschedulable)  does not fit: minCount (8) cannot be satisfied: 0 scheduled, 7 remaining; the first pod that fits nowhere: default/sweep-0: 0/8 nodes are available: 2 node(s) had untolerated taint(s), 6 Insufficient cpu.",
		"default/eval     3          2     0       -                      waiting for 1 more member (2 of minCount 3)",
		"default/eval-0             0         gated",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	code, out, _ = runCmd(t, "", "simulate", "-f", bundled, "-f", gangExample, "--feature-gates", "GenericWorkload=true", "-o", "json")
	if code != exitUnschedulable {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Gangs []scheduler.GangSummary `json:"gangs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Gangs) != 3 || doc.Gangs[0].Placed != 4 || doc.Gangs[2].Waiting != 1 {
		t.Fatalf("gangs: %+v", doc.Gangs)
	}
	// The PodGroupInitiallyScheduled condition, as kube-scheduler's
	// updatePodGroupCondition writes it; a gated group has none.
	if c := doc.Gangs[0].Condition; c == nil || c.Status != "True" || c.Reason != "Scheduled" {
		t.Errorf("trainer condition: %+v", c)
	}
	want := "minCount (8) cannot be satisfied: 0 scheduled, 7 remaining, pod group preemption: No preemption victims found for incoming preemptor"
	if c := doc.Gangs[1].Condition; c == nil || c.Status != "False" || c.Reason != "Unschedulable" || c.Message != want {
		t.Errorf("sweep condition: %+v", c)
	}
	if c := doc.Gangs[2].Condition; c != nil {
		t.Errorf("eval condition: %+v", c)
	}
}

// TestFeatureGatesFlag: the flag's errors are component-base's, and the
// gates off schedule a gang's pods one by one.
func TestFeatureGatesFlag(t *testing.T) {
	code, _, stderr := runCmd(t, "", "simulate", "-f", bundled, "--feature-gates", "GenericWorkload=true,Foo=false")
	if code != exitBadInput || !strings.Contains(stderr, "--feature-gates: unrecognized feature gate: Foo") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "", "explain", "-f", bundled, "--feature-gates", "DynamicResourceAllocation=false")
	if code != exitBadInput || !strings.Contains(stderr, "--feature-gates: cannot set feature gate DynamicResourceAllocation to false, feature is locked to true") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, out, _ := runCmd(t, "", "simulate", "-f", bundled, "-f", gangExample)
	if strings.Contains(out, "POD GROUP") || !strings.Contains(out, "default/sweep-0") {
		t.Fatalf("gates off:\n%s", out)
	}
}

// TestCapacityGangs: with GenericWorkload on, capacity counts whole
// gangs of a shape naming a PodGroup, lists each gang's nodes, and says
// which member of the next gang fits nowhere; with the gate off the same
// shape counts pods.
func TestCapacityGangs(t *testing.T) {
	shape := "../../../examples/manifests/shapes/gang.yaml"
	code, out, stderr := runCmd(t, "", "capacity", "-f", bundled, "--pod", shape, "--feature-gates", "GenericWorkload=true")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{
		"default/trainer  2 gang(s) of 4  node-a1×2 node-a2×2 node-b2×2 node-c1×1 node-c2×1  default/trainer-gang-copy-3-0: 0/8 nodes are available: 2 node(s) had untolerated taint(s), 6 Insufficient cpu.",
		"default/trainer: gangs of PodGroup default/trainer-gang (minCount 4)",
		"  default/trainer-gang-copy-1 on nodes node-b2, node-b2, node-a1, node-a2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "", "capacity", "-f", bundled, "--pod", shape)
	if !strings.Contains(out, "default/trainer  8 ") {
		t.Errorf("gate off:\n%s", out)
	}
	// A shape naming a PodGroup nobody gives is an input error.
	missing := filepath.Join(t.TempDir(), "pod.yaml")
	doc := "apiVersion: v1\nkind: Pod\nmetadata: {name: w, namespace: default}\nspec:\n  schedulingGroup: {podGroupName: nope}\n  containers: [{name: c, image: i}]\n"
	if err := os.WriteFile(missing, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCmd(t, "", "capacity", "-f", bundled, "--pod", missing, "--feature-gates", "GenericWorkload=true")
	if want := "--pod: pod default/w: PodGroup default/nope not found in the --pod files, the cluster, or a Workload's podGroupTemplates"; code != exitBadInput || !strings.Contains(stderr, want) {
		t.Fatalf("missing PodGroup: exit %d: %s", code, stderr)
	}
	// A Workload's podGroupTemplate of the name the shape gives.
	wl := filepath.Join(t.TempDir(), "workload.yaml")
	doc = `apiVersion: v1
kind: List
items:
- apiVersion: scheduling.k8s.io/v1beta1
  kind: Workload
  metadata: {name: job, namespace: default}
  spec:
    podGroupTemplates: [{name: workers, schedulingPolicy: {gang: {minCount: 5}}}]
- apiVersion: v1
  kind: Pod
  metadata: {name: w, namespace: default}
  spec:
    schedulingGroup: {podGroupName: workers}
    containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]
`
	if err := os.WriteFile(wl, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCmd(t, "", "capacity", "-f", bundled, "--pod", wl, "--feature-gates", "GenericWorkload=true")
	if code != exitOK || !strings.Contains(out, "default/w  1 gang(s) of 5") {
		t.Fatalf("workload template: exit %d:\n%s\n%s", code, out, stderr)
	}
}

// TestCompareGangs: with GenericWorkload on, compare runs each
// configuration's queue with gangs as units and gives each gang's
// outcome under A and B; with the gate off it explains pod by pod.
func TestCompareGangs(t *testing.T) {
	cfg := "../../../examples/manifests/config/most-allocated.yaml"
	code, out, stderr := runCmd(t, "", "compare", "-f", bundled, "-f", gangExample, "--config", cfg, "--feature-gates", "GenericWorkload=true")
	if code != exitUnschedulable {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{
		"default/trainer-0          node-c2  node-b2  -        -        -        -        -      moved",
		"default/trainer  A       gang of 4 fits on nodes node-a1, node-c1, node-c2\n",
		"                 B       gang of 4 fits on nodes node-a2, node-b2 (differs)\n",
		"default/eval     A       waiting for 1 more member (2 of minCount 3)\n                 B       waiting for 1 more member (2 of minCount 3)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "", "compare", "-f", bundled, "-f", gangExample, "--config", cfg, "--feature-gates", "GenericWorkload=true", "-o", "json")
	var doc struct {
		Summary struct {
			Gangs []struct {
				PodGroup string                `json:"podGroup"`
				A        scheduler.GangSummary `json:"gangA"`
				B        scheduler.GangSummary `json:"gangB"`
				Moved    bool                  `json:"moved"`
			} `json:"gangs"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if g := doc.Summary.Gangs; len(g) != 3 || g[0].A.Placed != 4 || g[0].B.Placed != 4 || !g[0].Moved || g[2].Moved {
		t.Fatalf("gangs: %+v", g)
	}
	_, out, _ = runCmd(t, "", "compare", "-f", bundled, "-f", gangExample, "--config", cfg)
	if strings.Contains(out, "POD GROUP") {
		t.Fatalf("gate off:\n%s", out)
	}
}

// TestWhatIfGangs: drain, scale-up and scale-down take --feature-gates;
// with GenericWorkload on a gang is one unit: drain's replacements join
// their placed PodGroup, scale-down keeps a node whose gang members
// cannot move together, and scale-up puts the gang-aware answer beside
// cluster-autoscaler's pod-by-pod plan.
func TestWhatIfGangs(t *testing.T) {
	on := []string{"--feature-gates", "GenericWorkload=true"}
	args := append([]string{"drain", "-f", bundled, "-f", "testdata/gang-bound.yaml", "--ignore-daemonsets", "node-a1"}, on...)
	_, out, stderr := runCmd(t, "", args...)
	if want := "default/ring  3          2     2       2 pod(s) join the gang's 1 scheduled on nodes node-a2, node-c1"; !strings.Contains(out, want) {
		t.Errorf("drain: missing %q in\n%s\n%s", want, out, stderr)
	}
	args = append([]string{"scale-down", "-f", "testdata/gang-scaledown.yaml", "--node", "n1", "--utilization-threshold", "0.9"}, on...)
	_, out, _ = runCmd(t, "", args...)
	if want := "failed to find place for default/ring-0: pod group is unschedulable, minCount (3) cannot be satisfied: 2 scheduled, 0 remaining"; !strings.Contains(out, want) {
		t.Errorf("scale-down: missing %q in\n%s", want, out)
	}
	args = append([]string{"scale-up", "-f", bundled, "-f", gangExample, "--node-template", "../../../examples/manifests/nodegroups/templates.yaml"}, on...)
	_, out, _ = runCmd(t, "", args...)
	for _, want := range []string{
		"cluster-autoscaler v1.37 counts a gang's pods one by one; with the new nodes, each gang as kube-scheduler places it:",
		"default/sweep    yes     gang of 8 fits on nodes",
		"default/eval     no      waiting for 1 more member (2 of minCount 3)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scale-up: missing %q in\n%s", want, out)
		}
	}
	_, out, _ = runCmd(t, "", "scale-up", "-f", bundled, "-f", gangExample, "--node-template", "../../../examples/manifests/nodegroups/templates.yaml")
	if strings.Contains(out, "POD GROUP") {
		t.Errorf("scale-up, gate off:\n%s", out)
	}
}
