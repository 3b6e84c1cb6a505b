#!/usr/bin/env bash
# The conformance suite as CI runs it: vet, every differential property
# with a bounded number of rapid cases, the seed and fixture checks, and
# the core module's replay of the fixtures. See README.md.
#
#   RAPID_CHECKS  cases per property (default 500)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
checks="${RAPID_CHECKS:-500}"

cd "$here"
go vet ./...
go test . -count=1 -timeout 30m -rapid.checks="$checks"
# Not every internal package imports rapid, so none gets -rapid flags
# (internal/podhash's properties run rapid's default 100 cases).
go test ./internal/... -count=1

# The replay lives in the core module (stdlib and schedkit only).
cd "$here/.."
go test -count=1 ./internal/testing/regression/
