#!/usr/bin/env bash
# CI for the Beam module (its own go.mod, so the root module's ./... never reaches it):
# vet and the tests, Prism pipelines included. The first run downloads and compiles the
# Beam Go SDK (about 1 GB of modules); see docs/distributed.md for the times.
set -euo pipefail
cd "$(dirname "$0")"

run() {
	echo "+ $*"
	"$@"
}

run go version
run go mod verify
run go mod tidy -diff
run go vet ./...
run go test ./...

# The benchmarks' module (bench/, its own go.mod: the product's dependencies stay the
# product's).
run bash bench/ci.sh

# The job as a distributed job: a standalone Prism with EXTERNAL and PROCESS workers
# (the job binary started again as its own worker), two runs of each, counts checked.
RUNS=2 run bash prism.sh
