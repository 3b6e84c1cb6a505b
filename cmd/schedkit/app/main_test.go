package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/scheduler"
)

const bundled = "../../../examples/manifests"

// runCmd runs the command and returns its exit code, stdout and stderr.
func runCmd(t tb, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// explainJSON is explain's document, decoded.
type explainJSON struct {
	Pods    []podResult    `json:"pods"`
	Summary explainSummary `json:"summary"`
}

func decodeExplain(t tb, s string) explainJSON {
	t.Helper()
	var v explainJSON
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("explain JSON: %v\n%s", err, s)
	}
	return v
}

func i64(v int64) *int64 { return &v }

// TestExplainBundled runs the README's first command's JSON form on the
// bundled manifests and compares pods, verdicts, scores and marks.
func TestExplainBundled(t *testing.T) {
	code, out, stderr := runCmd(t, "", "explain", "-f", bundled, "-o", "json")
	if code != exitUnschedulable { // checkout fits only by preempting
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	got := decodeExplain(t, out)
	wantSummary := explainSummary{Summary: scheduler.Summary{Pods: 6, Placed: 5, Preempting: 1, Unverified: 0}, Nodes: 8}
	if diff := cmp.Diff(wantSummary, got.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	checkout := got.Pods[0]
	unresolvable := &nodePreemption{Verdict: "Unresolvable"}
	wantCheckout := podResult{
		Pod: "shop/checkout", Outcome: scheduler.OutcomePreempting, Node: "",
		Message: "0/8 nodes are available: 2 Insufficient cpu, 2 node(s) had untolerated taint(s), 4 node(s) didn't match Pod's node affinity/selector. preemption: found a potential placement for pod on node node-c1, preempting 2 victims",
		Nodes: map[string]nodeResult{
			"node-a1": {Code: "UnschedulableAndUnresolvable", Plugin: "NodeAffinity", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, Preemption: unresolvable},
			"node-a2": {Code: "UnschedulableAndUnresolvable", Plugin: "NodeAffinity", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, Preemption: unresolvable},
			"node-b1": {Code: "UnschedulableAndUnresolvable", Plugin: "NodeAffinity", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, Preemption: unresolvable},
			"node-b2": {Code: "UnschedulableAndUnresolvable", Plugin: "NodeAffinity", Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, Preemption: unresolvable},
			"node-c1": {Code: "Unschedulable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"},
				Preemption: &nodePreemption{Verdict: "Candidate", Chosen: true, Victims: []string{"batch/report-1", "batch/report-2"}}},
			"node-c2": {Code: "UnschedulableAndUnresolvable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}, Preemption: unresolvable},
			"gpu-a1":  {Code: "UnschedulableAndUnresolvable", Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint(s)"}, Preemption: unresolvable},
			"gpu-c1":  {Code: "UnschedulableAndUnresolvable", Plugin: "TaintToleration", Reasons: []string{"node(s) had untolerated taint(s)"}, Preemption: unresolvable},
		},
		Tied:         []string{},
		Preemption:   preemptionResult{Node: "node-c1", Victims: []string{"batch/report-1", "batch/report-2"}},
		NotEvaluated: checkout.NotEvaluated,
		Unverified:   []string{},
		Notes:        []string{},
	}
	if diff := cmp.Diff(wantCheckout, checkout); diff != "" {
		t.Errorf("checkout (-want +got):\n%s", diff)
	}
	// The GPU trainer: only the two tainted GPU nodes are feasible, tied.
	trainer := got.Pods[1]
	if trainer.Pod != "batch/trainer" || trainer.Node != "gpu-a1" || !cmp.Equal(trainer.Tied, []string{"gpu-a1", "gpu-c1"}) {
		t.Errorf("trainer: %s → %s, tied %v", trainer.Pod, trainer.Node, trainer.Tied)
	}
	wantGPU := nodeResult{Code: "Success", Reasons: []string{}, Total: i64(425),
		Scores: map[string]int64{"TaintToleration": 100, "NodeResourcesFit": 50, "VolumeBinding": 0, "NodeResourcesBalancedAllocation": 75, "ImageLocality": 0}}
	if diff := cmp.Diff(wantGPU, trainer.Nodes["gpu-c1"]); diff != "" {
		t.Errorf("trainer on gpu-c1 (-want +got):\n%s", diff)
	}
	// The Deployment's replicas use required hostname podAntiAffinity,
	// which InterPodAffinity checks: one replica per node, none marked
	// unverified.
	seen := map[string]bool{}
	for _, p := range got.Pods[3:] {
		if !strings.HasPrefix(p.Pod, "shop/web-") || len(p.Unverified) != 0 || p.Node == "" || seen[p.Node] {
			t.Errorf("%s: on %q (replicas so far on %v), unverified %q", p.Pod, p.Node, seen, p.Unverified)
		}
		seen[p.Node] = true
	}
	// The LimitRange gave the worker its default requests: it fits
	// everywhere but the tainted nodes.
	worker := got.Pods[2]
	feasible := 0
	for _, n := range worker.Nodes {
		if n.Total != nil {
			feasible++
		}
	}
	if worker.Pod != "shop/worker" || feasible != 6 {
		t.Errorf("worker: %s, %d feasible nodes", worker.Pod, feasible)
	}
	// Every plugin of the default profile is in this build: no warning.
	if strings.Contains(stderr, "not in this build") {
		t.Errorf("stderr has the not-evaluated warning:\n%s", stderr)
	}
}

// preemptionCluster: node n1 holds two priority-0 pods, n2 one pod of
// priority 2000, n3 a priority-0 pod too small to matter; "urgent"
// (priority 1000, 2 cpu) fits only by preempting on n1.
const preemptionCluster = `kind: PriorityClass
apiVersion: scheduling.k8s.io/v1
metadata: {name: urgent}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n3}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low-a, uid: la}
spec: {nodeName: n1, priority: 0, containers: [{name: c, image: img, resources: {requests: {cpu: "1"}}}]}
status: {phase: Running, startTime: "2026-01-01T00:00:00Z"}
---
apiVersion: v1
kind: Pod
metadata: {name: low-b, uid: lb}
spec: {nodeName: n1, priority: 0, containers: [{name: c, image: img, resources: {requests: {cpu: "1"}}}]}
status: {phase: Running, startTime: "2026-01-02T00:00:00Z"}
---
apiVersion: v1
kind: Pod
metadata: {name: high, uid: h}
spec: {nodeName: n2, priority: 2000, containers: [{name: c, image: img, resources: {requests: {cpu: "2"}}}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: small, uid: s}
spec: {nodeName: n3, priority: 0, containers: [{name: c, image: img, resources: {requests: {cpu: 500m}}}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: urgent}
spec: {priorityClassName: urgent, containers: [{name: c, image: img, resources: {requests: {cpu: "2"}}}]}
`

// TestExplainPreempting: a pod that fits only by preempting exits 1, is
// counted preempting, and its JSON carries the outcome of the library's
// dry run (scheduler.Explain): the nominated node, the victims in
// upstream's order and each node's verdict.
func TestExplainPreempting(t *testing.T) {
	code, out, stderr := runCmd(t, preemptionCluster, "explain", "-f", "-", "-o", "json")
	if code != exitUnschedulable {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	got := decodeExplain(t, out)
	if want := (explainSummary{Summary: scheduler.Summary{Pods: 1, Preempting: 1}, Nodes: 3}); got.Summary != want {
		t.Errorf("summary %+v, want %+v", got.Summary, want)
	}
	p := got.Pods[0]
	want := podResult{
		Pod: "default/urgent", Outcome: scheduler.OutcomePreempting, Node: "",
		Message: "0/3 nodes are available: 3 Insufficient cpu. preemption: found a potential placement for pod on node n1, preempting 2 victims",
		Nodes: map[string]nodeResult{
			"n1": {Code: "Unschedulable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"},
				Preemption: &nodePreemption{Verdict: "Candidate", Chosen: true, Victims: []string{"default/low-a", "default/low-b"}}},
			"n2": {Code: "Unschedulable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"},
				Preemption: &nodePreemption{Verdict: "CannotHelp", Reasons: []string{"No preemption victims found for incoming pod"}}},
			"n3": {Code: "UnschedulableAndUnresolvable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"},
				Preemption: &nodePreemption{Verdict: "Unresolvable"}},
		},
		Tied:         []string{},
		Preemption:   preemptionResult{Node: "n1", Victims: []string{"default/low-a", "default/low-b"}},
		NotEvaluated: p.NotEvaluated,
		Unverified:   []string{},
		Notes:        []string{},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("urgent (-want +got):\n%s", diff)
	}
	code, out, _ = runCmd(t, preemptionCluster, "explain", "-f", "-")
	if code != exitUnschedulable || !strings.Contains(out, "default/urgent → preempting on n1, evicting default/low-a, default/low-b: ") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
}

// TestExplainYAMLMatchesJSON: -o yaml is the same document.
func TestExplainYAMLMatchesJSON(t *testing.T) {
	_, js, _ := runCmd(t, "", "explain", "-f", bundled, "-o", "json")
	_, ys, _ := runCmd(t, "", "explain", "-f", bundled, "-o", "yaml")
	var a, b any
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatal(err)
	}
	if err := yamlUnmarshal([]byte(ys), &b); err != nil {
		t.Fatalf("%v\n%s", err, ys)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("yaml differs from json (-json +yaml):\n%s", diff)
	}
}

