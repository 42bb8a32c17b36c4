#!/usr/bin/env bash
# Measures internal/pgzip, the speculative parallel decoder of plain gzip files (issue 40
# item 4), against the sequential decode (decompress.NewReader: internal/inflate in one
# goroutine), side by side in one process (benchmarks/cmd/pgzipbench: every contender's
# output checked first, then ROUNDS rounds in a rotated order; medians of wall and CPU
# time, the median of the per-round speed-ups, and the parallel decoder's stats: chunks
# used and missed, guesses and false starts, the text decoded with markers, where the
# consumer's time went), then each contender as a process of its own (a command run on a
# file: new memory, its page faults in its CPU time). The corpora: real text (the Go
# distribution's .go files, 128 MiB) compressed by gzip -6, gzip -1, gzip -9 and, where
# present, pigz and igzip; the generated tall and mixed corpora (64 MiB, gzip -6).
#
#   benchmarks/pgzip.sh                                   # ROUNDS=7 WORKERS=2 CHUNKS=3MiB
#   WORK=/tmp/pgzip ROUNDS=11 CHUNKS='2MiB 4MiB' benchmarks/pgzip.sh   # keep the corpora
#
# Writes benchmarks/results/pgzip.md (the latest run) and a copy named after the commit
# in benchmarks/results/history/ (benchmarks/keep.sh). The code measured is the commit HEAD (git archive); the
# timing holds /tmp/foreach-bench.lock; the load average before and after is recorded:
# on a shared machine, compare CPU times, and run again on a quiet one for wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

lock=/tmp/foreach-bench.lock
rounds="${ROUNDS:-7}"
workers="${WORKERS:-2}"
chunks="${CHUNKS:-3MiB}"
for tool in gzip flock; do
	command -v "$tool" >/dev/null || { echo "pgzip.sh: $tool is needed" >&2; exit 1; }
done
commit="$(git rev-parse --short=12 HEAD)"
if [ -n "$(git status --porcelain -- internal/pgzip internal/inflate benchmarks/cmd/pgzipbench)" ]; then
	echo "note: uncommitted changes are not measured; the benchmark is built from $commit" >&2
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
work="${WORK:-$tmp/corpora}"
git archive HEAD | tar -x -C "$tmp" -f - --one-top-level=src
(cd "$tmp/src" && go build -o "$tmp/pgzipbench" ./benchmarks/cmd/pgzipbench &&
	go build -o "$tmp/inflatebench" ./benchmarks/cmd/inflatebench)
"$tmp/inflatebench" -make "$work"

# The real text compressed by other tools and levels, each FILE.gz beside a FILE.
variant() { # name command...
	local name="$1"
	shift
	if [ ! -e "$work/$name.gz" ] && command -v "$1" >/dev/null; then
		ln -sf real.txt "$work/$name"
		"$@" <"$work/real.txt" >"$work/$name.gz.tmp" && mv "$work/$name.gz.tmp" "$work/$name.gz"
	fi
	if [ -e "$work/$name.gz" ]; then files="$files $work/$name.gz"; fi
}
files="$work/real.txt.gz"
variant real-gzip1.txt gzip -1 -n -c
variant real-gzip9.txt gzip -9 -n -c
variant real-pigz.txt pigz -p 2 -c
variant real-igzip.txt igzip -1 -c
files="$files $work/tall.txt.gz $work/mixed.txt.gz"

before="$(cut -d' ' -f1-3 /proc/loadavg)"
: >"$tmp/report.md"
for chunk in $chunks; do
	for f in $files; do
		flock "$lock" "$tmp/pgzipbench" -rounds "$rounds" -workers "$workers" -chunk "$chunk" -processes "$f" >>"$tmp/report.md"
	done
done
# What each part costs, one at a time (CPU time, robust on a busy machine), and what more
# cores would give: internal/pgzip's TestModel on the real text.
for chunk in $chunks; do
	echo >>"$tmp/report.md"
	echo "The parts one at a time (\`PGZIP_MODEL=real.txt.gz PGZIP_CHUNK=$chunk go test -run TestModel -v ./internal/pgzip\`):" >>"$tmp/report.md"
	echo >>"$tmp/report.md"
	(cd "$tmp/src" && PGZIP_MODEL="$work/real.txt.gz" PGZIP_CHUNK="$chunk" flock "$lock" go test -count=1 -run '^TestModel$' -v ./internal/pgzip) |
		grep -vE '^(=== RUN|--- PASS|PASS|ok )' | sed "s|$work/||" >>"$tmp/report.md"
done
after="$(cut -d' ' -f1-3 /proc/loadavg)"
{
	echo "# The speculative parallel gzip decoder against the sequential decode"
	echo
	echo "Commit $commit; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;"
	echo "load average $before before, $after after. Command: \`ROUNDS=$rounds WORKERS=$workers CHUNKS='$chunks' benchmarks/pgzip.sh\`."
	echo "Each contender reads the .gz file (page cache) into a 256 KiB buffer; \"sequential\" is"
	echo "decompress.NewReader (internal/inflate, one goroutine), \"pgzip, N workers\" the parallel"
	echo "Reader with N-1 worker goroutines and the reading goroutine decoding its own shares."
	cat "$tmp/report.md"
} >"$tmp/pgzip.md"
keep_results "$commit" "$tmp/pgzip.md"
cat "$tmp/pgzip.md"
