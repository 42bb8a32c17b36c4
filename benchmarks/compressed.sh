#!/usr/bin/env bash
# Times the command on compressed files read as internal/ztext says they allow (issues 39
# and 40): real text (the Go distribution's .go files concatenated to 128 MiB, blocksbench
# -make's real.txt), as whole processes, and writes benchmarks/results/compressed.md (and
# a copy per commit in benchmarks/results/history/, benchmarks/keep.sh):
#
#   1. `foreach -z -c` of the 128 MiB .gz (gzip -6) with its index (`foreach --index`), on
#      2 cores, against `igzip -dc | wc -l` (goal: <= 0.6x) and the sequential read
#      (`-j 1`, and the same file without an index);
#   2. `foreach -z --last 10` through the index of the 128 MiB .gz against that of a 1 MiB
#      .gz (its first MiB of text, indexed too) (goal: <= 2x);
#   3. `foreach --index` (a decode that records access points) against a plain decode
#      (`foreach -z -c -j 1` of the file without an index) (goal: <= 1.1x), and the index's
#      size against the .gz's (goal: <= 2%);
#   4. each block format's `foreach -z -c` (2 workers) against its tool with two threads
#      (`bgzip -@2`, `lbzip2 -n 2`, `pzstd -p 2`, `xz -T2`, each `-dc | wc -l`) and
#      against `foreach -z -c -j 1` (its sequential decode) (goal: >= 1.8x);
#   5. with SWEEP=1, exactness: benchmarks/zindex-sweep.sh (every .gz of the machine read
#      through an index against gzip -dc), its summary line recorded.
#
# Every command is timed by benchmarks/timeit.sh (benchmarks/cmd/timeit): a whole process,
# a tool's pipeline run as `bash -c 'TOOL -dc F | wc -l'`; ROUNDS rounds after one untimed
# run of each, the contenders of a row in an order rotated every round, wall and CPU time
# (user+sys of the process tree, from wait4), medians and medians of the per-round ratios.
# hyperfine times every run too, and the two must agree within AGREE (10%) for every
# command, or the script stops and keeps nothing; the report gives both. The outputs of
# a row's contenders are checked equal before the timing. A row "pipe" times igzip's
# pipeline beside its decode into /dev/null and beside the pipeline on one core: what the
# pipe costs the tool (docs/performance.md, "Timing a tool"). The files are made outside
# the lock and kept in WORK when it is set. The timings run under flock LOCK (default
# /tmp/foreach-bench.lock; LOCK= for none); the load average before and after is written
# with the figures, since the lock does not keep other work off the machine.
#
#   benchmarks/compressed.sh                           # ROUNDS=5
#   WORK=/tmp/compressed ROUNDS=9 benchmarks/compressed.sh
#   ROUNDS=1 AGREE=0.5 benchmarks/compressed.sh        # that it works, on a busy machine
#
# Needs igzip, gzip, bgzip, lbzip2, pzstd, xz, hyperfine, taskset and python3. A tree with
# uncommitted changes is measured as COMMIT+changes.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh
. benchmarks/timeit.sh

rounds="${ROUNDS:-5}"
lock="${LOCK-/tmp/foreach-bench.lock}"
for tool in igzip gzip bgzip lbzip2 pzstd xz hyperfine taskset python3; do
	command -v "$tool" >/dev/null || { echo "compressed.sh: $tool is needed" >&2; exit 1; }
done
if [ -n "${WORK:-}" ]; then
	work="$WORK"
	mkdir -p "$work"
else
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
go build -o "$work/blocksbench" ./benchmarks/cmd/blocksbench
go build -o "$work/foreach" ./cmd/foreach
timeit_build "$work"
commit="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- . ':!benchmarks/results' || commit="$commit+changes"

# The files, made (and put in the page cache) before anything is timed.
[ -s "$work/real.txt" ] || "$work/blocksbench" -make "$work" >/dev/null
compress_once() { # compress_once EXT COMMAND...: $work/real.EXT from real.txt, unless it is there
	local ext="$1"
	shift
	[ -s "$work/real.$ext" ] || "$@" <"$work/real.txt" >"$work/real.$ext"
}
compress_once gz gzip -6 -c
compress_once bgz bgzip -@2 -c
compress_once lbz2 lbzip2 -n 2 -c
compress_once pzst pzstd -q -p 2 -c
compress_once xz xz -T2 -c
[ -s "$work/small.gz" ] || head -c 1048576 "$work/real.txt" | sed '$d' | gzip -6 -c >"$work/small.gz"
ln -f "$work/real.gz" "$work/noindex.gz" # the same file under a name without an index
ln -f "$work/real.gz" "$work/build.gz"   # the one --index writes for, its index removed each run
"$work/foreach" --index "$work/real.gz" "$work/small.gz"
cat "$work"/real.* "$work"/small.gz* >/dev/null

