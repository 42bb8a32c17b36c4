#!/usr/bin/env bash
# Times the foreach command against the tools it stands beside (benchmarks/timeit.sh), on two
# files in the page cache, and writes benchmarks/results/cli.md (the report) and
# benchmarks/results/cli.tsv (one line per case, foreach beside its tool: the picture's input, tools/plot),
# with a copy of each under benchmarks/results/history (cli-COMMIT.md, .tsv):
#
#   tall   go run ./testdata/gen --shape tall (many short lines), SIZE bytes
#   real   the Go distribution's .go files ($(go env GOROOT)/src/**/*.go, in path
#          order, again from the first when they run out) concatenated to SIZE bytes
#          and cut at the first line end past it: the recipe of internal/measure/contend/corpora.go
#
# and for each of them:
#
#   copy > /dev/null   foreach F      vs  cat F
#   copy > file        foreach F      vs  cat F       (the file removed before each run)
#   copy | pipe        foreach F      vs  cat F       (the timer reads the pipe)
#   numbering          foreach -n F   vs  cat -n F
#   counting           foreach -c F   vs  wc -l F     (and foreach -c -j1, one pass)
#
# and a source tree, the cost per file rather than per byte:
#
#   gotree  the same .go files where they are, each its own file (about 7,700 files of
#           12 KB on average, half of them under 5 KB), named in path order by
#           xargs -n 2000: the same batches for every command, 4 processes, as many
#           as xargs's default batches (128 KiB of arguments) make
#
#   copy > file        xargs foreach      vs  xargs cat
#   numbering          xargs foreach -n   vs  xargs cat -n
#   counting           xargs foreach -c   vs  xargs wc -l
#
# Before any timing, each foreach output is checked against its tool's, byte for byte.
# -c counts an unterminated last line and wc -l does not: over the Go tree, whose files
# include a few that end without a newline, wc -l's output is checked after one is
# added to such a file's count (and to its batch's total).
# Each row is timed by benchmarks/timeit.sh (benchmarks/cmd/timeit, hyperfine beside it:
# every run timed by both, their medians agreeing within AGREE, 10%, or the script stops):
# ROUNDS x RUNS rounds, each running every command once in an order rotated every round,
# so that a slow spell of a shared machine falls on all of them; the rounds are taken RUNS
# at a time as ROUNDS rounds. The report gives for each command the median wall time over
# all its runs, its ratio to the tool (the median of the rounds' ratios of medians, with
# their least and greatest), the CPU time (user + system of the process tree, from wait4,
# median), and each row's table as timeit gave it, hyperfine's figures beside.
#
# The command measured is built from the commit HEAD (git archive), so uncommitted
# changes are never measured; the report names that commit, the machine and its load.
# The script takes /tmp/foreach-bench.lock itself for the timing, so that two timing
# runs on one machine never overlap (run as `flock /tmp/foreach-bench.lock
# benchmarks/cli.sh`, it sees that the lock is its parent's and does not wait for it).
#
#   benchmarks/cli.sh                      # SIZE=256MiB ROUNDS=5 RUNS=5
#   ROUNDS=9 RUNS=5 benchmarks/cli.sh      # on a quiet machine, for the record
#   BASE=HEAD~3 benchmarks/cli.sh          # also the command of another commit
#   ROWS='real' benchmarks/cli.sh          # only the rows whose "corpus row" matches
#                                          # (printed; the results files are kept as they are)
#
# Needs hyperfine (apt-get install hyperfine), python3, GNU coreutils.
#   ROUNDS=1 RUNS=1 AGREE=9 SIZE=16MiB ROWS=real benchmarks/cli.sh   # that it works, on a busy machine
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh
. benchmarks/timeit.sh

timeit_lock "$@"

size="${SIZE:-256MiB}"
rounds="${ROUNDS:-5}"
runs="${RUNS:-5}"
rows="${ROWS:-}"
for tool in hyperfine python3; do
	command -v "$tool" >/dev/null || { echo "cli.sh: $tool is needed (apt-get install $tool)" >&2; exit 1; }
done
commit="$(git rev-parse --short=12 HEAD)"
if [ -n "$(git status --porcelain --untracked-files=no -- cmd linereader bytelist internal go.mod go.sum)" ]; then
	echo "cli.sh: note: uncommitted changes are not measured; the command is built from $commit" >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/src"
