#!/usr/bin/env bash
# Times the foreach command against the tools a person would otherwise use, with
# hyperfine, on one generated tall file in the page cache, and writes
# benchmarks/results/cli.md:
#
#   plain copy    foreach F      vs  cat F
#   numbering     foreach -n F   vs  cat -n F
#   counting      foreach -c F   vs  wc -l F      (and foreach -c -j1, one pass)
#
# Every contender runs in each of ROUNDS rounds (hyperfine, RUNS runs each, in turn), so
# that a slow spell of a shared machine hits all of them; the table gives the median wall
# time over all runs, the median's ratio to the reference tool, and the CPU time
# (user+sys, hyperfine's means over the rounds). Output goes to /dev/null. The commit
# measured is named; a tree with uncommitted changes is refused unless DIRTY=1.
# BASE=REV also times the command built from REV, side by side (e.g. the commit before
# a change). Ruby's IO.foreach and Python's for-line loop are timed when present.
#
#   benchmarks/cli.sh                         # SIZE=256MiB ROUNDS=5 RUNS=5
#   BASE=HEAD~3 benchmarks/cli.sh
#
# Needs hyperfine (apt-get install hyperfine) and python3. Run it under
# flock /tmp/foreach-bench.lock on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."

size="${SIZE:-256MiB}"
rounds="${ROUNDS:-5}"
runs="${RUNS:-5}"
command -v hyperfine >/dev/null || { echo "cli.sh: hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "cli.sh: python3 is needed" >&2; exit 1; }
if [ -n "$(git status --porcelain --untracked-files=no -- cmd linereader bytelist go.mod go.sum)" ] && [ "${DIRTY:-0}" != 1 ]; then
	echo "cli.sh: uncommitted changes in the command or the library; commit them (or DIRTY=1)" >&2
	exit 1
fi
commit="$(git rev-parse --short HEAD)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/foreach" ./cmd/foreach
base=()
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base"
	git archive "$BASE" | tar -x -C "$work/base"
	(cd "$work/base" && go build -o "$work/foreach-base" ./cmd/foreach)
	base=(1)
fi
go run ./testdata/gen --shape tall --size "$size" -o "$work/tall.txt"
f="$work/tall.txt"
cat "$f" >/dev/null # into the page cache

# bench NAME REFERENCE COMMAND...: ROUNDS rounds of hyperfine over the commands, then
# one markdown table from all the runs.
bench() {
	local name="$1"
	shift
	for r in $(seq "$rounds"); do
		hyperfine -N -w 1 -r "$runs" --output=null --export-json "$work/$name.$r.json" "$@" >/dev/null
	done
	python3 - "$work" "$name" "$rounds" <<'PY'
import json, statistics, sys
work, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
times, cpu, order = {}, {}, []
for r in range(1, rounds + 1):
    for res in json.load(open(f"{work}/{name}.{r}.json"))["results"]:
        c = res["command"].replace(work + "/", "")
        if c not in times:
            order.append(c)
            times[c], cpu[c] = [], []
        times[c] += res["times"]
        cpu[c].append(res["user"] + res["system"])
ref = statistics.median(times[order[0]])
print("| command | median wall [ms] | min–max [ms] | vs " + order[0].split()[0] + " | CPU user+sys [ms] |")
print("|:---|---:|---:|---:|---:|")
for c in order:
    t = times[c]
    m = statistics.median(t)
    print(f"| `{c}` | {m*1e3:.1f} | {min(t)*1e3:.1f}–{max(t)*1e3:.1f} | {m/ref:.2f}× | {statistics.mean(cpu[c])*1e3:.1f} |")
PY
}

others=()
command -v ruby >/dev/null && others+=("ruby -e 'IO.foreach(ARGV[0]){}' $f")
if command -v python3 >/dev/null; then
	printf 'import sys\nfor line in open(sys.argv[1], "rb"):\n    pass\n' >"$work/read.py"
	others+=("python3 $work/read.py $f")
fi

out=benchmarks/results/cli.md
mkdir -p benchmarks/results
{
	echo "# The foreach command against cat, cat -n and wc -l"
	echo
	echo "- Commit: $commit$( [ -n "${BASE:-}" ] && echo ", and foreach-base built from $(git rev-parse --short "$BASE")")"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION); $(cat --version | head -n1)"
	echo "- Data: \`go run ./testdata/gen --shape tall --size $size\` ($(wc -c <"$f") bytes, $(wc -l <"$f") lines), in the page cache; output to /dev/null"
	echo "- Command: \`benchmarks/cli.sh\` (hyperfine: $rounds rounds of $runs runs per command, the commands in turn within each round; median over all runs)"
	echo "- Load average (1, 5, 15 min) as the timing starts: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
	echo
	echo "## Plain copy: foreach FILE vs cat FILE"
	echo
	bench copy "cat $f" "$work/foreach $f" ${base:+"$work/foreach-base $f"}
	echo
	echo "## Numbering: foreach -n vs cat -n"
	echo
	bench number "cat -n $f" "$work/foreach -n $f" ${base:+"$work/foreach-base -n $f"}
	echo
	echo "## Counting: foreach -c vs wc -l"
	echo
	bench count "wc -l $f" "$work/foreach -c $f" "$work/foreach -c -j1 $f" ${base:+"$work/foreach-base -c $f"}
	if [ ${#others[@]} -gt 0 ]; then
		echo
		echo "## Reading every line: foreach vs Ruby's IO.foreach and Python's for line in f"
		echo
		rounds=1 runs=3 bench langs "$work/foreach -n $f" "${others[@]}"
	fi
} >"$out"
cat "$out"