load() { cut -d' ' -f1-3 /proc/loadavg; }

# same ROW CMD...: the commands (each run by bash) print the same first word: the count.
same() {
	local row=$1 first="" c got
	shift
	for c in "$@"; do
		got="$(bash -c "$c" | awk '{print $1; exit}')"
		if [ -z "$first" ]; then
			first=$got
		elif [ "$got" != "$first" ]; then
			echo "compressed.sh: $row: '$c' counts $got, '$1' $first" >&2
			exit 1
		fi
	done
}
fe="$work/foreach"
gz="$work/real.gz"
same count "$fe -z -c -j 2 $gz" "igzip -dc $gz | wc -l" "$fe -z -c -j 1 $gz" "$fe -z -c -j 2 $work/noindex.gz"
declare -A tools=([bgz]="bgzip -@2 -dc" [lbz2]="lbzip2 -n 2 -dc" [pzst]="pzstd -q -p 2 -dc" [xz]="xz -T2 -dc")
for ext in bgz lbz2 pzst xz; do
	same "$ext" "$fe -z -c -j 2 $work/real.$ext" "${tools[$ext]} $work/real.$ext | wc -l" "$fe -z -c -j 1 $work/real.$ext"
done

if [ -n "$lock" ]; then
	exec 9>"$lock"
	flock 9
fi
load_before="$(load)"
timeit_row "$work/count" -names foreach,igzip,seq,noindex \
	"$fe -z -c -j 2 $gz" "bash -c 'igzip -dc $gz | wc -l'" "$fe -z -c -j 1 $gz" "$fe -z -c -j 2 $work/noindex.gz"
# The pipe's share of the tool's time: the same decode into /dev/null, and the pipeline
# with both of its processes on one core (no wake-up crosses cores).
timeit_row "$work/pipe" -names "igzip into wc -l,igzip into /dev/null,igzip into wc -l on one core" \
	"bash -c 'igzip -dc $gz | wc -l'" "bash -c 'igzip -dc $gz >/dev/null'" "taskset -c 0 bash -c 'igzip -dc $gz | wc -l'"
timeit_row "$work/last" -rounds "$((10 * rounds))" -names big,small "$fe -z --last 10 $gz" "$fe -z --last 10 $work/small.gz"
timeit_row "$work/index" -names build,decode -prepare "rm -f $work/build.gz.zidx" \
	"$fe --index $work/build.gz" "$fe -z -c -j 1 $work/noindex.gz"
for ext in bgz lbz2 pzst xz; do
	f="$work/real.$ext"
	timeit_row "$work/$ext" -names foreach,tool,seq "$fe -z -c -j 2 $f" "bash -c '${tools[$ext]} $f | wc -l'" "$fe -z -c -j 1 $f"
done
load_after="$(load)"
if [ -n "$lock" ]; then
	flock -u 9
fi
python3 - "$work" "${tools[bgz]}" "${tools[lbz2]}" "${tools[pzst]}" "${tools[xz]}" >"$work/runs.json" <<'PY'
import json, os, sys

work, tools = sys.argv[1], dict(zip(("bgz", "lbz2", "pzst", "xz"), sys.argv[2:]))
for row in ["count", "pipe", "last", "index"] + list(tools):
    t = json.load(open(f"{work}/{row}.json"))
    runs = {c["name"]: [(r["wall"], r["user"] + r["sys"]) for r in c["runs"]] for c in t["commands"]}
    print(json.dumps({"row": row, "runs": runs}))
sizes = {"gz": os.path.getsize(f"{work}/real.gz"), "zidx": os.path.getsize(f"{work}/real.gz.zidx")}
print(json.dumps({"row": "sizes", "sizes": sizes, "tools": tools}))
PY
sweep=""
if [ "${SWEEP:-}" = 1 ]; then
	sweep="$(benchmarks/zindex-sweep.sh 2>&1 | grep -E 'files|FAIL|^ok' | tr '\n' ' ')"
fi

