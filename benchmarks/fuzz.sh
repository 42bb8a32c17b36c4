#!/usr/bin/env bash
# Runs the project's fuzz targets, each for FUZZTIME, one after the other, and writes
# benchmarks/results/fuzz.md (and a copy per commit in benchmarks/results/history/): per
# target, the time, the executions, the new interesting inputs, and PASS or the failure.
# A failing input is left where go test writes it (PKG/testdata/fuzz/TARGET/...), to be
# committed with its fix as a seed.
#
#   benchmarks/fuzz.sh                                  # every target, FUZZTIME=2m
#   FUZZTIME=30m MATCH='FuzzPrinter' benchmarks/fuzz.sh # one target, long
#   FUZZTIME=10s MATCH=... OUT=- benchmarks/fuzz.sh     # CI (.ci/run): no results file
#
# MATCH is a regular expression over "PACKAGE TARGET" (default: every line of the list
# below). The list is the one place that names the targets: add a new one here.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime="${FUZZTIME:-2m}"
match="${MATCH:-.}"
out="${OUT:-benchmarks/results/fuzz.md}"

# The fuzz targets: the command's parsers of outside input and its printer (issue 37),
# the follow checkpoint's and state's text forms and OpenMany's patterns, the decompressors,
# the structure scan and the ordered fetcher against the sequential decoder, the zstd
# headers, the engine (its vectorised search and copy among them), the plan of sections
# cut at an index's points, and the byte list.
targets="
./cmd/foreach FuzzPrinter
./cmd/foreach FuzzFlags
./cmd/foreach FuzzSize
./cmd/foreach FuzzStateFile
./internal/escape FuzzParse
./follow FuzzCheckpointText
./follow FuzzCheckpointMatch
./follow FuzzStateText
./follow FuzzPattern
./internal/decompress FuzzReader
./internal/decompress FuzzTrailing
./internal/decompress FuzzBzip2
./internal/decompress FuzzXzDecoder
./internal/decompress FuzzXzFilters
./internal/lzma FuzzReader2
./internal/lzma FuzzReader1
./internal/inflate FuzzRoundTrip
./internal/inflate FuzzRaw
./internal/bzblock FuzzBlock
./internal/blockz FuzzReader
./internal/blockz FuzzSpanReader
./internal/zstdframe FuzzParseHeader
./zindex FuzzRead
./internal/sections FuzzAtPoints
./linereader FuzzReader
./linereader FuzzIterators
./linereader FuzzSection
./linereader FuzzTail
./linereader FuzzBackward
./linereader FuzzFindAll
./linereader FuzzMultiline
./bytelist FuzzOperations
"

# deadline_race LOG: whether a failed run is Go's own race at the end of a duration
# -fuzztime (go.dev/issue/75804, fixed in Go 1.27): the target's only failure is "context
# deadline exceeded", and no failing input was written. CI uses a count (Nx) instead,
# which has no deadline to race.
deadline_race() {
	grep -q '^    context deadline exceeded$' "$1" && ! grep -qE 'Failing input written to|panic:' "$1"
}

commit="$(git rev-parse --short=12 HEAD)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
rows=""
failed=0
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
while read -r pkg target; do
	[ -n "$pkg" ] || continue
	[[ "$pkg $target" =~ $match ]] || continue
	echo "--- $pkg $target ($fuzztime)"
	status=PASS
	if ! go test -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" "$pkg" >"$log" 2>&1; then
		if deadline_race "$log"; then
			status="PASS (ended by Go's fuzztime deadline race, go.dev/issue/75804: no failing input)"
		else
			status="FAIL: $(grep -m1 -E 'Failing input written to|panic:|--- FAIL' "$log" | sed 's/^[[:space:]]*//')"
			failed=1
			cat "$log"
		fi
	fi
	# The last progress line: "fuzz: elapsed: 2m0s, execs: 123 (1/sec), new interesting: 4 (total: 9)".
	progress="$(grep -E '^fuzz: elapsed:' "$log" | tail -n1)"
	execs="$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$progress")"
	interesting="$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$progress")"
	elapsed="$(sed -nE 's/^fuzz: elapsed: ([^,]+),.*/\1/p' <<<"$progress")"
	echo "${elapsed:-?}, ${execs:-?} executions, ${interesting:-?} new interesting: $status"
	rows+="| \`$pkg\` | \`$target\` | ${elapsed:-?} | ${execs:-?} | ${interesting:-?} | $status |"$'\n'
done <<<"$targets"

if [ "$out" != "-" ]; then
	{
		echo "# Fuzzing"
		echo
		echo "- Commit: $commit"
		echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
		echo "- Command: \`FUZZTIME=$fuzztime${MATCH:+ MATCH='$MATCH'} benchmarks/fuzz.sh\`: \`go test -run '^\$' -fuzz '^TARGET\$' -fuzztime $fuzztime PACKAGE\` per target, one after the other (the fuzzer uses every core)"
		echo "- Load average (1, 5, 15 min): $load as it started, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) as it ended"
		echo
		echo "| package | target | time | executions | new interesting | result |"
		echo "|:---|:---|---:|---:|---:|:---|"
		printf '%s' "$rows"
	} >"$out"
	mkdir -p benchmarks/results/history
	cp "$out" "benchmarks/results/history/fuzz-$commit.md"
	cat "$out"
fi
exit "$failed"
