#!/usr/bin/env bash
# Measures package zindex (issue 39 part 2) on real text (the Go distribution's .go
# files, 128 MiB, gzip -6) with benchmarks/cmd/zindexbench, side by side in one process:
# Build against a plain sequential decode (goal: <= 1.1x), the index's size (goal: <= 2% of
# the .gz at the default span), ReadAt in order and at random, linereader.CountAt over the
# index with 1 and 2 workers, and two sections cut at access points on two goroutines,
# against `igzip -dc | wc -l` (goal for the integration: <= 0.6x its time on 2 cores), the
# last 10 lines through a saved index against those of a 1 MiB .gz read in order (goal: <=
# 2x). Every contender's result is checked before any timing. ROUNDS rounds, each timing
# every contender once in a rotated order; medians of wall and CPU time, and of the
# per-round ratios.
#
#   benchmarks/zindex.sh                             # ROUNDS=11
#   WORK=/tmp/inflate ROUNDS=21 benchmarks/zindex.sh  # keep the corpora (shared with inflate.sh)
#
# Writes benchmarks/results/zindex.md (the latest run) and a copy named after the commit in
# benchmarks/results/history/. The code measured is the commit HEAD (git archive); the
# timing holds /tmp/foreach-bench.lock; the load average before and after is recorded: on
# a shared machine the parallel rows cannot show what 2 cores give, and CPU times are the
# figures to compare. Needs gzip and igzip.
set -euo pipefail
cd "$(dirname "$0")/.."

lock=/tmp/foreach-bench.lock
rounds="${ROUNDS:-11}"
for tool in gzip igzip wc flock; do
	command -v "$tool" >/dev/null || { echo "zindex.sh: $tool is needed" >&2; exit 1; }
done
commit="$(git rev-parse --short=12 HEAD)"
if [ -n "$(git status --porcelain -- zindex internal/inflate benchmarks/cmd/zindexbench)" ]; then
	echo "note: uncommitted changes are not measured; the benchmark is built from $commit" >&2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
work="${WORK:-$tmp/corpora}"
git archive HEAD | tar -x -C "$tmp" -f - --one-top-level=src
(cd "$tmp/src" && go build -o "$tmp/inflatebench" ./benchmarks/cmd/inflatebench &&
	go build -o "$tmp/zindexbench" ./benchmarks/cmd/zindexbench)
"$tmp/inflatebench" -make "$work"

out=benchmarks/results/zindex.md
before="$(cut -d' ' -f1-3 /proc/loadavg)"
flock "$lock" "$tmp/zindexbench" -rounds "$rounds" "$work/real.txt.gz" >"$tmp/report.md"
after="$(cut -d' ' -f1-3 /proc/loadavg)"
{
	echo "# zindex: building an index, and reading a .gz through it"
	echo
	echo "Commit $commit; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;"
	echo "load average $before before, $after after. Command: \`ROUNDS=$rounds benchmarks/zindex.sh\`."
	echo "The .gz is read from the page cache; in-process contenders' CPU time is the process's"
	echo "(getrusage), the pipeline's that of its processes."
	echo
	cat "$tmp/report.md"
} >"$out"
mkdir -p benchmarks/results/history
cp "$out" "benchmarks/results/history/zindex-$commit.md"
cat "$out"