// TestCommandsOnBundled runs every command on the bundled manifests.
func TestCommandsOnBundled(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"explain", "-f", bundled, "--pod", "shop/worker", "-o", "wide"}, 0, []string{"shop/worker → node-b2\n", "CPU IF PLACED HERE", "0→250m/4", "IF PLACED HERE: requested now→with the pod on that node/allocatable"}},
		{[]string{"explain", "-f", bundled, "--independent", "--top", "2"}, 1, []string{"6 more node(s) not shown (--top 2)"}},
		// The one exit rule: the checkout pod fits only by preempting, so
		// simulate exits 1 as explain does.
		{[]string{"simulate", "-f", bundled}, 1, []string{"6 pod(s): 5 placed, 1 preempting, 0 unschedulable, 0 gated\n", "placed after preempting batch/report-1, batch/report-2 on node-c1", "preempting  node-c1  2"}},
		{[]string{"describe", "-f", bundled}, 0, []string{"shop/worker                  (pending)  Burstable  0         PreemptLowerPriority  250m", "node-b1  4                3100m"}},
		{[]string{"capacity", "-f", bundled, "--pod", bundled + "/shapes/web.yaml"}, 0, []string{"shop/api  18", "node-c1×2", "6 Insufficient cpu"}},
		{[]string{"compare", "-f", bundled, "--config", bundled + "/config/most-allocated.yaml"}, 1, []string{"4 pod(s) land differently", "A: 6 pod(s): 5 placed, 1 preempting, 0 unschedulable, 0 gated"}},
		{[]string{"drain", "-f", bundled, "--ignore-daemonsets", "node-b1"}, 1, []string{"Cannot evict pod as it would violate the pod's disruption budget.", "ignoring DaemonSet-managed Pods", "1 moved, 0 pending, 1 blocked, 1 stay"}},
		// Without --ignore-daemonsets kubectl refuses the node.
		{[]string{"drain", "-f", bundled, "node-b1"}, 1, []string{"refused  node-b1  DaemonSet-managed Pods (use --ignore-daemonsets to ignore)", "0 moved, 0 pending, 0 blocked, 2 stay, 1 refused"}},
		{[]string{"version"}, 0, []string{"kube-scheduler v1.37.2"}},
	}
	for _, c := range cases {
		code, out, stderr := runCmd(t, "", c.args...)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d\n%s%s", c.args, code, c.code, out, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}

// TestHelp: every command answers --help on stdout with exit 0 and an
// example.
func TestHelp(t *testing.T) {
	for _, c := range commands() {
		for _, h := range []string{"--help", "-h"} {
			code, out, _ := runCmd(t, "", c.name, h)
			if code != 0 || !strings.Contains(out, "Example:\n  schedkit "+c.name) || !strings.Contains(out, "Flags:") {
				t.Errorf("%s %s: exit %d\n%s", c.name, h, code, out)
			}
		}
	}
	if code, out, _ := runCmd(t, "", "--help"); code != 0 || !strings.Contains(out, "explain") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	if code, out, _ := runCmd(t, "", "help", "drain"); code != 0 || !strings.Contains(out, "schedkit drain [flags] NODE...") {
		t.Errorf("help drain: exit %d\n%s", code, out)
	}
}

func writeFile(t *testing.T, dir, name, s string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n"

// TestBadInput: every bad input and bad usage path exits 2 with a message
// naming the file, line, document and field.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	brokenYAML := writeFile(t, dir, "broken.yaml", node+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: p\nspec: {}\n")
	unknownKind := writeFile(t, dir, "kind.yaml", node+"---\napiVersion: v1\nkind: Pdo\nmetadata: {name: p}\n")
	badQuantity := writeFile(t, dir, "qty.yaml", node+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: 12parsecs\n")
	badOperator := writeFile(t, dir, "op.yaml", node+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: img}]\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - {key: zone, operator: Within, values: [a]}\n")
	badConfig := writeFile(t, dir, "cfg.yaml", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: x\n  plugins:\n    score:\n      enabled: [{name: NoSuchPlugin}]\n")
	cases := []struct {
		name string
		args []string
		want []string // in stderr
		code int
	}{
		{"broken yaml", []string{"explain", "-f", brokenYAML}, []string{"broken.yaml:", "document 2"}, 2},
		{"unknown kind", []string{"explain", "-f", unknownKind}, []string{`no matches for kind "Pdo" in version "v1"`}, 2},
		{"bad quantity", []string{"explain", "-f", badQuantity}, []string{"qty.yaml:14: document 2 (Pod shop/web): spec.containers[0].resources.requests.cpu: quantity \"12parsecs\""}, 2},
		{"bad selector operator", []string{"explain", "-f", badOperator}, []string{`op.yaml:6: document 2 (Pod default/p): Pod "p" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Within": not a valid selector operator`}, 2},
		{"stray argument", []string{"explain", "-f", brokenYAML, "extra"}, []string{`unexpected argument "extra"`, "usage: schedkit explain"}, 2},
		{"missing file", []string{"simulate", "-f", filepath.Join(dir, "nope.yaml")}, []string{"nope.yaml", "no such file"}, 2},
		{"no -f", []string{"describe"}, []string{"no manifests given (-f PATH)"}, 2},
		{"unknown flag", []string{"explain", "--frobnicate"}, []string{"flag provided but not defined: -frobnicate"}, 2},
		{"unknown command", []string{"frobnicate"}, []string{`unknown command "frobnicate"`}, 2},
		{"no command", nil, []string{"Usage:"}, 2},
		{"bad -o", []string{"explain", "-f", brokenYAML, "-o", "xml"}, []string{`-o "xml"`}, 2},
		{"bad --top", []string{"explain", "-f", brokenYAML, "--top", "-1"}, []string{"--top -1"}, 2},
		{"unknown --pod", []string{"explain", "-f", bundled, "--pod", "shop/nope"}, []string{"--pod shop/nope: no pod or workload of that name"}, 2},
		{"bad config", []string{"explain", "-f", bundled, "--config", badConfig}, []string{"cfg.yaml", "NoSuchPlugin"}, 2},
		{"missing config", []string{"explain", "-f", bundled, "--config", filepath.Join(dir, "none.yaml")}, []string{"none.yaml"}, 2},
		{"drain unknown node", []string{"drain", "-f", bundled, "node-z9"}, []string{`node "node-z9" is not among`}, 2},
		{"drain no node", []string{"drain", "-f", bundled}, []string{"no node named"}, 2},
		{"capacity without --pod", []string{"capacity", "-f", bundled}, []string{"no pod shape given"}, 2},
		{"compare without --config", []string{"compare", "-f", bundled}, []string{"compare takes one or two --config"}, 2},
		{"empty comma list", []string{"explain", "-f", "a,,b"}, []string{"empty path"}, 2},
	}
	for _, c := range cases {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, c.code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, w, stderr)
			}
		}
	}
}