git archive HEAD | tar -x -C "$work/src"
(cd "$work/src" && go build -o "$work/foreach" ./cmd/foreach)
(cd "$work/src" && timeit_build "$work")
export TIMEIT="$work/timeit"
base=""
if [ -n "${BASE:-}" ]; then
	mkdir "$work/base"
	git archive "$BASE" | tar -x -C "$work/base"
	(cd "$work/base" && go build -o "$work/foreach-base" ./cmd/foreach)
	base="$(git rev-parse --short=12 "$BASE")"
fi

bytes="$(python3 -c "import re,sys; m=re.fullmatch(r'(\d+)(KiB|MiB|GiB)?', sys.argv[1]); print(int(m[1]) << {None:0,'KiB':10,'MiB':20,'GiB':30}[m[2]])" "$size")"
go run ./testdata/gen --shape tall --size "$size" -o "$work/tall.txt"
python3 - "$(go env GOROOT)/src" "$bytes" "$work/real.txt" <<'PY'
import os, sys
root, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = []
for d, dirs, files in os.walk(root):
    for f in files:
        p = os.path.join(d, f)
        if f.endswith(".go") and os.path.isfile(p) and not os.path.islink(p):
            names.append(p)
names.sort()
data, i = bytearray(), 0
while len(data) < size:
    b = open(names[i], "rb").read()
    data += b
    if b and not b.endswith(b"\n"):
        data += b"\n"
    i = (i + 1) % len(names)
end = data.find(b"\n", size - 1)
if end >= 0:
    data = data[:end + 1]
open(out, "wb").write(data)
PY
out="$work/out.txt"

# check NAME COMMAND... and TOOL...: the two print the same bytes.
same() {
	local a b
	a="$(mktemp -p "$work")" b="$(mktemp -p "$work")"
	eval "$1" >"$a"
	eval "$2" >"$b"
	cmp -s "$a" "$b" || { echo "cli.sh: '$1' and '$2' differ" >&2; exit 1; }
	rm -f "$a" "$b"
}
python3 - "$(go env GOROOT)/src" "$work/gotree.list" <<'PY'
import os, sys
root, out = sys.argv[1], sys.argv[2]
names = []
for d, dirs, files in os.walk(root):
    for f in files:
        p = os.path.join(d, f)
        if f.endswith(".go") and os.path.isfile(p) and not os.path.islink(p):
            names.append(p)
open(out, "w").write("".join(p + "\n" for p in sorted(names)))
PY
# gotree_wc: what foreach -c prints over the Go tree: wc -l's counts without their
# padding, one more for a file whose last line is unterminated, and so in its total.
gotree_wc() {
	xargs -d '\n' -n 2000 -a "$work/gotree.list" wc -l | python3 -c '
import sys
extra = 0
for line in sys.stdin:
    n, name = line.split(None, 1)
    name = name.rstrip("\n")
    n = int(n)
    if name == "total":
        n, extra = n + extra, 0
    else:
        data = open(name, "rb").read()
        if data and not data.endswith(b"\n"):
            n, extra = n + 1, extra + 1
    print(n, name)
'
}
gotree="xargs -d '\n' -n 2000 -a $work/gotree.list"
xargs -d '\n' -a "$work/gotree.list" cat >/dev/null # into the page cache
same "$gotree $work/foreach" "$gotree cat"
same "$gotree $work/foreach -n" "$gotree cat -n"
same "$gotree $work/foreach -c" "gotree_wc"
for f in "$work/tall.txt" "$work/real.txt"; do
	cat "$f" >/dev/null # into the page cache
	same "$work/foreach $f" "cat $f"
	same "$work/foreach $f | cat" "cat $f"
	same "$work/foreach -n $f" "cat -n $f"
	same "$work/foreach -c $f" "wc -l $f | sed 's/^ *//'"
	same "$work/foreach -c -j1 $f" "wc -l $f | sed 's/^ *//'"
done

