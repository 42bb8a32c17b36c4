#!/usr/bin/env bash
# Measures the JSON-lines workload (benchmarks/cmd/jsonlbench): every record of a generated
# .jsonl decoded with encoding/json by Scanner, Lines, Views, parallel.Map, Foreach, Fold and
# a hand-written errgroup pool; records the table, the lines of code of each loop and the
# machine in benchmarks/results/jsonl.md (and history/jsonl-COMMIT.md).
#
# The code measured is exactly the commit HEAD (built from `git archive HEAD`); the timed part
# runs under `flock /tmp/foreach-bench.lock`, so that no other measurement overlaps it.
#
# Environment: SIZE (default 200000000) bytes of input; PAIRS (default 5) alternating pairs
# of runs per row; WORKERS (default 2). At the defaults, about 3 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

size="${SIZE:-200000000}"
pairs="${PAIRS:-5}"
workers="${WORKERS:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go build -o "$work/jsonlbench" ./benchmarks/cmd/jsonlbench)
"$work/jsonlbench" -gen "$work/input.jsonl" -size "$size"

# Lines of each contender's loop: from its "// loop: NAME" comment to the "// end" after it,
# both excluded, blank lines excluded.
loc() {
	awk '/^\/\/ loop: / { name = substr($0, 10); n = 0; on = 1; next }
	     /^\/\/ end$/ && on { printf "| %s | %d |\n", name, n; on = 0; next }
	     on && NF { n++ }' "$work/benchmarks/cmd/jsonlbench/contenders.go"
}

cpu="$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo unknown)"
{
	echo "# JSON lines: decoding every record with encoding/json"
	echo
	echo "Written by \`benchmarks/jsonl.sh\` (SIZE=$size PAIRS=$pairs WORKERS=$workers)."
	echo
	echo "- commit: $rev"
	echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "- machine: $(uname -sm), $cpu, $(nproc) cores"
	echo "- $(go env GOVERSION), GOMAXPROCS $(nproc)"
	echo "- load average when the timed run started: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo
	flock /tmp/foreach-bench.lock "$work/jsonlbench" -pairs "$pairs" -workers "$workers" "$work/input.jsonl"
	echo
	echo "- load average when it ended: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo
	echo "Lines of code of each loop (benchmarks/cmd/jsonlbench/contenders.go, blank lines excluded; the"
	echo "decoding and counting they share, \`summary.add\`, \`count\` and \`merge\`, not included):"
	echo
	echo "| loop | lines |"
	echo "|---|---:|"
	loc
} >"$work/jsonl.md"
keep_results "$rev" "$work/jsonl.md"
