#!/usr/bin/env bash
# Runs foreachio and Beam's own textio side by side on Prism over the same files, checks
# every run against a sequential read of the file (number of records and a hash of the
# records as a multiset), and writes the tables into docs/distributed.md (between its
# "compare.sh" markers) and every run into beam/bench/compare-results.md.
#
#   bash beam/bench/compare.sh                 # ROUNDS=3
#   ROUNDS=1 CASES="plain gzip" bash beam/bench/compare.sh
#   DATA=/var/tmp/compare bash beam/bench/compare.sh   # keep the generated files (about 820 MB) for a rerun
#   RAW=beam/bench/compare-results.md bash beam/bench/compare.sh  # no runs: render the runs of that file again
#
# The files are made from real text, the Go distribution's .go files (the compare
# program's gen mode: `go run ./compare list` names the cases and the contenders). Each run is
# one process, timed by GNU time (wall, user+sys CPU, peak RSS; Prism runs its workers in
# the same process) under flock $LOCK, so that no two timings of the project overlap; the
# contenders alternate within a round, in reverse order every other round. The bytes each
# reader reads are counted by the harness's own Beam filesystem. The script is not part of
# CI: 3 rounds took 10 minutes on a quiet 2-core machine (43 on a busy one).
set -euo pipefail
RAW=${RAW:+$(realpath "$RAW")}
cd "$(dirname "$0")"

ROUNDS=${ROUNDS:-3}
CASES=${CASES:-plain crlf long nofinal straddle gzip}
CONTENDERS=${CONTENDERS:-}
LOCK=${LOCK:-/tmp/foreach-bench.lock}
TIMEOUT=${TIMEOUT:-600}
RESULTS=${RESULTS:-compare-results.md}
DOC=${DOC:-../../docs/distributed.md}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
DATA=${DATA:-$WORK/data}

commit=$(git rev-parse --short HEAD)
if git status --porcelain -- .. ../../linereader ../../bytelist ../../internal | grep -v -e '_test\.go$' -e 'compare-results\.md$' | grep -q .; then
	commit="$commit (with uncommitted changes)"
fi
sdk=$(go list -m -f '{{.Version}}' github.com/apache/beam/sdks/v2)

echo "+ building into $WORK"
go build -o "$WORK/compare" ./compare
cmp=$WORK/compare
if [ -z "$CONTENDERS" ]; then
	CONTENDERS=$("$cmp" list | awk -F'\t' '$1 == "contender" {print $2}' | tr '\n' ' ')
fi
# busy: the processes using 5% of a core or more over one second, by top's second sample.
busy() {
	top -b -n 2 -d 1 -w 512 | awk '/^top -/ {n++; rows = 0} n == 2 && $1 == "PID" {rows = 1; next} n == 2 && rows && $9 + 0 >= 5 {printf "%s%s (%s%%)", (k++ ? ", " : ""), $12, $9} END {if (!k) printf "none"}'
}

