#!/usr/bin/env bash
# Measures reading from the end (issue 30's goals) and writes benchmarks/results/fromend.md
# (and history/fromend-COMMIT.md):
#
#   foreach --reverse F     vs  tac F              (F: 256 MiB of tall lines, and of real text;
#                                                   real also into a file)
#   foreach --last 10 F     vs  tail -n 10 F       (F: real text of 256 MiB, and of 1 MiB;
#                                                   the command's start-up: an empty file)
#   NewBackward Views       vs  forward Views      (go run ./benchmarks/cmd/fromend: side by
#                                                   side in one process, wall and CPU, and what
#                                                   a backward pass allocates)
#
# The corpora are those of benchmarks/cli.sh: tall from testdata/gen, real the Go
# distribution's .go files concatenated. Before any timing, each foreach output is
# checked against its tool's, byte for byte. Each row is timed by benchmarks/timeit.sh
# (benchmarks/cmd/timeit: ROUNDS x RUNS rounds, each running every command once in an
# order rotated every round; hyperfine times every run too, and the two must agree within
# AGREE, 10%, or the script stops); the report gives each command's median wall time, its
# ratio to the first command (the median of the ratios of medians of RUNS rounds at a
# time, with the least and greatest), its CPU time (user + system of the process tree,
# from wait4, median), and each row's table as timeit gave it. The machine's load
# average is recorded before and after: on a shared machine, CPU time is the figure to
# compare.
#
#   benchmarks/fromend.sh                    # SIZE=256MiB ROUNDS=5 RUNS=5
#   SIZE=16MiB ROUNDS=1 RUNS=2 AGREE=9 benchmarks/fromend.sh   # that it works, on a busy machine
#
# The command is built from the commit HEAD (git archive). The timing holds
# /tmp/foreach-bench.lock, as benchmarks/cli.sh does. Needs hyperfine, python3, GNU coreutils.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh
. benchmarks/timeit.sh

timeit_lock "$@"

size="${SIZE:-256MiB}"
rounds="${ROUNDS:-5}"
runs="${RUNS:-5}"
for tool in hyperfine python3 tac tail; do
	command -v "$tool" >/dev/null || { echo "fromend.sh: $tool is needed" >&2; exit 1; }
done
commit="$(git rev-parse --short=12 HEAD)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
git archive HEAD | tar -x -C "$work/src"
(cd "$work/src" && go build -o "$work/foreach" ./cmd/foreach && go build -o "$work/fromend" ./benchmarks/cmd/fromend)
(cd "$work/src" && timeit_build "$work")
export TIMEIT="$work/timeit"

# real SIZE FILE: the Go distribution's .go files concatenated, cut at the first line end
# past SIZE bytes (internal/measure/contend/corpora.go's recipe).
real() {
	python3 - "$(go env GOROOT)/src" "$1" "$2" <<'PY'
import os, sys
root, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
               if f.endswith(".go") and os.path.isfile(os.path.join(d, f)) and not os.path.islink(os.path.join(d, f)))
data, i = bytearray(), 0
while len(data) < size:
    b = open(names[i], "rb").read()
    data += b
    if b and not b.endswith(b"\n"):
        data += b"\n"
    i = (i + 1) % len(names)
end = data.find(b"\n", size - 1)
open(out, "wb").write(data[:end + 1] if end >= 0 else data)
PY
}
bytes="$(python3 -c "import re,sys; m=re.fullmatch(r'(\d+)(KiB|MiB|GiB)?', sys.argv[1]); print(int(m[1]) << {None:0,'KiB':10,'MiB':20,'GiB':30}[m[2]])" "$size")"
go run ./testdata/gen --shape tall --size "$size" -o "$work/tall.txt"
real "$bytes" "$work/real.txt"
real $((1 << 20)) "$work/real-1MiB.txt"
: >"$work/empty.txt"
f="$work/foreach"

same() {
	cmp -s <(eval "$1") <(eval "$2") || { echo "fromend.sh: '$1' and '$2' differ" >&2; exit 1; }
}
for c in tall real; do
	cat "$work/$c.txt" >/dev/null # into the page cache
	same "$f --reverse $work/$c.txt" "tac $work/$c.txt"
