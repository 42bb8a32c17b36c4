#!/usr/bin/env bash
# Times block-parallel decoding (internal/blockz) on real text: the Go distribution's .go
# files concatenated to 128 MiB (contend.MakeFile's "real"), compressed by each format's
# parallel tool (bgzip -@2, lbzip2 -n 2, pzstd -p 2, xz -T2; lz4, whose blocks are
# independent by default), and writes benchmarks/results/blocks.md (and a copy per commit
# in benchmarks/results/history/blocks-COMMIT.md, benchmarks/keep.sh):
#
#   1. counting the lines of each file, as whole processes: the tool into wc -l
#      (`bash -c 'TOOL -dc F | wc -l'`, with two threads and with one), and
#      benchmarks/cmd/blocksbench with the sequential reader (internal/decompress, what
#      foreach -z reads with today) and with blockz's Reader with 1 and 2 workers; timed
#      by benchmarks/timeit.sh (benchmarks/cmd/timeit: ROUNDS rounds, the contenders in an
#      order rotated every round, after one untimed run of each; wall and CPU time, user+sys
#      of the process tree from wait4; hyperfine times every run too and the two must agree
#      within AGREE, 10%, or the script stops), after a check that all count the same
#      lines; the table gives medians and the median of the per-round ratios, and the
#      report every row as timeit gave it, hyperfine's figures beside;
#   2. what the parallel decoding is made of (blocksbench -pieces): the scan of the
#      structure, each piece decoded alone, and the reading goroutine's work per byte; from
#      these, the time 8 and 32 workers would take if the pieces' costs stayed as measured
#      (in-order list scheduling of the measured pieces), and what stays sequential.
#
# The files are made outside the lock and kept in WORK when it is set (made again only when
# missing). The timings run under flock LOCK (default /tmp/foreach-bench.lock; LOCK= for
# none); the load average before and after is written with the figures, since other work
# on a shared machine is not kept out by the lock.
#
#   benchmarks/blocks.sh                           # ROUNDS=5
#   WORK=/tmp/blocks ROUNDS=9 benchmarks/blocks.sh # keep the files; more rounds
#   ONLY="bgz pzst" benchmarks/blocks.sh           # some formats: bgz lbz2 pzst xz lz4
#   ROUNDS=1 AGREE=9 ONLY=lz4 benchmarks/blocks.sh  # that it works, on a busy machine
#
# Needs bgzip, lbzip2, pzstd, xz, lz4, hyperfine and python3. A tree with uncommitted changes under
# internal/blockz, internal/bzblock, internal/decompress or benchmarks/cmd/blocksbench is
# measured as COMMIT+changes.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh
. benchmarks/timeit.sh

rounds="${ROUNDS:-5}"
lock="${LOCK-/tmp/foreach-bench.lock}"
formats="${ONLY:-bgz lbz2 pzst xz lz4}"
for tool in bgzip lbzip2 pzstd xz lz4 hyperfine python3; do
	command -v "$tool" >/dev/null || { echo "blocks.sh: $tool is needed" >&2; exit 1; }
done

if [ -n "${WORK:-}" ]; then
	work="$WORK"
	mkdir -p "$work"
else
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
go build -o "$work/blocksbench" ./benchmarks/cmd/blocksbench
timeit_build "$work"
commit="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- internal/blockz internal/bzblock internal/decompress benchmarks/cmd/blocksbench go.mod ||
	commit="$commit+changes"

# The files, made (and put in the page cache) before anything is timed.
[ -s "$work/real.txt" ] || "$work/blocksbench" -make "$work" >/dev/null
compress_once() { # compress_once EXT COMMAND...: $work/real.EXT from real.txt, unless it is there
	local ext="$1"
	shift
	[ -s "$work/real.$ext" ] || "$@" <"$work/real.txt" >"$work/real.$ext"
}
compress_once bgz bgzip -@2 -c
compress_once lbz2 lbzip2 -n 2 -c
compress_once pzst pzstd -q -p 2 -c
compress_once xz xz -T2 -c
compress_once lz4 lz4 -q -c
cat "$work"/real.* >/dev/null

load() { cut -d' ' -f1-3 /proc/loadavg; }

