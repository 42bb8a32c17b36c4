#!/usr/bin/env bash
# Measures Follow: the records per second a follower sustains behind a writer appending
# short records as fast as it can, the latency from a write to the loop body, and the CPU
# time of a follower while the file is quiet (the follow package's BenchmarkFollowThroughput,
# BenchmarkFollowLatency and BenchmarkFollowQuiet), with notifications and on the polling
# path. Writes
#   benchmarks/results/follow.txt  raw go test output
#   benchmarks/results/follow.md   benchstat of it, with the commit, the machine and its load
# and a copy of each under benchmarks/results/history (follow-COMMIT.txt, .md). BENCH (a
# -test.bench pattern) picks the benchmarks, all of them unless set; the report names it.
#
# Like benchmarks/run.sh it measures exactly the commit HEAD (built from `git archive`), in
# COUNT (default 6) rounds of every benchmark, one run each. Run it under
# `flock /tmp/foreach-bench.lock` on a shared machine. About 50 s per round.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

count="${COUNT:-6}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go test -c -o "$work/follow.test" ./follow/)
start=$(date +%s)
{
	echo "go: $(go env GOVERSION)"
	echo "commit: $rev"
	echo "cores: $(nproc)"
	for ((i = 1; i <= count; i++)); do
		echo "load: $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)"
		(cd "$work" && "$work/follow.test" -test.run '^$' -test.bench "${BENCH:-^BenchmarkFollow}" \
			-test.benchtime 1x -test.count 1)
	done
} | tee "$work/raw.txt"
elapsed=$(($(date +%s) - start))
keep_results "$rev" "$work/raw.txt"
raw=benchmarks/results/follow.txt # benchstat names its input: the path the report points to
{
	echo "# Follow"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it), $(nproc) cores, $(go env GOVERSION), $(uname -sr)"
	echo "- Command: \`COUNT=$count BENCH='${BENCH:-^BenchmarkFollow}' benchmarks/follow.sh\`, wall time $((elapsed / 60))m$((elapsed % 60))s"
	echo "- Load average at the start of each round: $(grep '^load:' "$raw" | cut -d' ' -f2 | paste -sd' ')"
	echo "- Files in $(df -T "${TMPDIR:-/tmp}" | awk 'NR==2 {print $2}') under ${TMPDIR:-/tmp}; notify: inotify (fsnotify) plus the poll every 250 ms; poll: the poll alone"
	echo
	echo "Throughput: a writer appends 2,000,000 records of 12 to 17 bytes as fast as it can, one"
	echo "write(2) per record or in 4 KiB writes; rec/s is the follower's rate from the first write"
	echo "to the last record received, writer-rec/s the writer's, lag-ms the time from the writer's"
	echo "last write to the follower's last record; mode=none is the writer alone. Latency: one"
	echo "record at a time, from just before its write to the loop body (400 samples with"
	echo "notifications, 40 polling). Quiet: user+system CPU of the whole process per second over"
	echo "10 s while the follower waits on a file that does not change; mode=sleep is the process"
	echo "sleeping."
	echo
	echo '```'
	go tool benchstat -ignore load "$raw"
	echo '```'
	# Round 4's run (history/follow-r4.txt, its quiet machine) beside this one: the
	# single-file follower's latency and CPU at idle, owed since round 5.
	r4=benchmarks/results/history/follow-r4.txt
	if [[ -f $r4 ]]; then
		echo
		echo "Against round 4 ($(grep -m1 '^commit:' "$r4" | cut -d' ' -f2), \`$r4\`), the benchmarks both have:"
		echo
		echo '```'
		go tool benchstat -ignore load,commit,cpu "$r4" "$raw"
		echo '```'
	fi
} >"$work/follow.md"
keep_results "$rev" "$work/follow.md"
