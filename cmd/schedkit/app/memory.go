package app

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The command holds a whole cluster (a 44 MB dump is some 150 MB of
// objects) and then, for explain, simulate and the others, allocates
// short-lived results per pod. With Go's default pacing the heap may grow
// to twice what is live before it is collected, so the command paces the
// collector itself, unless GOGC or GOMEMLIMIT says otherwise: tighter
// while reading (GOGC 70), then a soft memory limit 60 % above what the
// loaded cluster holds, plus 32 MiB, so that per-pod garbage is collected
// before it doubles the process. On internal/testing/gendump's 2,000-node dump
// this keeps explain under 300 MB for about half a second of CPU more
// (BENCHMARKS.md).

// gcTuned reports whether the command paces the collector (the user set
// neither GOGC nor GOMEMLIMIT).
func gcTuned() bool { return os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" }

// beforeLoad tightens the collector for reading.
func (e *env) beforeLoad() {
	if e.paceGC {
		debug.SetGCPercent(70)
	}
}

// afterLoad sets the soft memory limit from what the loaded cluster
// holds.
func (e *env) afterLoad() {
	if !e.paceGC {
		return
	}
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		debug.SetGCPercent(100)
		return
	}
	live := int64(s[0].Value.Uint64())
	debug.SetMemoryLimit(live + live*3/5 + 32<<20)
	debug.SetGCPercent(100)
}
