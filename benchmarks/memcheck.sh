#!/usr/bin/env bash
# memcheck.sh: the heavy reliability runs of docs/RELIABILITY.md, with the time and peak
# resident memory of each (GNU time's "Maximum resident set size").
#
#   benchmarks/memcheck.sh [SIZE_MIB]     # SIZE_MIB: the long line's size, default 1024
#
# Needs GNU time at /usr/bin/time and SIZE_MIB plus a little of free space in $TMPDIR.
# Nothing here runs in CI. Prints a table and writes it to benchmarks/results/memcheck.md
# (and history/memcheck-COMMIT.md); docs/RELIABILITY.md quotes it.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

size_mib=${1:-1024}
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/foreach" ./cmd/foreach
fe=$work/foreach
rev=$(git rev-parse --short=12 HEAD)
[ -z "$(git status --porcelain -- . ':!benchmarks/results')" ] || rev="$rev+dirty"

# measure LABEL EXPECTED_STATUS CMD...: run CMD under GNU time, print one result row.
measure() {
	local label=$1 want=$2
	shift 2
	local status=0
	/usr/bin/time -v -o "$work/time" "$@" || status=$?
	local rss wall
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")
	printf '| %s | exit %s (want %s) | %s | %d MiB |\n' "$label" "$status" "$want" "$wall" $((rss / 1024))
}

{
	echo "# The heavy reliability runs"
	echo
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(go env GOVERSION)"
	echo "- Code: commit $rev; load average as the runs started: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo "- Reproduce: \`benchmarks/memcheck.sh $size_mib\`"
	echo
	echo "| run | status | wall | peak RSS |"
	echo "|---|---|---|---|"

	# One line of SIZE_MIB MiB, then a short one; the output must be byte-exact.
	{ head -c $((size_mib << 20)) /dev/zero | tr '\0' x; printf '\ntail\n'; } >"$work/long"
	measure "foreach long-line file (${size_mib} MiB line) > out" 0 sh -c "'$fe' '$work/long' >'$work/out'"
	cmp "$work/long" "$work/out" && echo "(output byte-exact)"
	rm -f "$work/out"
	measure "foreach -c long-line file" 0 sh -c "'$fe' -c '$work/long' >/dev/null"
	measure "foreach --max-record 64MiB long-line file" 1 sh -c "'$fe' --max-record 64MiB '$work/long' >/dev/null 2>&1"
	rm -f "$work/long"

	# Endless input: memory must stay near --max-record.
	measure "foreach --max-record 64MiB /dev/zero" 1 sh -c "'$fe' --max-record 64MiB /dev/zero 2>/dev/null"
	measure "foreach --max-record 1MiB /dev/zero" 1 sh -c "'$fe' --max-record 1MiB /dev/zero 2>/dev/null"
	measure "foreach -c --max-record 64MiB /dev/zero" 1 sh -c "'$fe' -c --max-record 64MiB /dev/zero 2>/dev/null"
	measure "foreach -p < endless newlines (4 GiB)" 0 sh -c "head -c 4G /dev/zero | tr '\\0' '\\n' | '$fe' -p"
	measure "foreach --limit 4096 /dev/zero | head -c 1G" 0 sh -c "'$fe' --limit 4096 /dev/zero | head -c 1G >/dev/null"

	# Without --max-record the command still never holds a record whole: the plain copy and
	# the numbering modes pass a record that never ends on a piece at a time, as cat does.
	measure "foreach /dev/zero | head -c 4G (no --max-record)" 0 sh -c "'$fe' /dev/zero | head -c 4G >/dev/null"
	measure "foreach -n /dev/zero | head -c 1G (no --max-record)" 0 sh -c "'$fe' -n /dev/zero | head -c 1G >/dev/null"

	# The engine alone, in-process (time, buffer peak, process Sys in the test log).
	(cd "$root" && FOREACH_HEAVY=1 FOREACH_HEAVY_SIZE=$((size_mib << 20)) \
		/usr/bin/time -v -o "$work/time" go test -count=1 -run TestHostileHeavyGigabyteLine -v ./linereader/ | grep -E 'hostile_test|^(ok|FAIL|---)')
	awk -F': ' '/Maximum resident set size/ {printf "(go test peak RSS %d MiB)\n", $2/1024}' "$work/time"
} | tee "$work/memcheck.md"
keep_results "$rev" "$work/memcheck.md"
