#!/usr/bin/env bash
# Measures the Beam source on compressed objects cut in sections of their text (issue 40,
# item 3): 200 MiB of text lines (internal/measure/corpus, shape mixed: about 4 times compressible) as BGZF, as one gzip member
# with a .zidx, as zstd frames of 1 MiB and as xz -T2 -1, on the fake S3 and GCS servers, in 4 and
# 16 sections, read one after another: the bytes the servers send to make the
# restrictions and for the sections (against the object's size), the records checked
# against a sequential read; wall times are the benchmark's ns/op, indicative only.
#
#   benchmarks/beam-compressed.sh
#
# Writes benchmarks/results/beam-compressed.md (the latest run) and a copy named after the
# commit in benchmarks/results/history/. The code measured is the working tree's beam/
# module; the timed section holds /tmp/foreach-bench.lock; the load average before and
# after is recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
lock=/tmp/foreach-bench.lock
commit="$(git rev-parse --short=12 HEAD)"
out=benchmarks/results/beam-compressed.md
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
(cd beam/bench && flock "$lock" go test ./objects -run '^$' -bench Compressed -benchtime 1x -timeout 30m) >"$tmp"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
{
	echo "# The Beam source on compressed objects, in sections of their text"
	echo
	echo "Made by \`benchmarks/beam-compressed.sh\` at commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(go version | cut -d' ' -f3-)."
	echo "Load average (1, 5, 15 min) before: $load_before; after: $load_after."
	echo
	echo "Columns: sections made; restr-B, bytes the server sent to make the restrictions"
	echo "(the .zidx object, 64 KiB at each end of the object, the pieces' headers; for zstd"
	echo "the scan reads every block header, so the whole object); sent/size, bytes sent for"
	echo "the sections over the object's size; object-B, the object's size; ns/op, the wall"
	echo "time of making the restrictions and reading every section in turn (one process, the"
	echo "servers included; indicative only on a shared machine). Every run's count is exact."
	echo
	echo '```'
	grep -E '^(Benchmark|goos|goarch|cpu|ok|PASS|FAIL)' "$tmp"
	echo '```'
} >"$out"
mkdir -p benchmarks/results/history
cp "$out" "benchmarks/results/history/beam-compressed-$commit.md"
cat "$out"
