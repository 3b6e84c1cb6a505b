package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpExamples runs every example line of every command's --help on
// the bundled data: none is bad usage or bad input.
func TestHelpExamples(t *testing.T) {
	dir := t.TempDir()
	for _, c := range commands() {
		_, help, _ := runCmd(t, "", c.name, "--help")
		_, ex, _ := strings.Cut(help, "Example:\n")
		ex, _, _ = strings.Cut(ex, "\nFlags:")
		n := 0
		for line := range strings.Lines(ex) {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "schedkit ") {
				continue
			}
			n++
			var args []string
			for _, a := range strings.Fields(line)[1:] {
				if strings.HasSuffix(a, ".html") {
					a = filepath.Join(dir, a)
				}
				var parts []string
				for p := range strings.SplitSeq(a, ",") {
					if strings.HasPrefix(p, "examples/") {
						p = "../../../" + p
					}
					parts = append(parts, p)
				}
				args = append(args, strings.Join(parts, ","))
			}
			code, out, stderr := runCmd(t, "", args...)
			if code == exitBadInput || out == "" {
				t.Errorf("%s: exit %d\n%s%s", line, code, out, stderr)
			}
		}
		if n == 0 {
			t.Errorf("%s --help has no example", c.name)
		}
	}
}

// TestPodFlag: --pod takes a pending pod, a bound pod (with the what-if),
// a workload, NAME with -n; an unknown name lists the pending pods.
func TestPodFlag(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--pod", "shop/worker"}, 0, []string{"shop/worker → node-b2\n", "1 pod(s): 1 placed"}},
		{[]string{"--pod", "shop/db-0"}, 0, []string{"shop/db-0 is bound to node-b1; if it were pending now, on the cluster without it:\nshop/db-0 → "}},
		{[]string{"--pod", "deployment/shop/web"}, 0, []string{"shop/web-56b5f49fb5-25m8m → ", "shop/web-56b5f49fb5-drtx6 → ", "3 pod(s): 3 placed"}},
		{[]string{"--pod", "shop/web"}, 0, []string{"3 pod(s): 3 placed"}},
		{[]string{"-n", "shop", "--pod", "worker"}, 0, []string{"shop/worker → node-b2\n"}},
		{[]string{"-nshop"}, 1, []string{"5 pod(s): 4 placed, 1 preempting"}},
	}
	for _, c := range cases {
		code, out, stderr := runCmd(t, "", append([]string{"explain", "-f", bundled}, c.args...)...)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d\n%s", c.args, code, c.code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
	for _, c := range []struct {
		pod, want string
	}{
		{"worker", "--pod worker: want NAMESPACE/NAME (or -n NAMESPACE)"},
		{"shop/nope", "no pod or workload of that name among the manifests; pending pods: shop/checkout, batch/trainer, shop/worker"},
	} {
		code, _, stderr := runCmd(t, "", "explain", "-f", bundled, "--pod", c.pod)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("--pod %s: exit %d\n%s", c.pod, code, stderr)
		}
	}
	_, out, _ := runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/db-0", "-o", "json")
	if v := decodeExplain(t, out); len(v.Pods) != 1 || v.Pods[0].BoundTo != "node-b1" {
		t.Errorf("bound pod JSON: %+v", v.Pods)
	}
}

