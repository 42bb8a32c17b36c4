#!/usr/bin/env bash
# Times decompression on real text (the Go distribution's .go files concatenated to 128
# MiB) and on the 64 MiB tall and mixed corpora, each compressed by gzip, zstd, xz, lz4 and
# bzip2 at the tool's default level, and writes benchmarks/results/compress.md (and history/compress-COMMIT.md):
#
#   1. foreach -z -c F against TOOL -dc F | wc -l, the command a person would otherwise
#      run: ROUNDS alternating pairs per file (the order swapped every pair, after one
#      untimed run of each that also checks that both count the same lines), the wall time
#      and the CPU time (user+sys of the whole process tree, from wait4) of every run; the
#      table gives the medians and the median of the per-pair ratios;
#   2. BenchmarkDecode of internal/decompress: the decoders in one process, this
#      repository's reader beside the libraries used directly (benchstat, COUNT runs).
#
# The files are made by the benchmark's own code (contend.MakeFile for the corpora, the
# tools for the compressed files), outside the lock, and kept in WORK when it is set. The
# timings run under flock LOCK (default /tmp/foreach-bench.lock; LOCK= for none), so that
# no other measurement that takes the lock runs at the same time; the load average
# before and after is written with the figures, since other work on a shared machine is
# not kept out by the lock.
#
#   benchmarks/compress.sh                                   # ROUNDS=11 BZIP2_ROUNDS=5 COUNT=6
#   WORK=/tmp/compress ROUNDS=21 benchmarks/compress.sh      # keep the files; more pairs
#   ONLY=real benchmarks/compress.sh                         # one corpus (real, tall, mixed)
#
# Needs gzip, zstd, xz, lz4, bzip2 and python3. A tree with uncommitted changes under
# internal/decompress, linereader or cmd is measured as COMMIT+changes.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

rounds="${ROUNDS:-11}"
bzip2_rounds="${BZIP2_ROUNDS:-5}"
count="${COUNT:-6}"
lock="${LOCK-/tmp/foreach-bench.lock}"
shapes="${ONLY:-real tall mixed}"
bench="Decode/($(echo $shapes | tr ' ' '|'))/"
for tool in gzip zstd xz lz4 bzip2 python3; do
	command -v "$tool" >/dev/null || { echo "compress.sh: $tool is needed" >&2; exit 1; }
done

if [ -n "${WORK:-}" ]; then
	work="$WORK"
	mkdir -p "$work"
else
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
go build -o "$work/foreach" ./cmd/foreach
go test -c -o "$work/decompress.test" ./internal/decompress
commit="$(git rev-parse --short=12 HEAD)"
git diff --quiet HEAD -- internal/decompress linereader cmd go.mod || commit="$commit+changes"

# The files, made (and put in the page cache) before anything is timed.
DECOMPRESS_BENCH_DIR="$work" DECOMPRESS_BENCH_MAKE=1 "$work/decompress.test" \
	-test.run '^$' -test.bench "$bench" -test.benchtime 1x >/dev/null
for shape in $shapes; do
	cat "$work/$shape.txt"* >/dev/null
done

