package app

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The command holds a whole cluster (a 44 MB dump is some 150 MB of
// objects) and then, for explain, simulate and the others, allocates
// short-lived results per pod. With Go's default pacing the heap may grow
// to twice what is live before it is collected, so the command paces the
// collector itself, unless GOGC or GOMEMLIMIT says otherwise. Reading
// leaves little garbage (the objects read are what is live), yet every
// collection while the heap grows marks all that was read so far: on the
// command's 2,000-node dump GOGC 70 made 11 collections marking 630 MB.
// So while reading files of known size the collector waits for a soft
// memory limit (loadLimit) and collects once or not at all; from
// standard input, whose size is not known, it runs at GOGC 70. Then a
// soft memory limit 60 % above what the loaded cluster holds, plus 32
// MiB, so that per-pod garbage is collected before it doubles the
// process (BENCHMARKS.md); measured by the first collection after
// reading rather than by one forced at its end, which a run making
// little garbage (simulate on that dump) never needs (afterLoad).

// loadLimit is the soft memory limit while reading files of size bytes:
// 270 MiB, which keeps the process under 300 MB with the runtime's own
// memory, or 8 bytes a byte of input when that is more (a JSON dump's
// objects hold about 6 bytes a byte of it), so that a larger input is
// not collected over and over against a limit below what it holds.
func loadLimit(size int64) int64 { return max(270<<20, 8*size) }

// inputSize is the size of the regular files the paths name (folders
// walked), and false when a path is standard input or cannot be read.
func inputSize(paths []string) (int64, bool) {
	var n int64
	for _, p := range paths {
		if p == "-" {
			return 0, false
		}
		err := filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				info, err := d.Info()
				if err != nil {
					return err
				}
				n += info.Size()
			}
			return nil
		})
		if err != nil {
			return 0, false
		}
	}
	return n, true
}

// gcTuned reports whether the command paces the collector (the user set
// neither GOGC nor GOMEMLIMIT).
func gcTuned() bool { return os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" }

// beforeLoad paces the collector for reading paths.
func (e *env) beforeLoad(paths []string) {
	if !e.paceGC {
		return
	}
	size, ok := inputSize(paths)
	if !ok {
		debug.SetGCPercent(70)
		return
	}
	debug.SetMemoryLimit(loadLimit(size))
	debug.SetGCPercent(-1)
}

// afterLoad paces the collector for what follows the reading. The
// limit for it comes from what the loaded cluster holds, which only a
// collection measures; but marking the whole cluster costs about as
// much as deciding 500 pods, and a run that makes little garbage needs
// no collection at all. So when the heap has room left under the
// reading's limit (the objects take at most 85 % of it), the limit stays
// and nothing is collected now: the first collection after loading,
// when garbage reaches the limit, measures what is live, and its
// cleanup (setLimitFromLive) sets the limit from that. Otherwise (no
// room, or a limit from --admission-config's reading of standard input
// unknown) the collection runs now.
func (e *env) afterLoad() {
	if !e.paceGC {
		return
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	limit := debug.SetMemoryLimit(-1)
	if s[0].Value.Kind() == metrics.KindUint64 && limit != math.MaxInt64 && int64(s[0].Value.Uint64()) <= limit/100*85 {
		// The sentinel is unreachable at once: any collection from now
		// on runs its cleanup.
		held := int64(s[0].Value.Uint64())
		runtime.AddCleanup(new([64]byte), func(int64) { setLimitFromLive(held) }, held)
		return
	}
	runtime.GC()
	setLimitFromLive(math.MaxInt64)
}

// setLimitFromLive sets the soft memory limit 60 % above what the last
// collection found live, at most held (the heap at the end of reading,
// which holds the whole cluster: what a later collection finds beyond it
// is the run's own), plus 32 MiB, and GOGC 100.
func setLimitFromLive(held int64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		debug.SetGCPercent(100)
		return
	}
	live := min(int64(s[0].Value.Uint64()), held)
	debug.SetMemoryLimit(live + live*3/5 + 32<<20)
	debug.SetGCPercent(100)
}
