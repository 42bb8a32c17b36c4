#!/usr/bin/env bash
# Measures the project's own deflate decoder (internal/inflate, issue 39 part 1) against
# github.com/klauspost/compress/gzip and the standard library's compress/gzip, side by
# side in one process (benchmarks/cmd/inflatebench: every decoder's output checked first,
# then ROUNDS rounds, each timing every decoder once in a rotated order; the median
# throughput of each, by wall and by CPU time, and the median of the per-round ratios of
# its time to klauspost's), with igzip -dc and libdeflate-gunzip -c timed as processes for
# reference. The corpora are real text (the Go distribution's .go files, 128 MiB) and
# the generated tall and mixed corpora (64 MiB), each compressed by gzip -6.
#
#   benchmarks/inflate.sh                     # ROUNDS=11
#   WORK=/tmp/inflate ROUNDS=21 benchmarks/inflate.sh   # keep the corpora between runs
#
# Writes benchmarks/results/inflate.md (the latest run) and a copy named after the commit
# in benchmarks/results/history/. The code measured is the commit HEAD (git archive); the
# timing holds /tmp/foreach-bench.lock; the load average before and after is recorded: on
# a shared machine, compare CPU times.
set -euo pipefail
cd "$(dirname "$0")/.."

lock=/tmp/foreach-bench.lock
rounds="${ROUNDS:-11}"
for tool in gzip flock; do
	command -v "$tool" >/dev/null || { echo "inflate.sh: $tool is needed" >&2; exit 1; }
done
tools=""
for t in "igzip -dc" "libdeflate-gunzip -c"; do
	if command -v "${t%% *}" >/dev/null; then tools="${tools:+$tools,}$t"; fi
done
commit="$(git rev-parse --short=12 HEAD)"
if [ -n "$(git status --porcelain -- internal/inflate benchmarks/cmd/inflatebench)" ]; then
	echo "note: uncommitted changes are not measured; the benchmark is built from $commit" >&2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
work="${WORK:-$tmp/corpora}"
git archive HEAD | tar -x -C "$tmp" -f - --one-top-level=src
(cd "$tmp/src" && go build -o "$tmp/inflatebench" ./benchmarks/cmd/inflatebench)
"$tmp/inflatebench" -make "$work"

out=benchmarks/results/inflate.md
before="$(cut -d' ' -f1-3 /proc/loadavg)"
flock "$lock" "$tmp/inflatebench" -rounds "$rounds" -tools "$tools" \
	"$work/real.txt.gz" "$work/tall.txt.gz" "$work/mixed.txt.gz" >"$tmp/report.md"
after="$(cut -d' ' -f1-3 /proc/loadavg)"
{
	echo "# The deflate decoder against klauspost's and the standard library's"
	echo
	echo "Commit $commit; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;"
	echo "load average $before before, $after after. Command: \`ROUNDS=$rounds benchmarks/inflate.sh\`."
	echo "Each decoder reads the .gz from memory into a 64 KiB buffer, in one goroutine; the"
	echo "tools run as processes reading the file (page cache) and writing to /dev/null."
	cat "$tmp/report.md"
} >"$out"
mkdir -p benchmarks/results/history
cp "$out" "benchmarks/results/history/inflate-$commit.md"
cat "$out"