done
same "$f --last 10 $work/real.txt" "tail -n 10 $work/real.txt"
same "$f --last 10 $work/real-1MiB.txt" "tail -n 10 $work/real-1MiB.txt"

# row NAME COMMAND...: the commands timed by benchmarks/timeit.sh, ROUNDS x RUNS rounds
# in a rotated order (hyperfine beside every run), then a table: the rounds are taken RUNS
# at a time, as ROUNDS rounds of RUNS runs were before timeit.
row() {
	local name="$1"
	shift
	nrow=$((nrow + 1))
	timeit_row "$work/row$nrow" -rounds "$((rounds * runs))" "$@"
	echo
	echo "### $name"
	echo
	python3 - "$work/row$nrow.json" "$work" "$runs" <<'PY'
import json, statistics, sys
cmds, work, runs = json.load(open(sys.argv[1]))["commands"], sys.argv[2], int(sys.argv[3])
groups = lambda xs: [statistics.median(xs[i:i + runs]) for i in range(0, len(xs) - runs + 1, runs)]
walls = {c["command"]: [r["wall"] for r in c["runs"]] for c in cmds}
cpu = {c["command"]: [r["user"] + r["sys"] for r in c["runs"]] for c in cmds}
first = cmds[0]["command"]
short = lambda c: c.replace(work + "/", "").replace(".txt", "")
print(f"| command | median wall [ms] | vs `{short(first)}` [least–greatest round] | CPU user+sys [ms] | CPU vs `{short(first)}` |")
print("|:---|---:|---:|---:|---:|")
for c in walls:
    ratios = [m / b for m, b in zip(groups(walls[c]), groups(walls[first]))]
    spread = "" if c == first else f" [{min(ratios):.2f}–{max(ratios):.2f}]"
    cp, cp0 = statistics.median(cpu[c]), statistics.median(cpu[first])
    print(f"| `{short(c)}` | {statistics.median(walls[c])*1e3:.1f} | {statistics.median(ratios):.2f}×{spread} | {cp*1e3:.1f} | {cp/cp0:.2f}× |")
PY
	echo
	echo "Checked against hyperfine (every run timed by both; minor page faults, context switches):"
	echo
	sed "s|$work/||g" "$work/row$nrow.md"
}
nrow=0

report="$work/fromend.md"
{
	echo "# Reading from the end: --reverse, --last, NewBackward"
	echo
	echo "- Commit: $commit"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION); $(tac --version | head -n1), $(tail --version | head -n1)"
	echo "- Data, in the page cache: tall ($(wc -c <"$work/tall.txt") bytes, $(wc -l <"$work/tall.txt") lines), real ($(wc -c <"$work/real.txt") bytes, $(wc -l <"$work/real.txt") lines), real-1MiB ($(wc -c <"$work/real-1MiB.txt") bytes)"
	echo "- Command: \`SIZE=$size ROUNDS=$rounds RUNS=$runs${AGREE:+ AGREE=$AGREE} benchmarks/fromend.sh\`"
	echo "- $(timeit_note)"
	echo "- Load average (1, 5, 15 min) as the timing started: $(cut -d' ' -f1-3 /proc/loadavg), on $(nproc) cores"
	row "--reverse, tall" "tac $work/tall.txt" "$f --reverse $work/tall.txt"
	row "--reverse, real" "tac $work/real.txt" "$f --reverse $work/real.txt"
	row "--reverse, real, into a file" -output "$work/out.txt" -prepare "rm -f $work/out.txt" "tac $work/real.txt" "$f --reverse $work/real.txt"
	row "--last 10" "tail -n 10 $work/real.txt" "$f --last 10 $work/real.txt" "$f --last 10 $work/real-1MiB.txt" "$f --last 10 $work/empty.txt"
	echo
	echo "### NewBackward Views against forward Views (\`fromend -rounds $rounds\`)"
	"$work/fromend" -rounds "$rounds" "$work/tall.txt" "$work/real.txt" | sed "s|$work/||g"
	echo
	echo "- Load average as the timing ended: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$report"
cat "$report"
keep_results "$commit" "$report"
