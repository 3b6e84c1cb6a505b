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

func TestManifestErrorsFailTheCommand(t *testing.T) {
	cases := map[string]string{
		"no kind":      "metadata: {name: x}\n",
		"bad quantity": "kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: lots}}\n",
		"bad yaml":     "kind: [\n",
	}
	for name, doc := range cases {
		if err := run([]string{"simulate", "-f", "-"}, strings.NewReader(doc), &bytes.Buffer{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"simulate"}, {"simulate", "-f", "x", "-percentage", "101"}} {
		if err := run(args, nil, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}