// TestKubectlHabits: joined short flags, empty input, URLs, binary
// files, an unwritable --html and a YAML syntax error's line.
func TestKubectlHabits(t *testing.T) {
	code, out, _ := runCmd(t, "", "explain", "-f", bundled, "--pod", "shop/worker", "-ojson")
	if code != 0 || !strings.HasPrefix(out, `{"pods": [`) {
		t.Errorf("-ojson: exit %d\n%s", code, out)
	}
	// -now is a flag of its own, not -n ow.
	if code, _, stderr := runCmd(t, "", "explain", "-f", bundled, "-now", "2026-12-01T14:00:00Z", "--pod", "shop/worker"); code != 0 {
		t.Errorf("-now: exit %d\n%s", code, stderr)
	}
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := write("bin.yaml", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00")
	cases := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"empty", []string{"explain", "-f", "-"}, "", "schedkit explain: no objects passed to explain\n"},
		{"empty simulate", []string{"simulate", "-f", write("empty.yaml", "# nothing\n")}, "", "no objects passed to simulate"},
		{"url", []string{"explain", "-f", "https://example.com/dump.yaml"}, "", "-f https://example.com/dump.yaml: not supported: this command reads files"},
		{"binary", []string{"explain", "-f", bin}, "", bin + ": document 1: not YAML or JSON: the file holds binary data\n"},
		{"unwritable html", []string{"explain", "-f", bundled, "--html", filepath.Join(dir, "no", "such", "dir", "r.html")}, "", "--html: open "},
		{"no kind and a bad quantity: both said", []string{"explain", "-f", "-"}, "metadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: 12parsecs}}}]}\n", "-:6: document 2 (Pod default/b): spec.containers[0].resources.requests.cpu: quantity \"12parsecs\""},
		{"syntax line", []string{"explain", "-f", "-"}, "apiVersion: v1\nkind: Pod\nmetadata: {name: x\nspec: {}\n", "-:3: document 1: yaml: did not find expected ',' or '}'"},
	}
	for _, c := range cases {
		code, out, stderr := runCmd(t, c.stdin, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s\nwant %q", c.name, code, out, stderr, c.want)
		}
		if strings.Count(stderr, "not YAML or JSON") > 1 {
			t.Errorf("%s: said more than once:\n%s", c.name, stderr)
		}
	}
}

// TestProgress: on a terminal, stderr shows the bytes and objects read
// and the pods explained; not on a file or pipe.
func TestProgress(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, terminal: true}
	if code := e.main([]string{"explain", "-f", bundled}); code != exitUnschedulable {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	for _, w := range []string{"\rread ", " objects\n", "\rexplained 6/6 pods\n"} {
		if !strings.Contains(errb.String(), w) {
			t.Errorf("terminal stderr lacks %q:\n%q", w, errb.String())
		}
	}
	_, _, stderr := runCmd(t, "", "explain", "-f", bundled)
	if strings.Contains(stderr, "\r") {
		t.Errorf("progress on a non-terminal:\n%q", stderr)
	}
}

// everyResource: a node with extended resources, ephemeral-storage and
// hugepages, and a pod that requests them, with overhead and a claim.
const everyResource = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 32Gi, pods: "10", ephemeral-storage: 100Gi, nvidia.com/gpu: "4", hugepages-2Mi: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  overhead: {cpu: 250m, memory: 64Mi}
  containers:
  - name: c
    image: i
    resources:
      requests: {cpu: "1", memory: 1Gi, ephemeral-storage: 2Gi, nvidia.com/gpu: "1", hugepages-2Mi: 128Mi}
      limits: {nvidia.com/gpu: "1", hugepages-2Mi: 128Mi}
      claims: [{name: gpu-claim}]
`

// TestDescribeEveryResource: describe shows every resource of pods and
// nodes, the overhead and the claims; unset limits are <none>.
func TestDescribeEveryResource(t *testing.T) {
	code, out, stderr := runCmd(t, everyResource, "describe", "-f", "-")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, w := range []string{
		"default/p  (pending)  Burstable  0  PreemptLowerPriority  1250m  <none>  1088Mi  <none>",
		"ephemeral-storage 2Gi/<none>; hugepages-2Mi 128Mi/128Mi; nvidia.com/gpu 1/1; overhead cpu 250m memory 64Mi; claims gpu-claim",
		"n1  8  0  8  32Gi  0  32Gi  0/10  ephemeral-storage 0/100Gi; hugepages-2Mi 0/1Gi; nvidia.com/gpu 0/4",
	} {
		found := false
		for _, l := range tableLines(out) {
			if strings.Contains(l, w) {
				found = true
			}
		}
		if !found {
			t.Errorf("describe lacks %q:\n%s", w, out)
		}
	}
}
