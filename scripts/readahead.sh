#!/usr/bin/env bash
# Measures the read-ahead policy: Lines over the tall corpus with loop bodies from trivial
# to an FNV-1a hash of each whole record, read-ahead off (plain), always on (forced) and as
# shipped (policy): linereader's BenchmarkReadAheadPolicy. Writes
#   benchmarks/results/readahead.txt  raw go test output
#   benchmarks/results/readahead.md   benchstat by mode: wall time, CPU time, starts
#
# Like benchmarks/run.sh it measures exactly the commit HEAD (built from `git archive`),
# in COUNT (default 6) rounds of the whole benchmark, BENCHTIME (default 3x) runs each,
# over FOREACH_BENCH_SIZE (default 64MiB) of tall lines. Run it under
# `flock /tmp/foreach-bench.lock` on a shared machine. About 3 minutes at the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."

count="${COUNT:-6}"
benchtime="${BENCHTIME:-3x}"
size="${FOREACH_BENCH_SIZE:-64MiB}"
results=benchmarks/results
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go test -c -o "$work/linereader.test" ./linereader/ &&
	go run ./testdata/gen --shape tall --size "$size" -o "$work/tall.txt")
start=$(date +%s)
{
	echo "go: $(go env GOVERSION)"
	echo "commit: $rev"
	echo "cores: $(nproc)"
	echo "size: $size"
	for ((i = 1; i <= count; i++)); do
		echo "load: $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)"
		FOREACH_BENCH_FILE="$work/tall.txt" "$work/linereader.test" -test.run '^$' \
			-test.bench '^BenchmarkReadAheadPolicy$' -test.benchtime "$benchtime" -test.count 1
	done
} | tee "$work/raw.txt"
elapsed=$(($(date +%s) - start))
cp "$work/raw.txt" "$results/readahead.txt"
{
	echo "# Read-ahead policy"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it), $(nproc) cores, $(go env GOVERSION)"
	echo "- Command: \`COUNT=$count BENCHTIME=$benchtime FOREACH_BENCH_SIZE=$size scripts/readahead.sh\`, wall time $((elapsed / 60))m$((elapsed % 60))s"
	echo "- Data: the tall corpus of testdata/gen (58-byte lines on average), $size, in the page cache"
	echo "- Loop bodies: FNV-1a over the first 0, 8, 16 or 32 bytes of each record (hashN), or over all of it (fnv)"
	echo "- Modes: plain (read-ahead off), forced (always on, never judged), policy (as shipped)"
	echo
	echo "sec/op is wall time; cpu-sec/op the process's user+system time, both cores; starts/op the producers the policy started per read of the file."
	echo
	echo '```'
	go tool benchstat -col /mode -ignore load "$results/readahead.txt"
	echo '```'
} >"$results/readahead.md"
echo "wrote $results/readahead.txt and $results/readahead.md"
