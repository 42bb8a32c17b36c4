#!/usr/bin/env bash
# Times foreach-beam on Prism (in-process, the default) and on the direct runner against
# foreach -c and a sequential Go loop (seqloop) over the same generated files, with
# the same job written with every record as an element (perrecord), and writes the
# medians to results.md (RESULTS=path to write elsewhere).
#
#   bash beam/bench/bench.sh                  # ROUNDS=5 TALL=256MiB MIXED=64MiB by default
#   ROUNDS=3 TALL=64MiB bash beam/bench/bench.sh
#   REAL_MIB=200 bash beam/bench/bench.sh    # into results-real.md
#                                             # real text instead: the Go distribution's .go
#                                             # files in path order, repeated to 200 MiB and
#                                             # cut at a line end (a vocabulary of about a
#                                             # million words, where the generator's has few)
#
# Each timed run holds /tmp/foreach-bench.lock (flock), so that no two measurements of the
# project run at once; the contenders alternate within each round, in reverse order every
# other round. Wall time, CPU time (user+sys: Prism runs on several goroutines) and peak RSS
# come from GNU time.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)

ROUNDS=${ROUNDS:-5}
TALL=${TALL:-256MiB}
MIXED=${MIXED:-64MiB}
RESULTS=${RESULTS:-results.md}
if [ -n "${REAL_MIB:-}" ]; then RESULTS=${RESULTS/#results.md/results-real.md}; fi
LOCK=${LOCK:-/tmp/foreach-bench.lock}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

commit=$(git rev-parse --short HEAD)
# Only the code that goes into the binaries counts: tests and this script's output do not.
if git status --porcelain -- .. ../../linereader ../../bytelist ../../internal ../../cmd/foreach ../../testdata/gen |
	grep -v -e '_test\.go$' -e 'results\.md$' | grep -q .; then
	commit="$commit (with uncommitted changes)"
fi

echo "+ building into $WORK"
(cd .. && go build -o "$WORK/foreach-beam" ./cmd/foreach-beam)
go build -o "$WORK/seqloop" ./seqloop
go build -o "$WORK/perrecord" ./perrecord
(cd ../.. && go build -o "$WORK/foreach" ./cmd/foreach)
mkdir -p "$WORK/data" "$WORK/tiny" "$WORK/out"
if [ -n "${REAL_MIB:-}" ]; then
	find "$(go env GOROOT)/src" -name '*.go' -type f | LC_ALL=C sort >"$WORK/gofiles"
	want_bytes=$((REAL_MIB * 1048576))
	while [ "$(stat -c %s "$WORK/data/real.txt" 2>/dev/null || echo 0)" -lt "$want_bytes" ]; do
		xargs cat <"$WORK/gofiles" >>"$WORK/data/real.txt"
	done
	head -c "$want_bytes" "$WORK/data/real.txt" | sed '$d' >"$WORK/data/real.cut" && mv "$WORK/data/real.cut" "$WORK/data/real.txt"
	what="real text, the Go distribution's .go files in path order repeated to $REAL_MIB MiB and cut at a line end"
else
	(cd ../.. && go run ./testdata/gen --shape tall --size "$TALL" -o "$WORK/data/tall.txt" &&
		go run ./testdata/gen --shape mixed --size "$MIXED" -o "$WORK/data/mixed.txt")
	what="generated tall ($TALL) and mixed ($MIXED)"
fi
printf 'one line\n' >"$WORK/tiny/one.txt"
files=("$WORK"/data/*.txt)
bytes=$(cat "${files[@]}" | wc -c)

# The contenders: a name, then the command (run by bash -c, in $WORK).
names=(
	"foreach -c -j2 (records only)"
	"seqloop -records (records only, 1 goroutine)"
	"seqloop (records and words, 1 goroutine)"
	"foreach-beam on Prism (records and words)"
	"foreach-beam on the direct runner"
	"foreach-beam on Prism, one 9-byte file"
	"perrecord on Prism: every record an element"
)
cmds=(
	"./foreach -c -j2 data/*.txt"
	"./seqloop -records data/*.txt"
	"./seqloop data/*.txt"
	"./foreach-beam --input 'data/*.txt' --output out/prism"
	"./foreach-beam --input 'data/*.txt' --output out/direct --runner=direct"
	"./foreach-beam --input 'tiny/*.txt' --output out/tiny"
	"./perrecord --input 'data/*.txt'"
)

# Every contender must agree on the number of records before any is timed.
cd "$WORK"
want=$(./seqloop -records data/*.txt | awk '{print $3}')
[ "$(./foreach -c data/*.txt | tail -n 1 | awk '{print $1}')" = "$want" ] || { echo "foreach -c disagrees"; exit 1; }
./foreach-beam --input 'data/*.txt' --output out/check >/dev/null
sum=$(awk -F'\t' '{s += $2} END {print s}' out/check-records.tsv)
[ "$sum" = "$want" ] || { echo "foreach-beam counts $sum records, want $want"; exit 1; }
echo "+ all contenders count $want records in $bytes bytes"

: >times.tsv
n=${#cmds[@]}
for ((round = 1; round <= ROUNDS; round++)); do
	order=$(seq 0 $((n - 1)))
	if ((round % 2 == 0)); then order=$(seq $((n - 1)) -1 0); fi
	for i in $order; do
		/usr/bin/flock "$LOCK" /usr/bin/time -f "$i\t%e\t%U\t%S\t%M" -a -o times.tsv bash -c "${cmds[$i]}" >/dev/null
	done
	echo "+ round $round of $ROUNDS done"
done

median() { sort -n | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

{
	echo "# foreach-beam against foreach -c and a sequential loop"
	echo
	echo "Written by \`beam/bench/bench.sh\` (ROUNDS=$ROUNDS TALL=$TALL MIXED=$MIXED REAL_MIB=${REAL_MIB:-}) at commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(go version | cut -d' ' -f3), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Files: $what, $bytes bytes and $want records in all, in the page cache."
	echo "Medians of $ROUNDS alternated runs, process start included; CPU is user+sys; RSS is the peak."
	echo
	echo "| command | wall s | CPU s | peak RSS MiB | wall vs seqloop |"
	echo "|---|---|---|---|---|"
	base=$(awk -F'\t' '$1 == 2 {print $2}' times.tsv | median)
	for ((i = 0; i < n; i++)); do
		wall=$(awk -F'\t' -v i="$i" '$1 == i {print $2}' times.tsv | median)
		cpu=$(awk -F'\t' -v i="$i" '$1 == i {print $3 + $4}' times.tsv | median)
		rss=$(awk -F'\t' -v i="$i" '$1 == i {print $5 / 1024}' times.tsv | median)
		printf '| %s: `%s` | %.2f | %.2f | %.0f | %.2f× |\n' "${names[$i]}" "${cmds[$i]}" "$wall" "$cpu" "$rss" "$(awk -v w="$wall" -v b="$base" 'BEGIN {print w / b}')"
	done
	echo
	echo "Every run, in order (contender index, wall, user, sys, peak RSS KiB):"
	echo
	echo '```'
	cat times.tsv
	echo '```'
} >"$(cd "$here" && realpath -m "$RESULTS")"
echo "+ wrote $RESULTS"
