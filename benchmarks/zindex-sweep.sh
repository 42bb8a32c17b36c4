#!/usr/bin/env bash
# Indexes every .gz file of the machine (zindex.Build with a 16 KiB span, so that most
# files have several access points) and reads each through its index, at random offsets
# and whole, against gzip -dc's bytes (zindex's TestMachineFiles with ZINDEX_SWEEP=all:
# the suite itself takes a sample). The roots searched are /usr/share, /usr/lib,
# /usr/local, /opt, the Go module cache ($HOME/go/pkg/mod) and GOROOT. Prints the number
# of files, access points and bytes read; fails on any difference.
#
#   benchmarks/zindex-sweep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ZINDEX_SWEEP=all go test -count=1 -run '^TestMachineFiles$' -v -timeout 60m ./zindex |
	grep -E 'machine_test|^(--- |ok|FAIL)'
