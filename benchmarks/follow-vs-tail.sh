#!/usr/bin/env bash
# Follows a file that a separate process appends to as fast as it can, one write(2) per
# record (benchmarks/cmd/appender), with `foreach -f` and with GNU `tail -F`, and measures what
# each follower costs: its CPU time, and the writer's rate beside it. Also the writer
# alone, and beside each follower stopped (SIGSTOP) once its watch is set up: the cost of
# the file-system notifications themselves, which falls on the writer's write(2) whoever
# reads them. Writes benchmarks/results/follow-vs-tail.md
# (and history/follow-vs-tail-COMMIT.md).
#
#   benchmarks/follow-vs-tail.sh            # N=1000000 records, ROUNDS=5 per case
#
# The foreach measured is built from the commit HEAD (git archive). Needs GNU tail.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

n="${N:-1000000}"
rounds="${ROUNDS:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work/" -f -
(cd "$work" && go build -o "$work/foreach" ./cmd/foreach && go build -o "$work/appender" ./benchmarks/cmd/appender)
tick=$(getconf CLK_TCK)

# once CASE: one round of CASE; prints "writer-rec/s follower-cpu-ms lines-out".
once() {
	local log="$work/app.log" out="$work/out" pid=""
	rm -f "$log" "$out"
	: >"$log"
	case $1 in
	foreach* ) "$work/foreach" -f --from-end "$log" >"$out" & pid=$! ;;
	tail* ) tail -F -n0 "$log" >"$out" 2>/dev/null & pid=$! ;;
	esac
	sleep 0.5 # the follower is at the end, watching
	[[ $1 == *stopped ]] && kill -STOP "$pid"
	local rate
	rate=$("$work/appender" -n "$n" "$log" | cut -d' ' -f2)
	local cpu=0 lines=0
	if [ -n "$pid" ]; then
		[[ $1 == *stopped ]] && kill -CONT "$pid"
		# Wait until the follower has written every record (or 30 s).
		for _ in $(seq 300); do
			[ "$(wc -l <"$out")" -ge "$n" ] && break
			sleep 0.1
		done
		local st
		read -r -a st <"/proc/$pid/stat"
		cpu=$(((st[13] + st[14]) * 1000 / tick))
		lines=$(wc -l <"$out")
		kill "$pid"
		wait "$pid" 2>/dev/null || true
	fi
	echo "$rate $cpu $lines"
}

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

cases=(alone foreach tail "foreach stopped" "tail stopped")
: >"$work/raw"
for ((r = 1; r <= rounds; r++)); do
	for c in "${cases[@]}"; do
		echo "$c|$(once "$c")" | tee -a "$work/raw" >&2
	done
done

{
	echo "# Following a file beside a writer: foreach -f and tail -F"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it); $(tail --version | head -n1)"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
	echo "- Command: \`N=$n ROUNDS=$rounds benchmarks/follow-vs-tail.sh\`; files in $(df -T "$work" | awk 'NR==2 {print $2}')"
	echo "- Load average as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "A separate process appends $n records of 15 bytes, one write(2) each, as fast as it"
	echo "can, while the follower (started at the end of the empty file) prints them to a file."
	echo "Medians over $rounds rounds, the cases in turn. *stopped*: the follower is stopped"
	echo "(SIGSTOP) once its watch is set up and resumed after the writer ends, so the"
	echo "writer's rate shows what the notifications cost the writer by themselves."
	echo
	echo "| follower | writer, records/s | follower CPU, user+sys | records printed |"
	echo "|---|---:|---:|---:|"
	for c in "${cases[@]}"; do
		rate=$(grep "^$c|" "$work/raw" | cut -d'|' -f2 | cut -d' ' -f1 | median)
		cpu=$(grep "^$c|" "$work/raw" | cut -d'|' -f2 | cut -d' ' -f2 | median)
		lines=$(grep "^$c|" "$work/raw" | cut -d'|' -f2 | cut -d' ' -f3 | sort -n | head -n1)
		case $c in
		alone) printf '| none (the writer alone) | %.0f | | |\n' "$rate" ;;
		*) printf '| %s | %.0f | %s ms | %s (fewest of the rounds) |\n' "$c" "$rate" "$cpu" "$lines" ;;
		esac
	done
} >"$work/follow-vs-tail.md"
cat "$work/follow-vs-tail.md"
keep_results "$rev" "$work/follow-vs-tail.md"
