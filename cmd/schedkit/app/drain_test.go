package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
)

// The command prints scheduler.Drain's report: each pod, its node, its
// replacement's node and the library's message, in the library's order,
// and kubectl's warning and error lines on stderr.
func TestDrainPrintsLibraryReport(t *testing.T) {
	for _, flags := range [][]string{{"--ignore-daemonsets"}, {}, {"--force", "--ignore-daemonsets", "--pod-selector", "app!=cache"}} {
		args := append(append([]string{"drain", "-f", bundled, "-o", "json", "--now", "2026-12-01T14:00:00Z"}, flags...), "node-b1", "node-a1")
		_, out, stderr := runCmd(t, "", args...)
		var doc struct {
			Pods []drainedPod `json:"pods"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v\n%s%s", flags, err, out, stderr)
		}

		now := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
		c, err := manifest.Load(context.Background(), manifest.Options{ExpandWorkloads: true, Now: now}, bundled)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scheduler.New(c.Snapshot)
		if err != nil {
			t.Fatal(err)
		}
		opt := scheduler.DrainOptions{Pending: c.Pending}
		for i := 0; i < len(flags); i++ {
			switch flags[i] {
			case "--ignore-daemonsets":
				opt.IgnoreDaemonSets = true
			case "--force":
				opt.Force = true
			case "--pod-selector":
				i++
				opt.PodSelector = flags[i]
			}
		}
		rep, err := s.Drain(context.Background(), []string{"node-b1", "node-a1"}, now, opt)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Pods) != len(rep.Pods) {
			t.Fatalf("%v: %d pods printed, the report has %d", flags, len(doc.Pods), len(rep.Pods))
		}
		for i, p := range rep.Pods {
			got := doc.Pods[i]
			if got.Pod != podName(p.Pod) || got.From != p.From {
				t.Errorf("%v: row %d is %s from %s, the report's %s from %s", flags, i, got.Pod, got.From, podName(p.Pod), p.From)
			}
			switch p.Outcome {
			case scheduler.DrainEvicted, scheduler.DrainDeleted:
				if p.Replaced && got.Node != p.Placement.Node {
					t.Errorf("%v: %s printed on %q, the report places it on %q", flags, got.Pod, got.Node, p.Placement.Node)
				}
			case scheduler.DrainBlocked, scheduler.DrainRefused:
				if got.Message != p.Message {
					t.Errorf("%v: %s message %q, the report's %q", flags, got.Pod, got.Message, p.Message)
				}
			}
		}
		want := ""
		for _, w := range rep.Warnings {
			want += "Warning: " + w + "\n"
		}
		for _, e := range rep.Errors {
			want += "error: unable to drain node \"" + e.Node + "\" due to error: " + e.Error() + ", continuing command...\n"
		}
		if !strings.Contains(stderr, want) {
			t.Errorf("%v: stderr\n%s\nlacks\n%s", flags, stderr, want)
		}
	}
}
