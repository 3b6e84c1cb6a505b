#!/usr/bin/env bash
# bench-pairs.sh runs the side-by-side benchmarks as alternating pairs, an
# upstream sweep then a schedkit sweep, PAIRS times, and prints per row the
# median and range of upstream/schedkit (wall and CPU) and the medians of
# both sides. The raw `go test -bench` output and the load average before
# every sweep are kept in OUT.
#
#   conformance/bench-pairs.sh                      # every row, 10 pairs
#   PAIRS=12 BENCH='Stream/Scheduling(Basic|PodAntiAffinity)/' conformance/bench-pairs.sh
#   BENCH=FirstDecision BENCHTIME=5x conformance/bench-pairs.sh
#   BENCH=DRAStream STREAM_PODS=100 conformance/bench-pairs.sh   # DRA workloads, 500 nodes
#   BENCH=GangStream conformance/bench-pairs.sh     # 100 gangs of 8, anti-affinity, 5,000 nodes
#   SUMMARY=DIR conformance/bench-pairs.sh          # summarise DIR again
#
# Variables: PAIRS (10), BENCH (a -bench regexp without its "Benchmark"
# prefix, default '(Stream|DRAStream|FirstDecision|Command)'), BENCHTIME (1x: one stream, one
# first decision, one command run per sweep), STREAM_PODS (measured pods
# per stream, 0 = the workload's measurePods up to 1,000, 200 for DRAStream), GANGS
# (gangs per GangStream op, 100), OUT (the directory for the raw output).
set -euo pipefail
cd "$(dirname "$0")"

summarise() {
	# Rows pair the k-th upstream result of a name with the k-th schedkit
	# one; a schedkit row without an upstream row of its own name
	# (Command/<order>/simulate) pairs with its parent's (Command/<order>).
	awk '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	function human(ns) {
		if (ns >= 1e9) return sprintf("%.2f s", ns/1e9)
		if (ns >= 1e6) return sprintf("%.2f ms", ns/1e6)
		if (ns >= 1e3) return sprintf("%.1f µs", ns/1e3)
		return sprintf("%.0f ns", ns)
	}
	FNR == 1 { side = (FILENAME ~ /upstream/) ? "u" : "s" }
	/^Benchmark/ {
		name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
		row = name; sub(/\/(upstream|schedkit)$/, "", row)
		wall = ""; cpu = ""; unitw = ""
		for (i = 3; i < NF; i++) {
			if ($(i+1) == "ns/pod") { wall = $i; unitw = "pod" }
			if ($(i+1) == "cpu-ns/pod") cpu = $i
			if ($(i+1) == "ns/gang") { wall = $i; unitw = "gang" }
			if ($(i+1) == "cpu-ns/gang") cpu = $i
		}
		if (wall == "") for (i = 3; i < NF; i++) {
			if ($(i+1) == "ns/op") { wall = $i; unitw = "op" }
			if ($(i+1) == "cpu-ns/op") cpu = $i
		}
		k = ++n[side, row]
		W[side, row, k] = wall; C[side, row, k] = cpu; U[row] = unitw
		if (side == "s" && !(row in seen)) { seen[row] = 1; order[++rows] = row }
	}
	END {
		printf "| row | per | upstream wall | schedkit wall | wall ratio median [range] | upstream CPU | schedkit CPU | CPU ratio median [range] | pairs |\n"
		printf "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
		for (r = 1; r <= rows; r++) {
			row = order[r]; up = row
			if (!((("u", up) in n))) { up = row; sub(/\/[^\/]+$/, "", up) }
			m = n["s", row]; if (n["u", up] < m) m = n["u", up]
			if (m == 0) continue
			split("", rw); split("", rc); split("", uw); split("", sw); split("", uc); split("", sc)
			nc = 0
			for (k = 1; k <= m; k++) {
				uw[k] = W["u", up, k]; sw[k] = W["s", row, k]; rw[k] = uw[k] / sw[k]
				if (C["u", up, k] != "" && C["s", row, k] > 0) { nc++; uc[nc] = C["u", up, k]; sc[nc] = C["s", row, k]; rc[nc] = uc[nc] / sc[nc] }
			}
			lo = rw[1]; hi = rw[1]; for (k = 2; k <= m; k++) { if (rw[k] < lo) lo = rw[k]; if (rw[k] > hi) hi = rw[k] }
			cr = "-"; ucs = "-"; scs = "-"
			if (nc > 0) {
				clo = rc[1]; chi = rc[1]; for (k = 2; k <= nc; k++) { if (rc[k] < clo) clo = rc[k]; if (rc[k] > chi) chi = rc[k] }
				cr = sprintf("**%.1f×** [%.1f-%.1f]", med(rc, nc), clo, chi); ucs = human(med(uc, nc)); scs = human(med(sc, nc))
			}
			printf "| %s | %s | %s | %s | **%.1f×** [%.1f-%.1f] | %s | %s | %s | %d |\n", row, U[row], human(med(uw, m)), human(med(sw, m)), med(rw, m), lo, hi, ucs, scs, cr, m
		}
	}' "$1/upstream.txt" "$1/schedkit.txt"
}

if [[ -n "${SUMMARY:-}" ]]; then
	summarise "$SUMMARY"
	exit 0
fi

PAIRS=${PAIRS:-10}
BENCH=${BENCH:-(Stream|DRAStream|FirstDecision|Command)}
BENCHTIME=${BENCHTIME:-1x}
STREAM_PODS=${STREAM_PODS:-0}
GANGS=${GANGS:-100}
OUT=${OUT:-$(mktemp -d /tmp/bench-pairs.XXXXXX)}
mkdir -p "$OUT"
go test -c -o "$OUT/conformance.test" .
{ echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD) PAIRS=$PAIRS BENCH=$BENCH BENCHTIME=$BENCHTIME STREAM_PODS=$STREAM_PODS GANGS=$GANGS"; nproc; } > "$OUT/load.txt"
for i in $(seq 1 "$PAIRS"); do
	for side in upstream schedkit; do
		echo "pair $i $side $(uptime)" >> "$OUT/load.txt"
		"$OUT/conformance.test" -test.run "^\$" -test.bench "^Benchmark$BENCH" -bench.side "$side" \
			-test.benchtime "$BENCHTIME" -stream.pods "$STREAM_PODS" -gang.count "$GANGS" | grep '^Benchmark' | tee -a "$OUT/$side.txt" >&2
	done
done
echo "raw output and load: $OUT" >&2
summarise "$OUT"