if [ -n "$lock" ]; then
	exec 9>"$lock"
	flock 9
fi
load_before="$(load)"
: >"$work/runs.json"
declare -A two=([bgz]="bgzip -@2 -dc" [lbz2]="lbzip2 -n 2 -dc" [pzst]="pzstd -q -p 2 -dc" [xz]="xz -T2 -dc" [lz4]="lz4 -q -dc")
declare -A one=([bgz]="bgzip -dc" [lbz2]="lbzip2 -n 1 -dc" [pzst]="pzstd -q -p 1 -dc" [xz]="xz -T1 -dc" [lz4]="")
for ext in $formats; do
	f="$work/real.$ext"
	names=tool cmds=("bash -c '${two[$ext]} $f | wc -l'")
	if [ -n "${one[$ext]}" ]; then
		names+=,tool-1 cmds+=("bash -c '${one[$ext]} $f | wc -l'")
	fi
	for w in seq 1 2; do
		names+=,$w cmds+=("$work/blocksbench -once -workers $w $f")
	done
	# Every contender counts the same lines (blocksbench prints "NAME LINES BYTES ...").
	counts=""
	for c in "${cmds[@]}"; do
		out="$(eval "$c")"
		case "$c" in *blocksbench*) out="$(echo "$out" | awk '{print $2}')" ;; esac
		counts+="$out "
	done
	if [ "$(echo $counts | tr ' ' '\n' | sort -u | wc -l)" != 1 ]; then
		echo "blocks.sh: $f: the contenders count different lines: $counts" >&2
		exit 1
	fi
	timeit_row "$work/$ext" -names "$names" "${cmds[@]}"
	"$work/blocksbench" -pieces "$f" >"$work/$ext.pieces"
	python3 - "$work" "$ext" "${two[$ext]}" "${one[$ext]}" "${counts%% *}" >>"$work/runs.json" <<'PY'
import json, os, sys
work, ext, two, one, lines = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] or None, int(sys.argv[5])
t = json.load(open(f"{work}/{ext}.json"))
runs = {c["name"]: [(r["wall"], r["user"] + r["sys"]) for r in c["runs"]] for c in t["commands"]}
f = f"{work}/real.{ext}"
print(json.dumps({"ext": ext, "tool": two, "tool1": one, "lines": lines, "runs": runs,
                  "size": os.path.getsize(f), "pieces": open(f"{work}/{ext}.pieces").read()}))
PY
done
load_after="$(load)"
if [ -n "$lock" ]; then
	flock -u 9
fi

out="$work/blocks.md"
{
	echo "# Block-parallel decoding: internal/blockz against the formats' parallel tools"
	echo
	echo "- Commit measured: $commit"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION)"
	echo "- Load average (1, 5, 15 min) before the timings: $load_before; after: $load_after"
	echo "- Tools: $(bgzip --version | head -1), lbzip2 $(lbzip2 --version 2>&1 | grep -o 'version [0-9.]*' | head -1 | cut -d' ' -f2), pzstd $(pzstd --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1), $(xz --version | head -1), lz4 $(lz4 --version 2>&1 | grep -o 'v[0-9.]*' | head -1)"
	echo "- Data: real.txt, the Go distribution's .go files concatenated in path order to 128 MiB, compressed by \`bgzip -@2\`, \`lbzip2 -n 2\`, \`pzstd -p 2\`, \`xz -T2\` (blocks of 24 MiB at its default level) and \`lz4\` (independent blocks of 4 MiB), in the page cache"
	echo "- Command: \`ROUNDS=$rounds${AGREE:+ AGREE=$AGREE}${ONLY:+ ONLY='$ONLY'} benchmarks/blocks.sh\`"
	echo "- $(timeit_note)"
	echo
	python3 - "$work/runs.json" <<'PY'
import json, statistics, sys

goals = {"bgz": 0.9, "lbz2": 1.0, "pzst": 0.9, "xz": 2.0}
rows = [json.loads(l) for l in open(sys.argv[1])]
med = lambda xs: statistics.median(xs) * 1e3
ratio = lambda a, b: statistics.median(x[0] / y[0] for x, y in zip(a, b))

