#!/usr/bin/env bash
# Runs the foreach benchmark suite and records it:
#   benchmarks/results/latest.txt  raw go test output (input to benchstat)
#   benchmarks/results/latest.md   markdown tables and goals (benchmarks/cmd/benchtable),
#                                  then benchstat -col /impl by wall time and by CPU time
#
# The code measured is exactly the commit HEAD: the suite is built from `git archive
# HEAD`, so uncommitted changes in the working tree are never measured, and the results
# name that commit. Run it under `flock /tmp/foreach-bench.lock` on a shared machine, so
# that no other measurement runs at the same time.
#
# Environment: COUNT (default 6) rounds of the whole suite, so samples per benchmark;
# FOREACH_BENCH_SIZE (default 64MiB) size of each corpus; BENCHTIME (default 3x)
# timed iterations per sample. Each timed iteration is followed by an untimed one that
# checks the hash of every record, so a round costs about twice its timed work: at the
# defaults, about 1.5 minutes per round on a 2-core machine, 10 minutes in all.
set -euo pipefail
cd "$(dirname "$0")/.."

count="${COUNT:-6}"
benchtime="${BENCHTIME:-3x}"
export FOREACH_BENCH_SIZE="${FOREACH_BENCH_SIZE:-64MiB}"
results=benchmarks/results
mkdir -p "$results"
raw="$results/latest.txt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
mkdir -p "$work/bin"

# Build the test binary once, then run it COUNT times with -test.count 1 rather than
# once with -count: go test repeats each benchmark COUNT times in a row, so a burst of
# load from elsewhere on the machine would land on one contender's samples only;
# whole rounds spread it over all of them, and the i-th samples of two contenders
# were measured close together (benchtable's per-round ratios rely on that). Each
# round regenerates the corpora (a few seconds at 64MiB) in its own temp dir, and runs the
# contenders of each shape in an order of its own (FOREACH_BENCH_ROUND seeds a shuffle), so
# that no contender always runs first, or always after the same one.
start=$(date +%s)
(cd "$work" && go test -c -o "$work/bin/benchmarks.test" ./benchmarks/)
{
	# Configuration lines for benchfmt, before go test's own (goos, goarch, pkg, cpu).
	echo "go: $(go env GOVERSION)"
	echo "commit: $rev"
	echo "cores: $(nproc)"
	echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null || echo unknown)"
	echo "size: $FOREACH_BENCH_SIZE"
	echo "count: $count"
	echo "benchtime: $benchtime"
	for ((i = 1; i <= count; i++)); do
		# The machine's 1-minute load average as each round starts: on a shared machine
		# it says how much else was running (benchtable reports its range).
		echo "load: $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)"
		FOREACH_BENCH_ROUND=$i "$work/bin/benchmarks.test" -test.run '^$' -test.bench . -test.benchtime "$benchtime" \
			-test.count 1 -test.timeout 30m
	done
} | tee "$work/raw.txt"
elapsed=$(($(date +%s) - start))
wall="$((elapsed / 60))m$((elapsed % 60))s"
cat "$work/raw.txt" >"$raw"

# The table tool (benchmarks/cmd/benchtable) and benchstat (a go.mod tool) use golang.org/x/perf.
table="$(go run ./benchmarks/cmd/benchtable -wall "$wall" "$raw")"
stat="$(go tool benchstat -col /impl -ignore load "$raw")"
{
	echo "$table"
	echo
	echo "## benchstat -col /impl -ignore load"
	echo
	echo "sec/op is wall time, cpu-sec/op the process's user+system time (getrusage) per read of the file."
	echo
	echo '```'
	echo "$stat"
	echo '```'
} >"$results/latest.md"

echo
cat "$results/latest.md"
echo
echo "wall time of the benchmark run: $wall; wrote $raw and $results/latest.md"
