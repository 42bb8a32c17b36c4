#!/usr/bin/env bash
# CI for tools/plot (its own go.mod, so the root module's ./... never reaches it): the
# module's sums, tidiness, formatting, vet and tests.
set -euo pipefail
cd "$(dirname "$0")"

run() {
	echo "+ $*"
	"$@"
}

run go version
run go mod download
run go mod verify
run go mod tidy -diff
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt needed on:"
	echo "$unformatted"
	exit 1
fi
run go vet ./...
run go test ./...
