package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tableLines returns out's lines with runs of spaces collapsed to one,
// so that assertions do not depend on column widths.
func tableLines(out string) []string {
	sp := regexp.MustCompile(` {2,}`)
	var lines []string
	for l := range strings.Lines(out) {
		lines = append(lines, sp.ReplaceAllString(strings.TrimRight(l, "\n"), "  "))
	}
	return lines
}

func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	got := tableLines(out)
	for _, w := range want {
		found := false
		for _, l := range got {
			if l == w {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no line %q in:\n%s", w, out)
		}
	}
}

// TestExplainPreemptionTable: for a pod that fits nowhere, the table has
// a PREEMPTION column with each node's verdict, and REASONS says which
// pods preemption would evict there or why it cannot help; -o wide spells
// the codes in full.
func TestExplainPreemptionTable(t *testing.T) {
	code, out, stderr := runCmd(t, preemptionCluster, "explain", "-f", "-")
	if code != exitUnschedulable {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	// The default table wraps long reasons under the REASONS column.
	wantLines(t, out,
		"  REJECTED NODE  VERDICT  PREEMPTION  REASONS",
		"  n1  Unschedulable  Candidate (chosen)  NodeResourcesFit: Insufficient cpu; preemption would evict",
		"  default/low-a, default/low-b",
		"  n2  Unschedulable  CannotHelp  NodeResourcesFit: Insufficient cpu; preemption cannot help: No",
		"  preemption victims found for incoming pod",
		"  n3  Unresolvable  Unresolvable  NodeResourcesFit: Insufficient cpu",
	)
	code, out, _ = runCmd(t, preemptionCluster, "explain", "-f", "-", "-o", "wide")
	if code != exitUnschedulable {
		t.Fatalf("wide: exit %d", code)
	}
	wantLines(t, out,
		"  REJECTED NODE  VERDICT  PREEMPTION  REASONS",
		"  n3  UnschedulableAndUnresolvable  Unresolvable  NodeResourcesFit: Insufficient cpu",
		"  n1  Unschedulable  Candidate (chosen)  NodeResourcesFit: Insufficient cpu; preemption would evict default/low-a, default/low-b",
	)
}

// TestExplainPreemptionTablePlaced: a pod placed without preemption has
// no PREEMPTION column.
func TestExplainPreemptionTablePlaced(t *testing.T) {
	_, out, _ := runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/worker")
	if strings.Contains(out, "PREEMPTION") || !strings.Contains(out, "REASONS") {
		t.Errorf("placed pod's table:\n%s", out)
	}
}

// pdbCluster: the only node's two low-priority pods are covered by a
// PodDisruptionBudget that allows no disruption.
const pdbCluster = `kind: PriorityClass
apiVersion: scheduling.k8s.io/v1
metadata: {name: urgent}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
kind: PodDisruptionBudget
apiVersion: policy/v1
metadata: {name: batch, namespace: default}
spec: {selector: {matchLabels: {app: batch}}, minAvailable: 2}
status: {disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2}
---
apiVersion: v1
kind: Pod
metadata: {name: low-a, uid: la, labels: {app: batch}}
spec: {nodeName: n1, priority: 0, containers: [{name: c, image: img, resources: {requests: {cpu: "1"}}}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: low-b, uid: lb, labels: {app: batch}}
spec: {nodeName: n1, priority: 0, containers: [{name: c, image: img, resources: {requests: {cpu: "1"}}}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec: {priorityClassName: urgent, containers: [{name: c, image: img, resources: {requests: {cpu: "2"}}}]}
`

// TestExplainPreemptionTablePDB: the victims' PodDisruptionBudget
// violations are counted on the node's row.
func TestExplainPreemptionTablePDB(t *testing.T) {
	_, out, _ := runCmd(t, pdbCluster, "explain", "-f", "-", "-o", "wide")
	wantLines(t, out,
		"  n1  Unschedulable  Candidate (chosen)  NodeResourcesFit: Insufficient cpu; preemption would evict default/low-a, default/low-b (2 violating a PodDisruptionBudget)")
}

// TestExplainPreemptionTableNever: a pod with preemptionPolicy Never is
// not eligible on any node, with upstream's reason.
func TestExplainPreemptionTableNever(t *testing.T) {
	never := strings.Replace(preemptionCluster, "value: 1000\n", "value: 1000\npreemptionPolicy: Never\n", 1)
	code, out, _ := runCmd(t, never, "explain", "-f", "-", "-owide")
	if code != exitUnschedulable {
		t.Fatalf("exit %d\n%s", code, out)
	}
	wantLines(t, out,
		"  n1  Unschedulable  NotEligible  NodeResourcesFit: Insufficient cpu; preemption: not eligible due to preemptionPolicy=Never.",
		"  n3  UnschedulableAndUnresolvable  NotEligible  NodeResourcesFit: Insufficient cpu; preemption: not eligible due to preemptionPolicy=Never.",
	)
}

// TestExplainPreemptionTableNotTried: with DefaultPreemption looking for
// one candidate, the dry run stops at the first node that can help and
// the other is NotTried.
func TestExplainPreemptionTableNotTried(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "one.yaml")
	if err := os.WriteFile(cfg, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: DefaultPreemption
    args: {minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 1}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Both n1 and n2 hold two priority-0 pods.
	two := strings.Replace(preemptionCluster, "metadata: {name: high, uid: h}\nspec: {nodeName: n2, priority: 2000,", "metadata: {name: high, uid: h}\nspec: {nodeName: n2, priority: 0,", 1)
	code, out, stderr := runCmd(t, two, "explain", "-f", "-", "--config", cfg)
	if code != exitUnschedulable {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var chosen, notTried int
	for _, l := range tableLines(out) {
		if strings.Contains(l, "  Candidate (chosen)  ") {
			chosen++
		}
		if strings.HasSuffix(l, "  NotTried  NodeResourcesFit: Insufficient cpu") {
			notTried++
		}
	}
	if chosen != 1 || notTried != 1 {
		t.Errorf("want one chosen node and one not tried:\n%s", out)
	}
}

// TestHTMLReportPreemption: the HTML report's rejected nodes carry the
// preemption verdicts.
func TestHTMLReportPreemption(t *testing.T) {
	page := filepath.Join(t.TempDir(), "report.html")
	if code, _, stderr := runCmd(t, preemptionCluster, "explain", "-f", "-", "--html", page); code != exitUnschedulable {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{
		"<th>preemption</th>",
		"<td>n1</td><td>Unschedulable</td><td>NodeResourcesFit</td><td>Insufficient cpu</td><td>Candidate (chosen): preemption would evict default/low-a, default/low-b</td>",
		"<td>n2</td><td>Unschedulable</td><td>NodeResourcesFit</td><td>Insufficient cpu</td><td>CannotHelp: preemption cannot help: No preemption victims found for incoming pod</td>",
		"<td>Unresolvable</td>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