out="$work/compressed.md"
{
	echo "# Compressed files through internal/ztext: an index, the structure, the parallel stream"
	echo
	echo "- Commit measured: $commit"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION)"
	echo "- Load average (1, 5, 15 min) before the timings: $load_before; after: $load_after"
	echo "- Data: real.txt, the Go distribution's .go files concatenated in path order to 128 MiB; \`gzip -6\` (indexed by \`foreach --index\`), \`bgzip -@2\`, \`lbzip2 -n 2\`, \`pzstd -p 2\`, \`xz -T2\`; small.gz its first MiB; in the page cache"
	echo "- Command: \`ROUNDS=$rounds${AGREE:+ AGREE=$AGREE} benchmarks/compressed.sh\`"
	echo "- $(timeit_note)"
	if [ -n "$sweep" ]; then
		echo "- Exactness (\`benchmarks/zindex-sweep.sh\`): $sweep"
	fi
	echo
	python3 - "$work/runs.json" <<'PY'
import json, statistics, sys

rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows[r["row"]] = r
med = lambda xs: statistics.median(xs) * 1e3
ratio = lambda a, b: statistics.median(x[0] / y[0] for x, y in zip(a, b))
verdict = lambda ok: "met" if ok else "not met"

print("## Wall and CPU time\n")
print("Medians of whole-process runs; CPU is user+sys of the process tree (for a pipeline: the")
print("shell, the tool and wc).\n")
print("| Row | Contender | wall [ms] | CPU [ms] |")
print("|:---|:---|---:|---:|")
for name, r in rows.items():
    for k, runs in r.get("runs", {}).items():
        print(f"| {name} | {k} | {med([x[0] for x in runs]):.0f} | {med([x[1] for x in runs]):.0f} |")

s = rows["sizes"]["sizes"]
c, l, ix = rows["count"]["runs"], rows["last"]["runs"], rows["index"]["runs"]
print("\n## The goals (medians of per-round ratios of wall times)\n")
print("| Measure | ratio | goal |")
print("|:---|---:|:---|")
v = ratio(c["foreach"], c["igzip"])
print(f"| `foreach -z -c` (indexed .gz, 2 cores) / `igzip -dc \\| wc -l` | {v:.2f}× | ≤ 0.6×: {verdict(v <= 0.6)} |")
v = 1 / ratio(c["foreach"], c["seq"])
print(f"| its speed-up over `-j 1` (the same index, one core) | {v:.2f}× | |")
v = 1 / ratio(c["foreach"], c["noindex"])
print(f"| its speed-up over the file without an index (one sequential decode) | {v:.2f}× | |")
v = ratio(l["big"], l["small"])
print(f"| `-z --last 10`: indexed 128 MiB / indexed 1 MiB | {v:.2f}× | ≤ 2×: {verdict(v <= 2)} |")
v = ratio(ix["build"], ix["decode"])
print(f"| `--index` / a plain decode (`-z -c -j 1`, no index) | {v:.2f}× | ≤ 1.1×: {verdict(v <= 1.1)} |")
v = s["zidx"] / s["gz"]
print(f"| index size / .gz size ({s['zidx']} / {s['gz']} bytes) | {100 * v:.2f}% | ≤ 2%: {verdict(v <= 0.02)} |")
for ext, tool in rows["sizes"]["tools"].items():
    r = rows[ext]["runs"]
    v = ratio(r["foreach"], r["tool"])
    print(f"| real.{ext}: `foreach -z -c` (2 workers) / `{tool} \\| wc -l` | {v:.2f}× | |")
    v = 1 / ratio(r["foreach"], r["seq"])
    print(f"| real.{ext}: speed-up over `-j 1` | {v:.2f}× | ≥ 1.8×: {verdict(v >= 1.8)} |")

print("\n## More cores, on paper\n")
print("From the indexed count's CPU time at `-j 1` (the sections' decoding, sequentially) and the")
print("index's spans (4 MiB of text each, 32 for 128 MiB): N cores take each a share of the")
print("sections, so the count would take about CPU(-j 1) / min(N, spans) plus the process's start and")
print("the index's loading (the wall time of `--last 10` of the 1 MiB file bounds both from above).\n")
one = med([x[1] for x in c["seq"]])
fixed = med([x[0] for x in l["small"]])
print("| cores | estimated wall [ms] |")
print("|---:|---:|")
for n in (2, 8, 32):
    print(f"| {n} | {one / min(n, 32) + fixed:.0f} |")
PY
	echo
	echo "## Checked against hyperfine"
	echo
	echo "Every row as timeit reported it, with hyperfine's timing of the same runs' neighbours"
	echo "(\`hyperfine -N -r 1\` right after each of timeit's runs), minor page faults and context"
	echo "switches (medians):"
	for row in count pipe last index bgz lbz2 pzst xz; do
		echo
		echo "### $row"
		echo
		sed "s|$work/||g" "$work/$row.md"
	done
} >"$out"
keep_results "$commit" "$out"
cat "$out"