# pairs OUT.json ROUNDS: the command-line timings of every file, as JSON lines in OUT.
pairs() {
	python3 - "$work" "$1" "$2" "$bzip2_rounds" $shapes <<'PY'
import json, os, statistics, subprocess, sys, time

work, out, rounds, bzip2_rounds, shapes = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
tools = [("gz", "gzip"), ("zst", "zstd"), ("xz", "xz"), ("lz4", "lz4"), ("bz2", "bzip2")]

def run(argv):
    """Runs argv with its output thrown away; returns wall and CPU seconds of the process tree."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"compress.sh: {argv} exited with {p.returncode}")
    return wall, ru.ru_utime + ru.ru_stime

def lines(argv):
    return int(subprocess.run(argv, capture_output=True, check=True, text=True).stdout.split()[0])

with open(out, "w") as o:
    for shape in shapes:
        # foreach -z -c on the text itself: the cost of reading its records, without decoding.
        plain = [f"{work}/foreach", "-z", "-c", f"{work}/{shape}.txt"]
        run(plain)
        runs = {"foreach": [run(plain) for _ in range(rounds)]}
        o.write(json.dumps({"shape": shape, "ext": "", "tool": "", "runs": runs}) + "\n")
        for ext, tool in tools:
            f = f"{work}/{shape}.txt.{ext}"
            theirs = ["sh", "-c", f"{tool} -dc {f} | wc -l"]
            ours = [f"{work}/foreach", "-z", "-c", f]
            if lines(theirs) != lines(ours):
                sys.exit(f"compress.sh: {f}: foreach and {tool} count different lines")
            n = bzip2_rounds if ext == "bz2" else rounds
            runs = {"tool": [], "foreach": []}
            for i in range(n):
                order = [("tool", theirs), ("foreach", ours)]
                if i % 2:
                    order.reverse()
                for name, argv in order:
                    runs[name].append(run(argv))
            o.write(json.dumps({"shape": shape, "ext": ext, "tool": tool, "runs": runs}) + "\n")
PY
}

# table IN.json: the markdown table of the timings.
table() {
	python3 - "$1" <<'PY'
import json, statistics, sys

goals = {"gz": 1.2, "zst": 0.9, "xz": 0.6, "lz4": 1.0}
print("| File | Tool pipeline: wall [ms] | CPU [ms] | `foreach -z -c`: wall [ms] | CPU [ms] | Speed (tool wall / foreach wall) | CPU (tool / foreach) | Goal |")
print("|:---|---:|---:|---:|---:|---:|---:|:---|")
for line in open(sys.argv[1]):
    r = json.loads(line)
    if not r["ext"]:
        continue
    t, f = r["runs"]["tool"], r["runs"]["foreach"]
    med = lambda xs: statistics.median(xs) * 1e3
    speed = statistics.median(a[0] / b[0] for a, b in zip(t, f))
    cpu = statistics.median(a[1] / b[1] for a, b in zip(t, f))
    goal = ""
    if r["shape"] == "real" and r["ext"] in goals:
        g = goals[r["ext"]]
        goal = f"≥ {g:.1f}×: {'met' if speed >= g else 'not met'}"
    name = f"{r['shape']}.txt.{r['ext']}"
    print(f"| {name} (`{r['tool']} -dc \\| wc -l`) | {med([x[0] for x in t]):.0f} | {med([x[1] for x in t]):.0f} | "
          f"{med([x[0] for x in f]):.0f} | {med([x[1] for x in f]):.0f} | {speed:.2f}× | {cpu:.2f}× | {goal} |")
PY
}

# split IN.json BENCH.txt: where foreach -z -c's CPU time goes on each file: decoding (the
# reader alone, BenchmarkDecode's median cpu-ns/op) and reading the records (foreach -z -c
# on the decompressed text, median CPU), which the command does one after the other.
split() {
	python3 - "$1" "$2" <<'PY'
import json, re, statistics, sys

names = {"gz": "gzip", "zst": "zstd", "xz": "xz", "lz4": "lz4", "bz2": "bzip2"}
decode = {}
for line in open(sys.argv[2]):
    m = re.match(r"BenchmarkDecode/(\w+)/(\w+)/decompress-\d+\s.*?([\d.]+) cpu-ns/op", line)
    if m:
        decode.setdefault((m[1], m[2]), []).append(float(m[3]) / 1e6)
plain, rows = {}, []
for line in open(sys.argv[1]):
    r = json.loads(line)
    cpu = statistics.median(x[1] for x in r["runs"]["foreach"]) * 1e3
    if not r["ext"]:
        plain[r["shape"]] = cpu
    else:
        rows.append((r["shape"], r["ext"], cpu))
print("| File | `foreach -z -c` CPU [ms] | decoding alone [ms] | reading the records of the text [ms] | sum [ms] |")
print("|:---|---:|---:|---:|---:|")
for shape, ext, cpu in rows:
    d = decode.get((shape, names[ext]))
    if not d:
        continue
    d = statistics.median(d)
    print(f"| {shape}.txt.{ext} | {cpu:.0f} | {d:.0f} | {plain[shape]:.0f} | {d + plain[shape]:.0f} |")
PY
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# The timings, under the lock.
if [ -n "$lock" ]; then
	exec 9>"$lock"
	flock 9
fi
load_before="$(load)"
pairs "$work/pairs.json" "$rounds"
DECOMPRESS_BENCH_DIR="$work" "$work/decompress.test" -test.run '^$' -test.bench "$bench" \
	-test.benchtime 1x -test.count "$count" >"$work/bench.txt"
load_after="$(load)"
if [ -n "$lock" ]; then
	flock -u 9
fi

out="$work/compress.md"
{
	echo "# Decompression: foreach -z and the tools"
	echo
	echo "- Commit measured: $commit"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION)"
	echo "- Load average (1, 5, 15 min) before the timings: $load_before; after: $load_after"
	echo "- Tools: $(gzip --version | head -1), zstd $(zstd -V | grep -o 'v[0-9.]*' | head -1), $(xz --version | head -1), lz4 $(lz4 --version 2>&1 | grep -o 'v[0-9.]*' | head -1), bzip2 $(bzip2 --help 2>&1 | head -1 | grep -o 'Version [0-9.]*' | cut -d' ' -f2)"
	echo "- Data: real.txt is the Go distribution's .go files concatenated in path order to 128 MiB; tall.txt and mixed.txt the generated corpora of 64 MiB (contend.MakeFile); each compressed by its tool at the default level (xz with one thread, its default in 5.4), in the page cache"
	echo "- Command: \`benchmarks/compress.sh\` (ROUNDS=$rounds pairs, BZIP2_ROUNDS=$bzip2_rounds, COUNT=$count)"
	echo
	echo "| File | Bytes | Ratio |"
	echo "|:---|---:|---:|"
	for shape in $shapes; do
		size=$(wc -c <"$work/$shape.txt")
		echo "| $shape.txt | $size | 1 |"
		for ext in gz zst xz lz4 bz2; do
			c=$(wc -c <"$work/$shape.txt.$ext")
			echo "| $shape.txt.$ext | $c | $(python3 -c "print(f'{$c/$size:.3f}')") |"
		done
	done
	echo
	echo "## foreach -z -c against the tool's decompressor into wc -l"
	echo
	echo "Medians of alternating pairs of whole-process runs (the order swapped every pair); CPU is"
	echo "user+sys of the process tree (for the pipeline: the shell, the tool and wc). Speed is the"
	echo "median of the per-pair ratios of wall times, tool over foreach: above 1, foreach is faster."
	echo "The goals of the real-text rows are those of issue 24."
	echo
	table "$work/pairs.json"
	echo
	echo "Where the command's CPU time goes: it decodes and then cuts the decompressed text into"
	echo "records in one goroutine, one after the other, where the pipeline's two processes run"
	echo "side by side on two cores. Decoding alone is BenchmarkDecode's reader (below); reading"
	echo "the records is \`foreach -z -c\` on the decompressed text itself (median CPU of ROUNDS runs)."
	echo
	split "$work/pairs.json" "$work/bench.txt"
	echo
	echo "## Go: BenchmarkDecode (internal/decompress)"
	echo
	echo "Each file decoded from memory through a 64 KiB buffer, in one process. \`decompress\` is"
	echo "this repository's reader; \`klauspost*\`, \`pierrec\` the libraries used directly (\`-sync\`:"
	echo "one goroutine, as the reader uses zstd; \`-default\`: the library's default concurrency,"
	echo "decoding ahead on other goroutines); \`stdlib\` is compress/gzip; \`ulikunitz\` is the xz"
	echo "library used directly (the reader's xz decoder). MB/s are decompressed bytes; cpu-sec/op is the"
	echo "process's user+sys time per decode. Medians of COUNT=$count runs (benchstat)."
	echo
	echo '```'
	go tool benchstat -filter '.unit:(sec/op OR B/s OR cpu-ns/op)' "$work/bench.txt" | grep -v '^goos\|^goarch\|^pkg\|^cpu' | sed "s#$work/##g"
	echo '```'
} >"$out"
cat "$out"
keep_results "$commit" "$out"
