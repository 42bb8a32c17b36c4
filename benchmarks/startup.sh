#!/usr/bin/env bash
# Times the command's start-up (issue 46: within 1.2x of a Go program that does nothing)
# and writes benchmarks/results/startup.md (and history/startup-COMMIT.md):
#
#   nothing            a Go program whose main is empty, built by the same Go: the floor
#                      of any Go command
#   nothing+humanize   the same with github.com/dustin/go-humanize imported: what that
#                      package's initialisation costs every process that links it
#   foreach --last 10 small, foreach -c empty    at HEAD and at BEFORE (default 7c87f6a,
#                      round 5's last commit), beside tail -n 10, wc -l and cat
#
# small is the Go distribution's first 64 KiB of .go text (in path order), empty is empty.
# Every command is timed by benchmarks/timeit.sh (benchmarks/cmd/timeit: ROUNDS rounds
# in an order rotated every round, wall and CPU time of the process tree from wait4,
# hyperfine beside every run, the two agreeing within AGREE or nothing is kept); ratios
# are to `nothing`, the median of the per-round ratios with the least and greatest.
#
#   benchmarks/startup.sh                    # ROUNDS=300
#   ROUNDS=20 AGREE=9 benchmarks/startup.sh  # that it works, on a busy machine
#
# The commands are built from the commits (git archive); the timing holds
# /tmp/foreach-bench.lock, as the other scripts do. Needs hyperfine and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh
. benchmarks/timeit.sh

timeit_lock "$@"

export ROUNDS="${ROUNDS:-300}" WARMUP="${WARMUP:-20}"
before="${BEFORE:-7c87f6a}"
for tool in hyperfine python3 tail wc; do
	command -v "$tool" >/dev/null || { echo "startup.sh: $tool is needed" >&2; exit 1; }
done
commit="$(git rev-parse --short=12 HEAD)"
before="$(git rev-parse --short=12 "$before")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/src" "$work/before"
git archive HEAD | tar -x -C "$work/src"
git archive "$before" | tar -x -C "$work/before"
mkdir -p "$work/src/startupprobe/nothing" "$work/src/startupprobe/humanize"
printf 'package main\n\nfunc main() {}\n' >"$work/src/startupprobe/nothing/main.go"
printf 'package main\n\nimport _ "github.com/dustin/go-humanize"\n\nfunc main() {}\n' >"$work/src/startupprobe/humanize/main.go"
(cd "$work/src" && go build -o "$work/foreach" ./cmd/foreach &&
	go build -o "$work/nothing" ./startupprobe/nothing &&
	go build -o "$work/nothing+humanize" ./startupprobe/humanize)
(cd "$work/before" && go build -o "$work/foreach-before" ./cmd/foreach)
(cd "$work/src" && timeit_build "$work")
export TIMEIT="$work/timeit" # timeit_build ran in a subshell

python3 - "$(go env GOROOT)/src" "$work/small.txt" <<'PY'
import os, sys
root, out = sys.argv[1], sys.argv[2]
names = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".go"))
data = bytearray()
for n in names:
    data += open(n, "rb").read()
    if len(data) >= 65536:
        break
end = data.find(b"\n", 65535)
open(out, "wb").write(data[:end + 1])
PY
: >"$work/empty.txt"
cmp -s <("$work/foreach" --last 10 "$work/small.txt") <(tail -n 10 "$work/small.txt") || { echo "startup.sh: --last 10 differs from tail" >&2; exit 1; }

report="$work/startup.md"
{
	echo "# Start-up: the command against a Go program that does nothing"
	echo
	echo "- Commit: $commit (foreach), $before (foreach-before)"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
	echo "- Data: small, the Go distribution's first $(wc -c <"$work/small.txt") bytes of .go text; empty, an empty file"
	echo "- Binaries: foreach $(wc -c <"$work/foreach") bytes, foreach-before $(wc -c <"$work/foreach-before") bytes, nothing $(wc -c <"$work/nothing") bytes, nothing+humanize $(wc -c <"$work/nothing+humanize") bytes"
	echo "- Command: \`ROUNDS=$ROUNDS WARMUP=$WARMUP${AGREE:+ AGREE=$AGREE} benchmarks/startup.sh\`"
	echo "- $(timeit_note)"
	echo "- Load average (1, 5, 15 min) as the timing started: $(cut -d' ' -f1-3 /proc/loadavg), on $(nproc) cores"
	echo
	timeit_row "$work/row" "$work/nothing" "$work/nothing+humanize" \
		"$work/foreach --last 10 $work/small.txt" "$work/foreach-before --last 10 $work/small.txt" \
		"tail -n 10 $work/small.txt" "cat $work/small.txt" \
		"$work/foreach -c $work/empty.txt" "$work/foreach-before -c $work/empty.txt" "wc -l $work/empty.txt"
	python3 - "$work/row.json" "$work" <<'PY'
import json, statistics, sys
cmds, work = json.load(open(sys.argv[1]))["commands"], sys.argv[2]
walls = {c["command"]: [r["wall"] for r in c["runs"]] for c in cmds}
cpu = {c["command"]: [r["user"] + r["sys"] for r in c["runs"]] for c in cmds}
sys_ = {c["command"]: [r["sys"] for r in c["runs"]] for c in cmds}
first = cmds[0]["command"]
short = lambda c: c.replace(work + "/", "").replace(".txt", "")
print("| command | median wall [ms] | vs `nothing` [least–greatest of rounds of 25] | CPU user+sys [ms] | sys [ms] |")
print("|:---|---:|---:|---:|---:|")
chunk = lambda xs: [statistics.median(xs[i:i + 25]) for i in range(0, len(xs) - 24, 25)] or [statistics.median(xs)]
for c in walls:
    ratios = [a / b for a, b in zip(chunk(walls[c]), chunk(walls[first]))]
    med = statistics.median(walls[c]) / statistics.median(walls[first])
    spread = "" if c == first else f" [{min(ratios):.2f}–{max(ratios):.2f}]"
    print(f"| `{short(c)}` | {statistics.median(walls[c])*1e3:.2f} | {med:.2f}×{spread} | {statistics.median(cpu[c])*1e3:.2f} | {statistics.median(sys_[c])*1e3:.2f} |")
PY
	echo
	echo "Checked against hyperfine (every run timed by both; minor page faults, context switches):"
	echo
	sed "s|$work/||g" "$work/row.md"
	echo
	echo "- Load average as the timing ended: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$report"
cat "$report"
keep_results "$commit" "$report"
