#!/usr/bin/env bash
# The slow e2e suite: the runner (cmd/e2e) on every folder under
# testdata/e2e and on the bundled examples/manifests (alone, with its
# dra folder, with its MostAllocated configuration), each against a
# fresh in-process control plane. It prints each folder's disagreements
# and summary and exits 1 if any folder disagrees. See README.md.
#
#   E2E_FOLDERS  space-separated folder names under testdata/e2e (default: all)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

# The large folder is generated; regenerate it so the run uses the
# generator's current output (and a stale checked-in copy shows in git).
go run ./cmd/e2egen -o testdata/e2e/large

go build -o "${TMPDIR:-/tmp}/schedkit-e2e" ./cmd/e2e || exit 2
bin="${TMPDIR:-/tmp}/schedkit-e2e"

folders="${E2E_FOLDERS:-$(cd testdata/e2e && ls -d */ | tr -d /)}"
status=0
for f in $folders; do
  args=(-f "testdata/e2e/$f")
  if [ "$f" = large ]; then
    args+=(--config testdata/e2e/score-all.yaml --timeout 60m --quiet 10s)
  fi
  echo "== $f"
  start=$(date +%s)
  "$bin" "${args[@]}" || status=1
  echo "   ($(( $(date +%s) - start ))s)"
done
# The bundled examples: alone, with the DRA pool (as README's describe
# example reads them) and with the MostAllocated configuration.
examples=(
  "-f ../examples/manifests"
  "-f ../examples/manifests -f ../examples/manifests/dra"
  "-f ../examples/manifests --config ../examples/manifests/config/most-allocated.yaml"
)
for e in "${examples[@]}"; do
  echo "== ${e//..\//}"
  start=$(date +%s)
  # shellcheck disable=SC2086 # the flags split on purpose
  "$bin" $e || status=1
  echo "   ($(( $(date +%s) - start ))s)"
done
rm -f "$bin"
exit $status
