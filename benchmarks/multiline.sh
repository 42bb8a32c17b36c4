#!/usr/bin/env bash
# Measures records of many lines (linereader's Options.Multiline, issue 45) with
# benchmarks/cmd/multilinebench: Views with Multiline against bufio.Scanner + the same regexp
# on each line + bytes.Buffer joining (goal: at least 2x the CPU speed), against plain line
# reading of the same bytes (goal: at least 0.5x), and Count with Multiline on two cores
# against one (goal: at least 1.6x wall, exact), on the stacktrace corpus and on the Go
# distribution's sources; records the table and the machine in
# benchmarks/results/multiline.md (and history/multiline-COMMIT.md).
#
# The code measured is exactly the commit HEAD (built from `git archive HEAD`); the timed part
# runs under `flock /tmp/foreach-bench.lock`, so that no other measurement overlaps it. The
# wall-time goal needs a quiet machine with two free cores.
#
# Environment: SIZE (default 134217728) bytes of each input; PAIRS (default 11) alternating
# pairs of runs per row. At the defaults, about a minute on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

size="${SIZE:-134217728}"
pairs="${PAIRS:-11}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
if [ -n "$(git status --porcelain -- . ':!benchmarks/results')" ]; then
	echo "note: uncommitted changes are not measured; the benchmark is built from $rev" >&2
fi
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go build -o "$work/multilinebench" ./benchmarks/cmd/multilinebench)

cpu="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo unknown)"
{
	echo "# Records of many lines (Options.Multiline)"
	echo
	echo "Written by \`benchmarks/multiline.sh\` (SIZE=$size PAIRS=$pairs)."
	echo
	echo "- commit: $rev"
	echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "- machine: $(uname -sm), $cpu, $(nproc) cores"
	echo "- $(go env GOVERSION), GOMAXPROCS $(nproc)"
	echo "- load average when the timed run started: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo
	mkdir -p "$work/inputs"
	flock /tmp/foreach-bench.lock "$work/multilinebench" -size "$size" -pairs "$pairs" -dir "$work/inputs"
	echo
	echo "- load average when it ended: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo
	echo "Patterns: stacktrace \`^\\d{4}-\\d\\d-\\d\\d \` (a record per log entry); real (Go)"
	echo "\`^(func|type|var|const|import) \` (a record per top-level declaration). Both are decided"
	echo "by their first bytes alone (the prefilter), the regexp never run by Views; the Scanner loop"
	echo "runs it on every line, as a program written today does."
} >"$work/multiline.md"
cat "$work/multiline.md"
keep_results "$rev" "$work/multiline.md"
