package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOneVocabulary: a pod placed by preempting is "preempting" with its
// node and victims in explain, simulate, compare and the HTML report, in
// tables and JSON, and every command's summary line reads the same.
func TestOneVocabulary(t *testing.T) {
	const line = "6 pod(s): 5 placed, 1 preempting, 0 unschedulable, 0 gated\n"
	_, out, _ := runCmd(t, "", "explain", "-f", bundled)
	if !strings.Contains(out, "shop/checkout → preempting on node-c1, evicting batch/report-1, batch/report-2") || !strings.Contains(out, line) {
		t.Errorf("explain:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "simulate", "-f", bundled)
	if !strings.Contains(out, line) {
		t.Errorf("simulate:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "compare", "-f", bundled, "--config", bundled+"/config/most-allocated.yaml", "--all")
	// Every column has a header.
	if !strings.Contains(out, "POD                        A                     B                     TOTAL A  TOTAL B  SHARE A  SHARE B  DELTA  CHANGE") {
		t.Errorf("compare header:\n%s", out)
	}
	if !strings.Contains(out, "A: "+line) || !strings.Contains(out, "B: "+line) || !strings.Contains(out, "node-c1 (preempting)") {
		t.Errorf("compare:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "compare", "-f", bundled, "--config", bundled+"/config/most-allocated.yaml", "--all", "-o", "json")
	var doc struct {
		Pods []comparedPod `json:"pods"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Pods[0]
	if c.Pod != "shop/checkout" || c.OutcomeA.String() != "preempting" || c.PreemptionA == nil || c.PreemptionA.Node != "node-c1" || len(c.PreemptionA.Victims) != 2 || c.Moved {
		t.Errorf("compare JSON checkout: %+v", c)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	runCmd(t, "", "explain", "-f", bundled, "--html", page)
	b, _ := os.ReadFile(page)
	if html := string(b); strings.Contains(html, "not placed") || !strings.Contains(html, `<h2 class="preempting">shop/checkout → preempting on node-c1`) {
		t.Errorf("HTML heading of the preempting pod:\n%s", html)
	}
	_, out, _ = runCmd(t, "", "drain", "-f", bundled, "--ignore-daemonsets", "node-b1", "-o", "json")
	if !strings.Contains(out, `"outcome":"moved","node":"node-`) || !strings.Contains(out, `"scheduled":"placed"`) {
		t.Errorf("drain JSON: the replacement's scheduled outcome:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "drain", "-f", bundled, "--ignore-daemonsets", "node-b1")
	if !strings.Contains(out, "scheduled (replacements and pending pods): 7 pod(s): 6 placed, 1 preempting, 0 unschedulable, 0 gated") {
		t.Errorf("drain:\n%s", out)
	}
}

// TestExitRule: the one exit rule; simulate exits 1 as explain does when
// a pod fits only by preempting, and --strict makes a warning exit 1.
func TestExitRule(t *testing.T) {
	for _, cmd := range []string{"explain", "simulate"} {
		if code, _, _ := runCmd(t, preemptionCluster, cmd, "-f", "-"); code != exitUnschedulable {
			t.Errorf("%s on a preempting pod: exit %d, want 1", cmd, code)
		}
	}
	withTypo := "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"10\"}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeSelectr: {a: b}, containers: [{name: c, image: i}]}\n"
	for _, cmd := range []string{"explain", "simulate"} {
		if code, _, _ := runCmd(t, withTypo, cmd, "-f", "-", "--validate=warn"); code != exitOK {
			t.Errorf("%s with a warning: exit %d, want 0", cmd, code)
		}
		if code, _, _ := runCmd(t, withTypo, cmd, "-f", "-", "--validate=warn", "--strict"); code != exitUnschedulable {
			t.Errorf("%s --strict with a warning: exit %d, want 1", cmd, code)
		}
	}
	_, out, _ := runCmd(t, "", "--help")
	if !strings.Contains(out, "1  when some pod is unschedulable or fits only by preempting") {
		t.Errorf("top-level help does not state the rule:\n%s", out)
	}
}

// gatedPod is a pod held back by a scheduling gate.
const gatedPod = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: g}
spec: {schedulingGates: [{name: example.com/wait}], containers: [{name: c, image: i}]}
`

// TestTablesFit: the default table of the bundled manifests fits 120
// columns, with short plugin headers and a legend; "(tied: …)" only for
// more than one tied node; a gated pod is one line; notes are notes.
func TestTablesFit(t *testing.T) {
	_, out, stderr := runCmd(t, "", "explain", "-f", bundled)
	for l := range strings.Lines(out) {
		if n := utf8.RuneCountInString(strings.TrimSuffix(l, "\n")); n > maxWidth {
			t.Errorf("line of %d columns: %s", n, l)
		}
	}
	for _, w := range []string{"Taint×3  Fit×1  Vol×1  Bal×1  Img×1", "legend: Taint TaintToleration, Fit NodeResourcesFit", "batch/trainer → gpu-a1 (tied: gpu-a1, gpu-c1)\n", "shop/worker → node-b2\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("explain lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(stderr, "not in this build") {
		t.Errorf("not-evaluated warning though no pod uses DRA:\n%s", stderr)
	}
	_, out, _ = runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/worker", "-owide")
	if !strings.Contains(out, "TaintToleration×3  NodeResourcesFit×1") || !strings.Contains(out, "CPU IF PLACED HERE") {
		t.Errorf("-o wide: full plugin names and the if-placed columns:\n%s", out)
	}
	_, out, _ = runCmd(t, "", "explain", "-f", bundled, "--top", "2", "--pod", "shop/worker")
	if !strings.Contains(out, "  note: 6 more node(s) not shown (--top 2)") || strings.Contains(out, "warning:") {
		t.Errorf("--top note:\n%s", out)
	}
	_, out, _ = runCmd(t, gatedPod, "explain", "-f", "-")
	if want := "default/g → gated: waiting for scheduling gates: [example.com/wait]\n\n1 pod(s): 0 placed, 0 preempting, 0 unschedulable, 1 gated\n"; out != want {
		t.Errorf("gated pod:\n%s\nwant:\n%s", out, want)
	}
	dra := "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"10\"}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {resourceClaims: [{name: gpu, resourceClaimName: c}], containers: [{name: c, image: i}]}\n"
	// DynamicResources is in this build: a DRA pod is not marked.
	_, _, stderr = runCmd(t, dra, "explain", "-f", "-")
	// DynamicResources is in this build: a pod with claims gets no
	// not-evaluated warning.
	if strings.Contains(stderr, "not in this build") {
		t.Errorf("DRA pod: a not-evaluated warning:\n%s", stderr)
	}
}

// TestSeedNames: --seed changes random tie-breaking only; the pods
// workloads add keep their names.
func TestSeedNames(t *testing.T) {
	names := func(seed string) []string {
		_, out, _ := runCmd(t, "", "explain", "-f", bundled, "--ties", "random", "--seed", seed, "-o", "json")
		v := decodeExplain(t, out)
		var n []string
		for _, p := range v.Pods {
			n = append(n, p.Pod)
		}
		return n
	}
	a, b := names("1"), names("7")
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("--seed changed pod names:\n%v\n%v", a, b)
	}
}