// TestInputForms: files and folders, repeated -f, comma lists, -R, stdin.
func TestInputForms(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a/nodes.yaml", node)
	writeFile(t, dir, "a/sub/pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: img, resources: {requests: {cpu: 1}}}]}\n")
	pods := func(args ...string) int {
		code, out, stderr := runCmd(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec: {containers: [{name: c, image: img}]}\n", append([]string{"explain", "-o", "json"}, args...)...)
		if code == exitBadInput {
			t.Fatalf("%q: %s", args, stderr)
		}
		return decodeExplain(t, out).Summary.Placed
	}
	a, sub := filepath.Join(dir, "a"), filepath.Join(dir, "a", "sub")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-f", a}, 0},
		{[]string{"-f", a, "-R"}, 1},
		{[]string{"-f", a, "-f", sub}, 1},
		{[]string{"-f", a + "," + sub}, 1},
		{[]string{"-f", a, "-f", "-"}, 1},
		{[]string{"-f", a, "-R", "--filename=-"}, 2},
	} {
		if got := pods(c.args...); got != c.want {
			t.Errorf("%q: %d placed, want %d", c.args, got, c.want)
		}
	}
}

// TestNotices: no nodes, unknown fields, pods bound to unknown nodes and
// unverified features are said on stderr or on the pod's row.
func TestNotices(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeSelectr: {a: b}, containers: [{name: c, image: img}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: q, uid: u}\nspec: {nodeName: ghost, containers: [{name: c, image: img}]}\n"
	code, _, stderr := runCmd(t, in, "explain", "-f", "-", "--validate=warn")
	if code != exitUnschedulable {
		t.Errorf("exit %d", code)
	}
	for _, w := range []string{"warning: the manifests hold no Node", `unknown field "spec.nodeSelectr"`, `bound to node "ghost"`} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	// kubectl apply's default, --validate=strict: bad input (exit 2).
	for _, args := range [][]string{{}, {"--validate"}, {"--validate=strict"}, {"--validate=true"}} {
		code, _, stderr = runCmd(t, in, append([]string{"explain", "-f", "-"}, args...)...)
		if want := `-:4: document 1 (Pod default/p): strict decoding error: unknown field "spec.nodeSelectr"`; code != exitBadInput || !strings.Contains(stderr, want) {
			t.Errorf("%v: exit %d, stderr lacks %q:\n%s", args, code, want, stderr)
		}
	}
	for _, v := range []string{"ignore", "false"} {
		code, _, stderr = runCmd(t, in, "explain", "-f", "-", "--validate="+v)
		if code != exitUnschedulable || strings.Contains(stderr, "nodeSelectr") {
			t.Errorf("--validate=%s: exit %d\n%s", v, code, stderr)
		}
	}
	if code, _, _ := runCmd(t, in, "explain", "-f", "-", "--validate=yes"); code != exitBadInput {
		t.Errorf("--validate=yes: exit %d, want 2", code)
	}
	claims := node + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: gpu}\nspec:\n  resourceClaims: [{name: g, resourceClaimName: gpu-claim}]\n  containers: [{name: c, image: img, resources: {claims: [{name: g}]}}]\n"
	// DynamicResources is modelled: a pod whose claim is missing waits
	// gated by PreEnqueue, and its decision is not marked unverified.
	code, out, _ := runCmd(t, claims, "explain", "-f", "-", "-o", "json")
	got := decodeExplain(t, out)
	if code != 0 || len(got.Pods[0].Unverified) != 0 {
		t.Errorf("exit %d, unverified %q", code, got.Pods[0].Unverified)
	}
}

