package taints

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

var (
	benchTaints = []api.Taint{
		{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule},
		{Key: "gpu", Value: "true", Effect: api.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoExecute},
		{Key: "spot", Effect: api.TaintEffectPreferNoSchedule},
	}
	benchTols = []api.Toleration{
		{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "infra", Effect: api.TaintEffectNoSchedule},
		{Key: "gpu", Operator: api.TolerationOpExists},
		{Key: "node.kubernetes.io/unreachable", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
		{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
	}
)

func zeroAllocs(b *testing.B, f func()) {
	b.Helper()
	if n := testing.AllocsPerRun(100, f); n != 0 {
		b.Fatalf("%v allocs/op, want 0", n)
	}
}

// Tolerates on the no-match path (every toleration is tried and fails).
func BenchmarkTolerationsTolerateNoMatch(b *testing.B) {
	taint := api.Taint{Key: "other", Value: "x", Effect: api.TaintEffectNoSchedule}
	zeroAllocs(b, func() { TolerationsTolerate(benchTols, taint) })
	b.ReportAllocs()
	for b.Loop() {
		if TolerationsTolerate(benchTols, taint) {
			b.Fatal("tolerated")
		}
	}
}

// FindUntolerated when every taint is tolerated (nothing found: the
// filter plugin's common path).
func BenchmarkFindUntoleratedNoneFound(b *testing.B) {
	effects := []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectNoExecute}
	zeroAllocs(b, func() { FindUntolerated(benchTaints, benchTols, effects...) })
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := FindUntolerated(benchTaints, benchTols, effects...); ok {
			b.Fatal("found")
		}
	}
}

func BenchmarkCountIntolerablePreferNoSchedule(b *testing.B) {
	zeroAllocs(b, func() { CountIntolerablePreferNoSchedule(benchTaints, benchTols) })
	b.ReportAllocs()
	for b.Loop() {
		if CountIntolerablePreferNoSchedule(benchTaints, benchTols) != 1 {
			b.Fatal("bad count")
		}
	}
}
