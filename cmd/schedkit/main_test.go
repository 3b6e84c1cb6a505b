package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSimulateExampleData runs the README's main command on the bundled
// example cluster and checks the decisions that do not depend on scores.
func TestSimulateExampleData(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"simulate", "-f", "../../examples/data/cluster.yaml", "-explain"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"cluster: 7 nodes, 5 bound pods; scheduling 7 pending pods",
		"default/batch-2      100       node-b1", // only node-b1's taint is tolerated with room
		"default/trainer-1    0         node-c1", // the only node with GPUs
		"0/7 nodes are available:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestSimulateJSONIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	args := []string{"simulate", "-f", "../../examples/data/cluster.yaml", "-json", "-ties", "random", "-seed", "7"}
	if err := run(args, nil, &a); err != nil {
		t.Fatal(err)
	}
	if err := run(args, nil, &b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("two runs with the same seed differ")
	}
	var v []map[string]any
	if err := json.Unmarshal(a.Bytes(), &v); err != nil || len(v) != 7 {
		t.Fatalf("json output: %v, %d placements", err, len(v))
	}
}

func TestReadManifestsErrors(t *testing.T) {
	cases := map[string]string{
		"no kind":      "metadata: {name: x}\n",
		"bad quantity": "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: lots}}\n",
		"bad yaml":     "kind: [\n",
	}
	for name, doc := range cases {
		if _, err := readManifests([]string{"-"}, strings.NewReader(doc)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	objs, err := readManifests([]string{"-"}, strings.NewReader("kind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n- kind: ConfigMap\n  metadata: {name: s}\n---\n---\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Nodes) != 1 || len(objs.Pods) != 1 || objs.Skipped["ConfigMap"] != 1 {
		t.Errorf("objects = %+v", objs)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"simulate"}, {"simulate", "-f", "x", "-percentage", "101"}} {
		if err := run(args, nil, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestSimulateQuotaRejects: a pending pod its namespace's quota rejects
// is reported as rejected at admission, with the API server's text, and
// not scheduled; the quota's usage is computed from the bound pods.
func TestSimulateQuotaRejects(t *testing.T) {
	doc := `kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
kind: ResourceQuota
metadata: {name: compute, namespace: team}
spec: {hard: {requests.cpu: "2"}}
---
kind: Pod
metadata: {name: running, namespace: team}
spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
---
kind: Pod
metadata: {name: fits, namespace: team}
spec: {containers: [{name: c, resources: {requests: {cpu: 600m}}}]}
---
kind: Pod
metadata: {name: over, namespace: team}
spec: {containers: [{name: c, resources: {requests: {cpu: 600m}}}]}
`
	objs, err := readManifests([]string{"-"}, strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := simulate(objs, 0, 1, 0, false, false, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"team/fits  0         n1",
		`team/over  0         -     0/0       rejected at admission: pods "over" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=1600m, limited: requests.cpu=2`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
