#!/usr/bin/env bash
# Runs the foreach benchmark suite and records it:
#   benchmarks/results/latest.txt  raw go test output (input to benchstat)
#   benchmarks/results/latest.md   markdown table (benchmarks/cmd/benchtable) and benchstat -col /impl
#
# Environment: COUNT (default 6) runs of each benchmark; FOREACH_BENCH_SIZE (default
# 64MiB) size of each corpus; BENCHTIME (default 10x) iterations per run.
set -euo pipefail
cd "$(dirname "$0")/.."

count="${COUNT:-6}"
benchtime="${BENCHTIME:-10x}"
export FOREACH_BENCH_SIZE="${FOREACH_BENCH_SIZE:-64MiB}"
results=benchmarks/results
mkdir -p "$results"
raw="$results/latest.txt"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT

start=$(date +%s)
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
	go test ./benchmarks/ -run '^$' -bench . -benchtime "$benchtime" -count "$count" -timeout 30m
} | tee "$tmp"
elapsed=$(($(date +%s) - start))
wall="$((elapsed / 60))m$((elapsed % 60))s"
cp "$tmp" "$raw"

# The table tool and benchstat live in their own module (benchmarks/cmd/benchtable).
table="$(cd benchmarks/cmd/benchtable && go run . -wall "$wall" "../../../$raw")"
stat="$(cd benchmarks/cmd/benchtable && go run golang.org/x/perf/cmd/benchstat -col /impl "../../../$raw")"
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
