#!/usr/bin/env bash
# Runs the foreach benchmark suite (benchmarks/cmd/suite: the plain-program method) and
# keeps what it measured:
#   benchmarks/results/run.md    the report: rows with their goals, throughput
#   benchmarks/results/run.tsv   every timed run (the input of the picture, tools/plot)
#   benchmarks/results/history/run-<commit>.md and .tsv, the same, kept for the history
#
# The code measured is exactly the commit HEAD: the suite is built from `git archive
# HEAD`, so uncommitted changes are never measured, and the report names that commit.
# Run it on a quiet machine, and under `flock /tmp/foreach-bench.lock` where others may
# measure too.
#
# Environment: PAIRS (default 21) alternating pairs per row; SIZE (default 64MiB) of each
# corpus; ROWS, a regular expression over "shape A/B" to run some rows only. At the
# defaults the run takes about 5 minutes on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

pairs="${PAIRS:-21}"
size="${SIZE:-64MiB}"
rows="${ROWS:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
if [ -n "$(git status --porcelain -- . ':!benchmarks/results')" ]; then
	echo "note: uncommitted changes are not measured; the suite is built from $rev" >&2
fi
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go build -o "$work/suite" ./benchmarks/cmd/suite)
"$work/suite" -size "$size" -pairs "$pairs" -rows "$rows" -commit "$rev" \
	-md "$work/report.md" -raw "$work/runs.tsv"
{
	cat "$work/report.md"
	echo
	echo "Command: \`PAIRS=$pairs SIZE=$size${rows:+ ROWS='$rows'} benchmarks/run.sh\`; load average when it ended: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)."
} >"$work/run.md"
cp "$work/runs.tsv" "$work/run.tsv"
cat "$work/run.md"
keep_results "$rev" "$work/run.md" "$work/run.tsv"
