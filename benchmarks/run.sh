#!/usr/bin/env bash
# Runs the foreach benchmark suite and records it:
#   benchmarks/results/latest.txt  raw go test output (input to benchstat)
#   benchmarks/results/latest.md   markdown table (benchmarks/cmd/benchtable) and benchstat -col /impl
#
# Environment: COUNT (default 6) rounds of the whole suite, so samples per benchmark;
# FOREACH_BENCH_SIZE (default 64MiB) size of each corpus; BENCHTIME (default 5x)
# iterations per sample.
set -euo pipefail
cd "$(dirname "$0")/.."

count="${COUNT:-6}"
benchtime="${BENCHTIME:-5x}"
export FOREACH_BENCH_SIZE="${FOREACH_BENCH_SIZE:-64MiB}"
results=benchmarks/results
mkdir -p "$results"
raw="$results/latest.txt"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Build the test binary once, then run it COUNT times with -test.count 1 rather than
# once with -count: go test repeats each benchmark COUNT times in a row, so a burst of
# load from elsewhere on the machine would land on one contender's samples only;
# whole rounds spread it over all of them. Each round regenerates the corpora (a few
# seconds at 64MiB) in its own temp dir and removes them.
start=$(date +%s)
go test -c -o "$work/benchmarks.test" ./benchmarks/
{
	# Configuration lines for benchfmt, before go test's own (goos, goarch, pkg, cpu).
	echo "go: $(go env GOVERSION)"
	# The code measured: HEAD, "+dirty" if the tree outside benchmarks/results differs.
	if rev="$(git rev-parse --short HEAD 2>/dev/null)"; then
		[ -z "$(git status --porcelain -- . ':!benchmarks/results')" ] || rev="$rev+dirty"
		echo "commit: $rev"
	fi
	echo "cores: $(nproc)"
	echo "size: $FOREACH_BENCH_SIZE"
	echo "count: $count"
	echo "benchtime: $benchtime"
	for ((i = 1; i <= count; i++)); do
		"$work/benchmarks.test" -test.run '^$' -test.bench . -test.benchtime "$benchtime" \
			-test.count 1 -test.timeout 30m
	done
} | tee "$work/raw.txt"
elapsed=$(($(date +%s) - start))
wall="$((elapsed / 60))m$((elapsed % 60))s"
cat "$work/raw.txt" >"$raw"

# The table tool (benchmarks/cmd/benchtable) and benchstat (a go.mod tool) use golang.org/x/perf.
table="$(go run ./benchmarks/cmd/benchtable -wall "$wall" "$raw")"
stat="$(go tool benchstat -col /impl "$raw")"
{
	echo "$table"
	echo
	echo "## benchstat -col /impl"
	echo
	echo '```'
	echo "$stat"
	echo '```'
} >"$results/latest.md"

echo
cat "$results/latest.md"
echo
echo "wall time of the benchmark run: $wall; wrote $raw and $results/latest.md"