// TestIndependentOrderProperty: with --independent, each pod's verdicts,
// scores and tied set do not depend on the order of the objects read, and
// the pick is one of the tied nodes.
func TestIndependentOrderProperty(t *testing.T) {
	var docs []string
	for _, f := range []string{"cluster.yaml", "policy.yaml", "running.yaml", "pending.yaml"} {
		b, err := os.ReadFile(filepath.Join(bundled, f))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, splitDocs(t, b)...)
	}
	base := independentResults(t, strings.Join(docs, "\n---\n"))
	rapid.Check(t, func(rt *rapid.T) {
		perm := rapid.Permutation(docs).Draw(rt, "order")
		got := independentResults(rt, strings.Join(perm, "\n---\n"))
		if len(got) != len(base) {
			rt.Fatalf("%d pods, want %d", len(got), len(base))
		}
		for name, want := range base {
			g := got[name]
			if g.Node == "" != (want.Node == "") || (g.Node != "" && !contains(want.Tied, g.Node)) {
				rt.Errorf("%s: picked %q, tied %v", name, g.Node, want.Tied)
			}
			g.Node, want.Node = "", ""
			if diff := cmp.Diff(want, g, cmp.Transformer("sortTied", sortedCopy)); diff != "" {
				rt.Errorf("%s (-base +permuted):\n%s", name, diff)
			}
		}
	})
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

