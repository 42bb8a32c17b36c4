#!/usr/bin/env bash
# Times block-parallel decoding (internal/blockz) on real text: the Go distribution's .go
# files concatenated to 128 MiB (contend.MakeFile's "real"), compressed by each format's
# parallel tool (bgzip -@2, lbzip2 -n 2, pzstd -p 2, xz -T2; lz4, whose blocks are
# independent by default), and writes benchmarks/results/blocks.md (and a copy per commit
# in benchmarks/results/history/blocks-COMMIT.md, benchmarks/keep.sh):
#
#   1. counting the lines of each file, as whole processes: the tool into wc -l
#      (`TOOL -dc F | wc -l`, with two threads and with one), and benchmarks/cmd/blocksbench
#      with the sequential reader (internal/decompress, what foreach -z reads with today)
#      and with blockz's Reader with 1 and 2 workers; ROUNDS rounds, the contenders in
#      another order every round (rotated), after one untimed run of each that also checks
#      that all count the same lines. Wall and CPU time (user+sys of the process tree, from
#      wait4); the table gives medians and the median of the per-round ratios;
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
#
# Needs bgzip, lbzip2, pzstd, xz, lz4 and python3. A tree with uncommitted changes under
# internal/blockz, internal/bzblock, internal/decompress or benchmarks/cmd/blocksbench is
# measured as COMMIT+changes.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

rounds="${ROUNDS:-5}"
lock="${LOCK-/tmp/foreach-bench.lock}"
formats="${ONLY:-bgz lbz2 pzst xz lz4}"
for tool in bgzip lbzip2 pzstd xz lz4 python3; do
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
python3 - "$work" "$rounds" $formats >"$work/runs.json" <<'PY'
import json, os, subprocess, sys, time

work, rounds, formats = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
tools = {
    "bgz": ("bgzip -@2 -dc", "bgzip -dc"),
    "lbz2": ("lbzip2 -n 2 -dc", "lbzip2 -n 1 -dc"),
    "pzst": ("pzstd -q -p 2 -dc", "pzstd -q -p 1 -dc"),
    "xz": ("xz -T2 -dc", "xz -T1 -dc"),
    "lz4": ("lz4 -q -dc", None),
}

def run(argv):
    """Runs argv, its output thrown away; returns wall and CPU seconds of the process tree."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"blocks.sh: {argv} failed")
    return wall, ru.ru_utime + ru.ru_stime

def lines(argv):
    out = subprocess.run(argv, capture_output=True, check=True, text=True).stdout.split()
    return int(out[1] if argv[0].endswith("blocksbench") else out[0])

for ext in formats:
    f = f"{work}/real.{ext}"
    two, one = tools[ext]
    cs = [("tool", ["sh", "-c", f"{two} {f} | wc -l"])]
    if one:
        cs.append(("tool-1", ["sh", "-c", f"{one} {f} | wc -l"]))
    for w in ("seq", "1", "2"):
        cs.append((w, [f"{work}/blocksbench", "-once", "-workers", w, f]))
    counts = {name: lines(argv) for name, argv in cs}
    if len(set(counts.values())) != 1:
        sys.exit(f"blocks.sh: {f}: the contenders count different lines: {counts}")
    runs = {name: [] for name, _ in cs}
    for i in range(rounds):
        order = cs[i % len(cs):] + cs[:i % len(cs)]
        for name, argv in order:
            runs[name].append(run(argv))
    pieces = subprocess.run([f"{work}/blocksbench", "-pieces", f], capture_output=True, check=True, text=True).stdout
    print(json.dumps({"ext": ext, "tool": two, "tool1": one, "lines": counts["seq"], "runs": runs,
                      "size": os.path.getsize(f), "pieces": pieces}))
PY
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
	echo "- Command: \`benchmarks/blocks.sh\` (ROUNDS=$rounds)"
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
} >"$out"
keep_results "$commit" "$out"