# row CORPUS NAME OUTPUT COMMAND...: the commands (the first is the tool) timed by
# benchmarks/timeit.sh, ROUNDS x RUNS rounds, each running every command once in a rotated
# order (hyperfine beside every run), then one markdown table and its lines of cli.tsv:
# the rounds are taken RUNS at a time, as ROUNDS rounds of RUNS runs were before timeit.
row() {
	local corpus="$1" name="$2" output="$3" prepare=()
	shift 3
	if [ -n "$rows" ] && ! [[ "$corpus $name" =~ $rows ]]; then
		return
	fi
	case "$output" in
	null | pipe) ;;
	*) prepare=(-prepare "sh -c 'rm -f $output && sync'") ;;
	esac
	local id="row$((++nrow))"
	timeit_row "$work/$id" -rounds "$((rounds * runs))" -output "$output" "${prepare[@]}" "$@"
	echo
	echo "### $corpus: $name"
	echo
	python3 - "$work" "$id" "$corpus" "$name" "$runs" "$work/cli.tsv" <<'PY'
import json, statistics, sys
work, id, corpus, name, runs, tsv = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
cmds = json.load(open(f"{work}/{id}.json"))["commands"]
# The medians of each group of RUNS consecutive rounds: what a round of RUNS runs gave.
groups = lambda xs: [statistics.median(xs[i:i + runs]) for i in range(0, len(xs) - runs + 1, runs)]
walls = {c["command"]: [r["wall"] for r in c["runs"]] for c in cmds}
cpu = {c["command"]: [r["user"] + r["sys"] for r in c["runs"]] for c in cmds}
tool = cmds[0]["command"]
order = [tool] + sorted((c["command"] for c in cmds[1:]), key=lambda c: c.split()[0].endswith("-base"))
short = lambda c: c.replace(work + "/", "").replace(".txt", "").replace("xargs -d '\\n' -n 2000 -a gotree.list", "xargs")
print(f"| command | median wall [ms] | min–max [ms] | vs `{short(tool)}` [least–greatest round] | CPU user+sys [ms] |")
print("|:---|---:|---:|---:|---:|")
with open(tsv, "a") as out:
    for c in order:
        t = walls[c]
        ratios = [m / b for m, b in zip(groups(t), groups(walls[tool]))]
        ratio = statistics.median(ratios)
        spread = "" if c == tool else f" [{min(ratios):.2f}–{max(ratios):.2f}]"
        cp = statistics.median(cpu[c])
        print(f"| `{short(c)}` | {statistics.median(t)*1e3:.1f} | {min(t)*1e3:.1f}–{max(t)*1e3:.1f} | {ratio:.2f}×{spread} | {cp*1e3:.1f} |")
        out.write(f"{corpus}\t{name}\t{short(c)}\t{statistics.median(t):.6f}\t{ratio:.4f}\t{min(ratios):.4f}\t{max(ratios):.4f}\t{cp:.6f}\n")
PY
	echo
	echo "Checked against hyperfine (every run timed by both; minor page faults, context switches):"
	echo
	sed "s|$work/||g; s|xargs -d '\\\\n' -n 2000 -a gotree.list|xargs|g" "$work/$id.md"
}

