package conformance

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

var updateSeeds = flag.Bool("conformance.update-seeds", false, "rewrite the seed fixtures with the current upstream answers")

// upstreamByKind computes upstream's answer for a fixture input.
var upstreamByKind = map[string]func(json.RawMessage) json.RawMessage{
	regression.KindQuantity: func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.Quantity)) },
	regression.KindPodResources: func(b json.RawMessage) json.RawMessage {
		return evalUpstream(b, upFn(upstream.PodResources))
	},
	regression.KindLimitRange:    func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.LimitRange)) },
	regression.KindTaints:        func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.Taints)) },
	regression.KindNodeAffinity:  func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.NodeAffinity)) },
	regression.KindLabelSelector: func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.LabelSelector)) },
	regression.KindPlugins:       func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.PluginsCycle)) },
	regression.KindSchedule:      func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.ScheduleCycle)) },
	regression.KindResourceQuota: func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.ResourceQuota)) },
	regression.KindValidation:    func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.Validation)) },
	regression.KindPreemption:    func(b json.RawMessage) json.RawMessage { return evalUpstream(b, upFn(upstream.PreemptionCase)) },
}

// TestFixturesUpstream recomputes upstream's answer for every fixture and
// checks it is the one recorded, so that the answers internal/testing/regression
// replays against are upstream's.
func TestFixturesUpstream(t *testing.T) {
	fixtures, err := regression.Load(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range regression.Kinds() {
		if upstreamByKind[k] == nil {
			t.Errorf("no upstream evaluator for kind %s", k)
		}
	}
	for _, f := range fixtures {
		t.Run(f.Kind+"/"+f.Name, func(t *testing.T) {
			up := upstreamByKind[f.Kind]
			if up == nil {
				t.Fatalf("unknown kind %q", f.Kind)
			}
			got := up(f.Input)
			if !regression.Same(got, f.Upstream) {
				t.Errorf("recorded upstream answer is stale\nrecorded: %s\nupstream: %s", mustCanon(f.Upstream), mustCanon(got))
			}
		})
	}
}

// TestSeeds keeps the hand-picked seed fixtures: it writes the missing
// ones (and, with -conformance.update-seeds, rewrites all) with upstream's
// answer, and compares schedkit with upstream on each.
func TestSeeds(t *testing.T) {
	for _, s := range seeds() {
		t.Run(s.Kind+"/"+s.Name, func(t *testing.T) {
			input, err := regression.Marshal(s.Input)
			if err != nil {
				t.Fatal(err)
			}
			us := upstreamByKind[s.Kind](input)
			sk := evalSchedkit(s.Kind, input)
			f := regression.Fixture{Kind: s.Kind, Name: "seed-" + s.Name, Source: "seed", Note: s.Note, Open: s.Open, Input: input, Upstream: us}
			if !regression.Same(sk, us) {
				f.Schedkit = sk
			}
			p := f.Path(fixtureRoot)
			if _, err := os.Stat(p); err != nil || *updateSeeds {
				if _, err := regression.Write(fixtureRoot, f); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s", p)
			}
			if regression.Same(sk, us) {
				if s.Open != "" {
					t.Errorf("seed is marked open (%s) but schedkit now agrees: drop Open", s.Open)
				}
				return
			}
			if s.Open != "" {
				t.Skipf("known disagreement: %s\nschedkit: %s\nupstream: %s", s.Open, mustCanon(sk), mustCanon(us))
			}
			t.Errorf("schedkit disagrees with upstream\ninput:    %s\nschedkit: %s\nupstream: %s", input, mustCanon(sk), mustCanon(us))
		})
	}
}
