#!/usr/bin/env bash
# Measures parallel.Foreach, Map and Fold against the sequential loops (benchmarks/cmd/parallelbench)
# and records the tables in benchmarks/results/parallel.md (and
# history/parallel-COMMIT.md), naming the commit and the machine.
#
# The code measured is exactly the commit HEAD: the program is built from `git archive HEAD`,
# so uncommitted changes are never measured. The timed part runs under
# `flock /tmp/foreach-bench.lock`, so that no other measurement on the machine overlaps it.
# Two corpora: the generated tall corpus (`go run ./testdata/gen --shape tall`) and real text,
# the Go distribution's own .go files concatenated in sorted path order.
#
# Environment: PAIRS (default 15) alternating pairs of runs per row; SIZE (default 64MiB) of
# the tall corpus; PASSES (default 3) FNV-1a passes of the heavy body; WORKERS (default
# 1,2,3,4) worker counts of the scaling rows. At the defaults, about 4 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

pairs="${PAIRS:-15}"
size="${SIZE:-64MiB}"
passes="${PASSES:-3}"
workers="${WORKERS:-1,2,3,4}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go build -o "$work/parallelbench" ./benchmarks/cmd/parallelbench &&
	go run ./testdata/gen --shape tall --size "$size" -o "$work/tall.txt")
find "$(go env GOROOT)/src" -name '*.go' -type f | LC_ALL=C sort | xargs cat >"$work/gosrc.txt"

cpu="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo unknown)"
mem="$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo unknown)"
{
	echo "# parallel.Foreach, Map and Fold against sequential loops"
	echo
	echo "Written by \`benchmarks/parallel.sh\` (PAIRS=$pairs SIZE=$size PASSES=$passes WORKERS=$workers)."
	echo
	echo "- commit: $rev"
	echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "- machine: $(uname -sm), $cpu, $(nproc) cores, $mem"
	echo "- $(go env GOVERSION), GOMAXPROCS $(nproc)"
	echo "- load average when the timed run started (this script's build and corpora included): $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo
	flock /tmp/foreach-bench.lock "$work/parallelbench" -pairs "$pairs" -passes "$passes" -workers "$workers" \
		"tall=$work/tall.txt" "Go sources=$work/gosrc.txt"
	echo "- load average when it ended: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
} >"$work/parallel.md"
keep_results "$rev" "$work/parallel.md"
