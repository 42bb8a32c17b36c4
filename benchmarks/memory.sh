#!/usr/bin/env bash
# memory.sh: the memory the engine needs for one long line, per iterator: the buffer's
# peak capacity and the process's peak resident memory, as multiples of the line.
#
#   benchmarks/memory.sh [SIZES...]     # default: 256MiB 1GiB
#
# Writes benchmarks/results/memory.md (and history/memory-COMMIT.md). Needs the largest SIZE of free space in $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(256MiB 1GiB)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/longline" ./benchmarks/cmd/longline
rev=$(git rev-parse --short=12 HEAD)
[ -z "$(git status --porcelain -- . ':!benchmarks/results')" ] || rev="$rev+dirty"
out="$work/memory.md"
{
	echo "# Memory for one long line"
	echo
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(go env GOVERSION)"
	echo "- Code: commit $rev"
	echo "- Reproduce: \`benchmarks/memory.sh ${sizes[*]}\`"
	echo
	echo "One line of SIZE bytes (newline included) read by one iterator with the default options"
	echo "(BufferSize 64 KiB). Peak RSS is the process's (getrusage), the Go runtime included."
	echo "Growths counts the buffer's new arrays: its doublings up to 8 MiB, then one per 8 MiB"
	echo "block of a record gathered outside it; buffer peak is the reader's buffer alone. Views"
	echo "and Lines hold a gathered record's blocks and then the one array of its length, so"
	echo "their peak is about twice the line; Pieces never holds a record whole."
	echo
	echo "| iterator | line | longest yielded | growths | buffer peak | peak RSS |"
	echo "|---|---:|---:|---:|---:|---:|"
	for size in "${sizes[@]}"; do
		for it in views lines pieces; do
			"$work/longline" -size "$size" -iter "$it" "$work/line-$size"
		done
		rm -f "$work/line-$size"
	done
} >"$out"
cat "$out"
keep_results "$rev" "$out"