# measure: make the files and their references, run every contender ROUNDS times, and
# write the runs to raw.tsv and the header of the tables to head.md.
measure() {
	"$cmp" gen -dir "$DATA"
	mkdir -p "$WORK/ref"
	for c in $CASES; do
		"$cmp" ref -dir "$DATA" -case "$c" >"$WORK/ref/$c.json"
		cat "$DATA/$("$cmp" list | awk -F'\t' -v c="$c" '$1 == "case" && $2 == c {print $3}')" >/dev/null # into the page cache
	done
	echo "+ references made for: $CASES"

	busy_before=$(busy)
	read -ra cs <<<"$CASES"
	read -ra ks <<<"$CONTENDERS"
	: >"$WORK/raw.tsv"
	: >"$WORK/load"
	for ((round = 1; round <= ROUNDS; round++)); do
		order=("${ks[@]}")
		if ((round % 2 == 0)); then
			order=()
			for ((i = ${#ks[@]} - 1; i >= 0; i--)); do order+=("${ks[$i]}"); done
		fi
		for c in "${cs[@]}"; do
			for k in "${order[@]}"; do
				cut -d' ' -f1 /proc/loadavg >>"$WORK/load"
				if /usr/bin/flock "$LOCK" /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$WORK/time" \
					timeout "$TIMEOUT" "$cmp" run -dir "$DATA" -case "$c" -contender "$k" -ref "$WORK/ref/$c.json" >"$WORK/line" 2>"$WORK/err"; then
					:
				else
					status=$?
					why="exit status $status: $(head -c 200 "$WORK/err" | tr '\t\n' '  ')"
					if [ "$status" = 124 ]; then why="no result in ${TIMEOUT} s (stopped)"; fi
					printf '%s\t%s\tfailed\t0\t0\t-1\t0\t0\t0\t0\t%s\n' "$c" "$k" "$why" >"$WORK/line"
					tail -n 1 "$WORK/time" >"$WORK/time.last" && mv "$WORK/time.last" "$WORK/time"
				fi
				paste "$WORK/line" "$WORK/time" | tee -a "$WORK/raw.tsv" | cut -f1-5,12-14
			done
		done
		echo "+ round $round of $ROUNDS done"
	done
	busy_after=$(busy)
	load=$(sort -n "$WORK/load" | awk '{v[NR] = $1} END {printf "%s to %s, median %s", v[1], v[NR], v[int((NR + 1) / 2)]}')

	{
		echo "Made by \`bash beam/bench/compare.sh\` (ROUNDS=$ROUNDS) at commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC'), with the Beam Go SDK $sdk on Prism (in-process, loopback workers)."
		echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(go version | cut -d' ' -f3-), files in the page cache."
		echo "Shared with other work: load average (1 min) $load before the runs; processes busy (5% of a core or more) at the start: $busy_before; at the end: $busy_after."
		echo "Medians of $ROUNDS alternated runs, each its own process (start-up and pipeline construction included); CPU is user+sys; \"read\" is the bytes the reader asked of the filesystem; \"opens\" counts the files opened (one per restriction read, plus foreachio's look at each file when it makes the first restriction; a range when the runner split differently from run to run); a result holds for every run unless several are listed."
	} >"$WORK/head.md"
}

# rerender: take the runs and the header of an earlier results file.
rerender() {
	awk '/^```$/ {inside = !inside; next} inside' "$1" >"$WORK/raw.tsv"
	awk '/^Made by/ {on = 1} on && /^$/ {exit} on' "$1" >"$WORK/head.md"
	[ -s "$WORK/raw.tsv" ] && [ -s "$WORK/head.md" ] || { echo "compare.sh: no runs in $1" >&2; exit 1; }
}

if [ -n "${RAW:-}" ]; then
	rerender "$RAW"
else
	measure
fi
{
	cat "$WORK/head.md"
	echo
	"$cmp" table "$WORK/raw.tsv"
} >"$WORK/table.md"

{
	echo "# foreachio against textio, side by side"
	echo
	cat "$WORK/table.md"
	echo
	echo "Every run (case, contender, result, records, records wanted, bytes read, file size, text size, opens, pipeline seconds, detail, wall s, user s, sys s, peak RSS KiB):"
	echo
	echo '```'
	cat "$WORK/raw.tsv"
	echo '```'
} >"$(realpath -m "$RESULTS")"
echo "+ wrote $RESULTS"

if grep -q '<!-- compare.sh: begin -->' "$DOC"; then
	awk -v table="$WORK/table.md" '
		/<!-- compare.sh: begin -->/ {print; while ((getline l < table) > 0) print l; skip = 1; next}
		/<!-- compare.sh: end -->/ {skip = 0}
		!skip' "$DOC" >"$WORK/doc" && cat "$WORK/doc" >"$DOC"
	echo "+ updated $DOC"
fi