// splitDocs returns the objects of a manifest, a List's items one by one,
// as JSON documents.
func splitDocs(t tb, b []byte) []string {
	var out []string
	for _, d := range strings.Split(string(b), "\n---\n") {
		var v map[string]any
		if err := yamlUnmarshal([]byte(d), &v); err != nil {
			t.Fatal(err)
		}
		items, _ := v["items"].([]any)
		if v["kind"] != "List" {
			items = []any{v}
		}
		for _, it := range items {
			j, err := json.Marshal(it)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(j))
		}
	}
	return out
}

func independentResults(t tb, in string) map[string]podResult {
	code, out, stderr := runCmd(t, in, "explain", "-f", "-", "--independent", "-o", "json")
	if code == exitBadInput {
		t.Fatalf("exit 2: %s", stderr)
	}
	res := map[string]podResult{}
	for _, p := range decodeExplain(t, out).Pods {
		res[p.Pod] = p
	}
	return res
}

// tb is what the helpers need of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
	Fatal(args ...any)
}

// TestNowFlag: --now is the time a Job's activeDeadlineSeconds is judged
// at (upstream: the Job controller's pastActiveDeadline against its
// clock); without it the machine's clock is used, with a warning.
func TestNowFlag(t *testing.T) {
	job := node + "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: default, uid: ju}\n" +
		"spec:\n  activeDeadlineSeconds: 600\n  selector: {matchLabels: {batch.kubernetes.io/controller-uid: ju}}\n" +
		"  template:\n    metadata: {labels: {batch.kubernetes.io/controller-uid: ju}}\n    spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}\n" +
		"status: {startTime: \"2026-12-01T10:00:00Z\"}\n"
	for _, tc := range []struct {
		now      string
		pods     int
		warnings bool
	}{
		{"2026-12-01T10:05:00Z", 1, false}, // within the deadline: the Job's pod
		{"2026-12-01T10:10:00Z", 0, false}, // at the deadline: the Job fails, no pod
		{"", 0, true},                      // the machine's clock, long past: a warning says so
	} {
		args := []string{"explain", "-f", "-", "-o", "json"}
		if tc.now != "" {
			args = append(args, "--now", tc.now)
		}
		_, out, stderr := runCmd(t, job, args...)
		if got := len(decodeExplain(t, out).Pods); got != tc.pods {
			t.Errorf("--now %q: %d pods, want %d\n%s", tc.now, got, tc.pods, stderr)
		}
		if w := strings.Contains(stderr, "machine's clock"); w != tc.warnings {
			t.Errorf("--now %q: clock warning %v, want %v:\n%s", tc.now, w, tc.warnings, stderr)
		}
	}
	if code, _, stderr := runCmd(t, job, "explain", "-f", "-", "--now", "yesterday"); code != exitBadInput || !strings.Contains(stderr, "RFC 3339") {
		t.Errorf("--now yesterday: exit %d:\n%s", code, stderr)
	}
}

// TestNoteReleasedClaims: a claim the resourceclaim controller releases
// at load (its pod has Succeeded) is a note on stderr.
func TestNoteReleasedClaims(t *testing.T) {
	const in = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: default, uid: u-done}
spec:
  nodeName: n1
  containers: [{name: c, image: i}]
  resourceClaims: [{name: gpu, resourceClaimName: gpu}]
status: {phase: Succeeded}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu, namespace: default, uid: c1, finalizers: [resource.kubernetes.io/delete-protection]}
spec:
  devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}
status:
  allocation: {devices: {results: [{request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}]}}
  reservedFor: [{resource: pods, name: done, uid: u-done}]
`
	_, _, stderr := runCmd(t, in, "explain", "-f", "-")
	want := "note: ResourceClaim default/gpu: reservation of pod(s) done dropped (done or replaced); deallocated\n"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}
