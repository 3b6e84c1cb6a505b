package taints

import (
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
)

func secs(n int64) *int64 { return &n }

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func podTol(tols ...api.Toleration) *api.Pod {
	p := &api.Pod{}
	p.Spec.Tolerations = tols
	return p
}

// Pins tainteviction TestGetMinTolerationTime: each case's tolerations
// all tolerate the one taint; the decision is At(now+min), Never for
// nil seconds. (Upstream's "no tolerations → 0" case is the
// untolerated path here: Now.)
func TestEvictionTimeMinToleration(t *testing.T) {
	taint := api.Taint{Key: "k", Effect: api.TaintEffectNoExecute}
	tol := func(s *int64) api.Toleration {
		return api.Toleration{Key: "k", Operator: api.TolerationOpExists, TolerationSeconds: s}
	}
	cases := []struct {
		name string
		tols []api.Toleration
		want Decision
	}{
		{"no tolerations", nil, Decision{Kind: EvictNow, Time: t0}},
		{"nil seconds: forever", []api.Toleration{tol(nil)}, Decision{Kind: EvictNever}},
		// Only the first tolerating toleration per taint is used, as
		// GetMatchingTolerations does.
		{"first matching wins (1s)", []api.Toleration{tol(secs(1)), tol(secs(2))}, Decision{Kind: EvictAt, Time: t0.Add(time.Second)}},
		{"first matching wins (1s, then nil)", []api.Toleration{tol(secs(1)), tol(nil)}, Decision{Kind: EvictAt, Time: t0.Add(time.Second)}},
		{"first matching wins (nil, then 1s)", []api.Toleration{tol(nil), tol(secs(1))}, Decision{Kind: EvictNever}},
		{"zero seconds", []api.Toleration{tol(secs(0))}, Decision{Kind: EvictAt, Time: t0}},
		{"negative seconds count as zero", []api.Toleration{tol(secs(-5))}, Decision{Kind: EvictAt, Time: t0}},
	}
	for _, c := range cases {
		if got := EvictionTime(podTol(c.tols...), []api.Taint{taint}, t0); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestEvictionTimeSeveralTaints(t *testing.T) {
	taints := []api.Taint{
		{Key: "a", Effect: api.TaintEffectNoExecute},
		{Key: "b", Effect: api.TaintEffectNoExecute},
		{Key: "c", Effect: api.TaintEffectNoSchedule}, // ignored
	}
	p := podTol(
		api.Toleration{Key: "a", Operator: api.TolerationOpExists, TolerationSeconds: secs(300)},
		api.Toleration{Key: "b", Operator: api.TolerationOpExists, TolerationSeconds: secs(60)},
	)
	if got := EvictionTime(p, taints, t0); got != (Decision{Kind: EvictAt, Time: t0.Add(time.Minute)}) {
		t.Errorf("min over taints: %v", got)
	}
	p = podTol(api.Toleration{Key: "a", Operator: api.TolerationOpExists})
	if got := EvictionTime(p, taints, t0); got.Kind != EvictNow {
		t.Errorf("untolerated b: %v", got)
	}
	if got := EvictionTime(nil, []api.Taint{{Key: "c", Effect: api.TaintEffectNoSchedule}}, t0); got.Kind != EvictNever {
		t.Errorf("no NoExecute taints: %v", got)
	}
	if got := EvictionTime(nil, taints, t0); got.Kind != EvictNow {
		t.Errorf("nil pod: %v", got)
	}
	if s := (Decision{Kind: EvictAt, Time: t0}).String(); s != "At(2026-01-02T03:04:05Z)" {
		t.Errorf("String = %q", s)
	}
}

func TestPodsToEvict(t *testing.T) {
	tolerant := podTol(api.Toleration{Operator: api.TolerationOpExists})
	tolerant.Name = "tolerant"
	timed := podTol(api.Toleration{Key: "gpu", Operator: api.TolerationOpExists, TolerationSeconds: secs(30)})
	timed.Name = "timed"
	plain := podTol()
	plain.Name = "plain"
	pods := []*api.Pod{tolerant, timed, nil, plain}
	noSched := []api.Taint{{Key: "x", Effect: api.TaintEffectNoSchedule}}
	gpu := append(noSched, api.Taint{Key: "gpu", Effect: api.TaintEffectNoExecute})

	got := PodsToEvict(pods, noSched, gpu, t0)
	if len(got) != 2 || got[0].Pod != timed || got[0].Decision != (Decision{Kind: EvictAt, Time: t0.Add(30 * time.Second)}) ||
		got[1].Pod != plain || got[1].Decision.Kind != EvictNow {
		t.Errorf("adding gpu:NoExecute: %+v", got)
	}
	// NodeUpdated ignores changes that leave NoExecute taints alone.
	if got := PodsToEvict(pods, gpu, append([]api.Taint{{Key: "y", Effect: api.TaintEffectPreferNoSchedule}}, gpu...), t0); got != nil {
		t.Errorf("unchanged NoExecute: %+v", got)
	}
	// Removing the NoExecute taint evicts nobody.
	if got := PodsToEvict(pods, gpu, noSched, t0); got != nil {
		t.Errorf("removal: %+v", got)
	}
	// A changed timeAdded is a change.
	at := api.NewTime(t0)
	if got := PodsToEvict(pods, gpu, []api.Taint{{Key: "gpu", Effect: api.TaintEffectNoExecute, TimeAdded: &at}}, t0); len(got) != 2 {
		t.Errorf("timeAdded change: %+v", got)
	}
}
