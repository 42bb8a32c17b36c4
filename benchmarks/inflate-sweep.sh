#!/usr/bin/env bash
# Decodes every .gz file of the machine with internal/inflate and compares each with
# compress/gzip and with gzip -dc, byte for byte (internal/inflate's TestMachineFiles
# with INFLATE_SWEEP=all: the suite itself takes a sample). The roots searched are
# /usr/share, /usr/lib, /usr/local, /opt, the Go module cache ($HOME/go/pkg/mod) and GOROOT. Prints the
# number of files, members and bytes decoded; fails on any difference.
#
#   benchmarks/inflate-sweep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
INFLATE_SWEEP=all go test -count=1 -run '^TestMachineFiles$' -v -timeout 60m ./internal/inflate |
	grep -E 'machine_test|^(--- |ok|FAIL)'