print("## Counting lines: wall and CPU time\n")
print("Medians of whole-process runs; CPU is user+sys of the process tree (for a pipeline: the shell,")
print("the tool and wc). *seq* is the sequential reader of internal/decompress (foreach -z's today),")
print("*1* and *2* blockz's Reader with 1 and 2 workers; each counts the lines in the reading goroutine.\n")
print("| File | Bytes | Contender | wall [ms] | CPU [ms] |")
print("|:---|---:|:---|---:|---:|")
for r in rows:
    names = {"tool": f"`{r['tool']} \\| wc -l`", "tool-1": f"`{r['tool1']} \\| wc -l`",
             "seq": "sequential (decompress)", "1": "blockz, 1 worker", "2": "blockz, 2 workers"}
    for k, runs in r["runs"].items():
        print(f"| real.{r['ext']} | {r['size']} | {names[k]} | {med([x[0] for x in runs]):.0f} | {med([x[1] for x in runs]):.0f} |")

print("\n## The goals (median of per-round ratios of wall times)\n")
print("| File | blockz (2 workers) / the tool with two threads | goal | speed-up of 2 workers over sequential | over 1 worker | goal (speed-up over sequential) |")
print("|:---|---:|:---|---:|---:|:---|")
for r in rows:
    ru = r["runs"]
    vs_tool = ratio(ru["2"], ru["tool"])
    speed = 1 / ratio(ru["2"], ru["seq"])
    scale = 1 / ratio(ru["2"], ru["1"])
    g = goals.get(r["ext"])
    goal = f"≤ {g:.1f}×: {'met' if vs_tool <= g else 'not met'}" if g else ""
    print(f"| real.{r['ext']} | {vs_tool:.2f}× | {goal} | {speed:.2f}× | {scale:.2f}× | ≥ 1.8×: {'met' if speed >= 1.8 else 'not met'} |")

print("\n## What the parallel decoding is made of, and more cores on paper\n")
print("Each piece decoded alone in one goroutine (blocksbench -pieces); the scan of the structure")
print("(done as the Reader goes, in the reading goroutine); what the reading goroutine does per byte")
print("(copying it out of a job's buffer and counting its lines). *N workers* is the makespan of")
print("the measured pieces given in order to the first free of N workers, or the reading goroutine's")
print("share (scan + per-byte work) when that is longer: what N cores would give if a piece cost")
print("what it costs alone (memory bandwidth and the shared cache will take some of it).\n")
print("| File | pieces | largest piece [ms] | all pieces [ms] | scan [ms] | reading goroutine [ms] | 1 worker [ms] | 2 | 8 | 32 | the bound at 32 |")
print("|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|")
for r in rows:
    costs, scan, consume = [], 0.0, 0.0
    for line in r["pieces"].splitlines():
        f = line.split()
        if f[0] == "piece":
            costs.append(float(f[3]))
        elif f[0] == "scan":
            scan = float(f[1])
        elif f[0] == "consume":
            consume = float(f[1])
    def makespan(n):
        free = [0.0] * n
        for c in costs:
            i = free.index(min(free))
            free[i] += c
        return max(free)
    seqpart = scan + consume
    est = {n: max(makespan(n), seqpart) for n in (1, 2, 8, 32)}
    bound = "the reading goroutine" if seqpart >= makespan(32) else ("the largest piece" if max(costs) >= makespan(32) * 0.99 else "the pieces")
    print(f"| real.{r['ext']} | {len(costs)} | {max(costs):.0f} | {sum(costs):.0f} | {scan:.0f} | {consume:.0f} | "
          f"{est[1]:.0f} | {est[2]:.0f} | {est[8]:.0f} | {est[32]:.0f} | {bound} |")
PY
	echo
	echo "## Checked against hyperfine"
	echo
	echo "Every file's row as timeit reported it, with hyperfine's timing of the same commands"
	echo "(\`hyperfine -N -r 1\` right after each of timeit's runs), minor page faults and context"
	echo "switches (medians):"
	for ext in $formats; do
		echo
		echo "### real.$ext"
		echo
		sed "s|$work/||g" "$work/$ext.md"
	done
} >"$out"
keep_results "$commit" "$out"
