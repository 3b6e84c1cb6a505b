package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/autoscaler"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
)

const templates = bundled + "/nodegroups/templates.yaml"

// TestAutoscaleOnBundled runs scale-up and scale-down on the bundled
// cluster.
func TestAutoscaleOnBundled(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"scale-up", "-f", bundled, "--node-template", templates}, 0, []string{
			"template-node-for-zone-c-large-0  zone-c-large  shop/checkout",
			"1 new node(s) (zone-c-large×1); 6 pending pod(s): 6 placed, 0 still pending, 0 that no group helps"}},
		{[]string{"scale-up", "-f", bundled, "--node-template", bundled + "/nodegroups/templates.yaml", "--max", "1", "--expander", "priority", "--priorities", bundled + "/nodegroups/priorities.yaml"}, 0, []string{"zone-c-large ×1"}},
		{[]string{"scale-down", "-f", bundled, "--utilization-threshold", "0.6", "--now", "2026-12-01T14:00:00Z"}, 0, []string{
			"2      node-a1       0.50         batch/etl-2 → node-b2",
			"node-b2    0.31         NotReplicated       shop/worker            shop/worker is not replicated",
			"2 node(s) removable, 6 kept"}},
		{[]string{"scale-up", "-f", bundled}, 2, nil},
		{[]string{"scale-up", "-f", bundled, "--node-template", templates, "--expander", "random"}, 2, nil},
		{[]string{"scale-up", "-f", bundled, "--node-template", templates, "--expander", "priority"}, 2, nil},
		{[]string{"scale-down", "-f", bundled, "--utilization-threshold", "1.5"}, 2, nil},
		{[]string{"scale-down", "-f", bundled, "--node", "nope"}, 2, nil},
	} {
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

// TestScaleUpPrintsLibraryPlan: the JSON document is PlanScaleUp's.
func TestScaleUpPrintsLibraryPlan(t *testing.T) {
	_, out, stderr := runCmd(t, "", "scale-up", "-f", bundled, "--node-template", templates, "-o", "json")
	var doc scaleUpDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}
	c, err := manifest.Load(context.Background(), manifest.Options{ExpandWorkloads: true, Now: time.Now()}, bundled)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scheduler.New(c.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	objs, _, err := manifest.ReadFiles(manifest.Options{}, templates)
	if err != nil {
		t.Fatal(err)
	}
	var groups []autoscaler.NodeGroup
	for _, n := range objs.Nodes {
		groups = append(groups, autoscaler.NodeGroup{Template: n})
	}
	up, err := autoscaler.PlanScaleUp(context.Background(), s, c.Pending, autoscaler.ScaleUpOptions{Groups: groups, Max: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Nodes) != len(doc.Nodes) || len(up.Placements) != len(doc.Pods) {
		t.Fatalf("command: %d nodes, %d pods; library: %d, %d", len(doc.Nodes), len(doc.Pods), len(up.Nodes), len(up.Placements))
	}
	for i, pl := range up.Placements {
		// Generated pod names differ from run to run: nodes are compared.
		if doc.Pods[i].Node != pl.Node {
			t.Fatalf("pod %d: command %+v, library %s on %q", i, doc.Pods[i], podName(pl.Pod), pl.Node)
		}
	}
}
