#!/usr/bin/env bash
# CI for the Beam benchmarks' module (its own go.mod, so that the Beam module's
# dependencies are those of the source and the job alone): vet and the harness's tests.
# The timed runs themselves (bench.sh, compare.sh) are not part of CI.
set -euo pipefail
cd "$(dirname "$0")"

run() {
	echo "+ $*"
	"$@"
}

run go mod verify
run go mod tidy -diff
run go vet ./...
run go test ./...