nrow=0
printf 'corpus\trow\tcommand\twall_s\tratio\tratio_least\tratio_greatest\tcpu_s\n' >"$work/cli.tsv"
load="$(cut -d' ' -f1-3 /proc/loadavg)"
report="$work/cli.md"
{
	echo "# The foreach command against cat, cat -n and wc -l"
	echo
	echo "- Commit: $commit$([ -n "$base" ] && echo ", and foreach-base built from $base")"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION); $(cat --version | head -n1), $(wc --version | head -n1 | sed 's/.*) //')"
	echo "- Data, in the page cache: tall, \`go run ./testdata/gen --shape tall --size $size\` ($(wc -c <"$work/tall.txt") bytes, $(wc -l <"$work/tall.txt") lines); real, the Go distribution's .go files concatenated ($(wc -c <"$work/real.txt") bytes, $(wc -l <"$work/real.txt") lines); gotree, the same .go files where they are ($(wc -l <"$work/gotree.list") files, $(xargs -d '\n' -a "$work/gotree.list" cat | wc -c) bytes), named by \`xargs -d '\\n' -n 2000\` in path order"
	echo "- Command: \`SIZE=$size ROUNDS=$rounds RUNS=$runs${rows:+ ROWS='$rows'}${BASE:+ BASE=$BASE} benchmarks/cli.sh\`${AGREE:+ (AGREE=$AGREE)}: $rounds rounds of $runs runs per command (after one warm-up run); wall: median over all runs; ratio: median of the rounds' ratios of medians [least–greatest]; CPU: user + system of the process tree, median. Outputs checked against the tools' before timing."
	echo "- $(timeit_note)"
	echo "- Load average (1, 5, 15 min): $load as the timing started, on $(nproc) cores (the script's own build and corpora count in it)"
	for corpus in tall real; do
		f="$work/$corpus.txt"
		row "$corpus" "copy > /dev/null" null "cat $f" "$work/foreach $f" ${base:+"$work/foreach-base $f"}
		row "$corpus" "copy > file" "$out" "cat $f" "$work/foreach $f" ${base:+"$work/foreach-base $f"}
		row "$corpus" "copy | pipe" pipe "cat $f" "$work/foreach $f" ${base:+"$work/foreach-base $f"}
		row "$corpus" "numbering" null "cat -n $f" "$work/foreach -n $f" ${base:+"$work/foreach-base -n $f"}
		row "$corpus" "counting" null "wc -l $f" "$work/foreach -c $f" "$work/foreach -c -j1 $f" ${base:+"$work/foreach-base -c $f"}
	done
	row gotree "copy > file" "$out" "$gotree cat" "$gotree $work/foreach" ${base:+"$gotree $work/foreach-base"}
	row gotree "numbering" null "$gotree cat -n" "$gotree $work/foreach -n" ${base:+"$gotree $work/foreach-base -n"}
	row gotree "counting" null "$gotree wc -l" "$gotree $work/foreach -c" "$gotree $work/foreach -c -j1" ${base:+"$gotree $work/foreach-base -c"}
	echo
	echo "- Load average as the timing ended: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$report"
if [ -n "$rows" ]; then
	# Some rows only: printed, not kept, so that the results stay one whole run.
	cat "$report"
	exit
fi
# The picture's input (tools/plot): one line per case, foreach and the tool it stands
# beside, with the goals of the issue that set them.
python3 - "$work/cli.tsv" "$work/plot.tsv" "$commit" <<'PY'
import csv, sys
src, dst, commit = sys.argv[1], sys.argv[2], sys.argv[3]
rows = list(csv.DictReader(open(src), delimiter="\t"))
suffix = {"copy > /dev/null": " > /dev/null", "copy > file": " > file", "copy | pipe": " | pipe"}
goals = {("copy > file", "tall"): "1.05", ("copy > file", "real"): "1.05",
         ("numbering", "real"): "0.8", ("counting", "real"): "0.55",
         ("copy > file", "gotree"): "1.1", ("numbering", "gotree"): "1.1", ("counting", "gotree"): "1.0"}
# The command without its files: the last word, or over the Go tree the xargs that names them.
bare = lambda r: r["command"].removeprefix("xargs ") if r["corpus"] == "gotree" else r["command"].rsplit(" ", 1)[0]
with open(dst, "w") as out:
    out.write(f"# benchmarks/cli.sh at {commit}: medians of the rounds (see cli.md)\n")
    out.write("foreach\ttool\tdata\tforeach_s\ttool_s\tgoal\tforeach_cpu_s\ttool_cpu_s\tratio\tratio_least\tratio_greatest\n")
    tool = None
    for r in rows:
        cmd = bare(r)
        if r["ratio"] == "1.0000" and not cmd.startswith("foreach"):
            tool = r
            continue
        sfx = suffix.get(r["row"], "")
        goal = goals.get((r["row"], r["corpus"]), "-") if cmd in ("foreach", "foreach -n", "foreach -c") else "-"
        tcmd = bare(tool)
        out.write("\t".join([cmd + sfx, tcmd + sfx, r["corpus"], r["wall_s"], tool["wall_s"], goal,
                             r["cpu_s"], tool["cpu_s"], r["ratio"], r["ratio_least"], r["ratio_greatest"]]) + "\n")
PY
cat "$report"
keep_results "$commit" "$report" "$work/plot.tsv"
