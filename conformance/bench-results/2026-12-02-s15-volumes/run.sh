#!/usr/bin/env bash
# bench-pairs.sh's loop, on a test binary built from 60f915c (/tmp/vol3.test)
set -u
OUT=/tmp/vp10
BENCH='Stream/Scheduling(CSIPVs|InTreePVs)/'
{ echo "# $(date -u +%FT%TZ) 60f915c PAIRS=10 BENCH=$BENCH BENCHTIME=1x STREAM_PODS=100 GANGS=100"; nproc; } > "$OUT/load.txt"
cd /tmp/volsnap3/conformance
for i in $(seq 1 10); do
	for side in upstream schedkit; do
		echo "pair $i $side $(uptime)" >> "$OUT/load.txt"
		/tmp/vol3.test -test.run "^\$" -test.bench "^Benchmark$BENCH" -bench.side "$side" \
			-test.benchtime 1x -stream.pods 100 -gang.count 100 | grep '^Benchmark' | tee -a "$OUT/$side.txt" >&2
	done
done
echo done >> "$OUT/load.txt"
