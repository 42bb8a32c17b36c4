#!/usr/bin/env bash
# Fast log rotation beside GNU tail -F: a writer (benchmarks/cmd/rotator) appends N numbered
# records, one write(2) each, rotating the file every EVERY records, with unique names
# (app.log.1, .2, …) and with numbered shifting (.1 → .2 …, KEEP kept, as logrotate), at
# one rotation every 2 ms and faster; `foreach -f` and `tail -F` follow the same file at
# the same time, and the records each printed (and their order) are counted. Writes
# benchmarks/results/rotation-vs-tail.md
# (and history/rotation-vs-tail-COMMIT.md).
#
#   benchmarks/rotation-vs-tail.sh            # N=200000 EVERY=200 KEEP=50 ROUNDS=3
#
# The foreach measured is built from the commit HEAD (git archive). Needs GNU tail.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

n="${N:-200000}"
every="${EVERY:-200}"
keep="${KEEP:-50}"
rounds="${ROUNDS:-3}"
intervals="${INTERVALS:-2ms 1ms 500us 0}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work/" -f -
(cd "$work" && go build -o "$work/foreach" ./cmd/foreach && go build -o "$work/rotator" ./benchmarks/cmd/rotator)

# settle FILE...: waits until the files stop growing (2 s without change, 60 s at most).
settle() {
	local before="" now quiet=0
	for _ in $(seq 600); do
		now="$(wc -l "$@" | tail -n1)"
		if [ "$now" = "$before" ]; then
			quiet=$((quiet + 1))
			[ $quiet -ge 20 ] && return
		else
			quiet=0
		fi
		before="$now"
		sleep 0.1
	done
}

# check OUT: "printed in-order" of the records seq=0..n-1 in OUT (in order: each record
# is the one after the record before it, or a later one; a record printed out of order
# or twice counts against it).
check() {
	awk -v n="$n" -F= '{ k = $2 + 0; if (!(k in seen)) { seen[k] = 1; uniq++ } if (k == last + 1 || NR == 1 && k == 0) ok++; last = k }
		END { printf "%d %d %d\n", NR, uniq + 0, ok + 0 }' "$1"
}

# once MODE INTERVAL: one round; prints "interval-measured foreach-printed foreach-unique foreach-inorder tail-…".
once() {
	local dir="$work/run" shift=""
	rm -rf "$dir" && mkdir -p "$dir"
	: >"$dir/app.log"
	[ "$1" = shift ] && shift="-shift -keep $keep"
	"$work/foreach" -f "$dir/app.log" >"$dir/foreach.out" 2>"$dir/foreach.err" &
	local fpid=$!
	tail -n +1 -F "$dir/app.log" >"$dir/tail.out" 2>/dev/null &
	local tpid=$!
	sleep 0.5 # both are watching
	local measured
	# shellcheck disable=SC2086
	measured="$("$work/rotator" -n "$n" -every "$every" -interval "$2" $shift "$dir/app.log" | awk '{print $6}')"
	settle "$dir/foreach.out" "$dir/tail.out"
	kill "$fpid" "$tpid" 2>/dev/null || true
	wait "$fpid" "$tpid" 2>/dev/null || true
	echo "$measured $(check "$dir/foreach.out") $(check "$dir/tail.out")"
}

: >"$work/raw"
for ((r = 1; r <= rounds; r++)); do
	for mode in unique shift; do
		for iv in $intervals; do
			echo "$mode|$iv|$(once "$mode" "$iv")" | tee -a "$work/raw" >&2
		done
	done
done

{
	echo "# Fast rotation: foreach -f beside tail -F"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it); $(tail --version | head -n1)"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
	echo "- Command: \`N=$n EVERY=$every KEEP=$keep ROUNDS=$rounds INTERVALS='$intervals' benchmarks/rotation-vs-tail.sh\`; files in $(df -T "$work" | awk 'NR==2 {print $2}')"
	echo "- Load average as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "A writer appends $n records (\`seq=K\`), one write(2) each, and rotates the file every"
	echo "$every records: *unique* renames it to app.log.1, .2, … (nothing deleted); *shift*"
	echo "renames .k to .k+1 and app.log to .1, keeping $keep rotated files (the oldest deleted),"
	echo "as logrotate does. Both followers follow the same file at the same time, from its"
	echo "start; each round, every case in turn. *printed*: lines printed; *unique*: distinct"
	echo "records among them (of $n); *in order*: records that follow the record before them."
	echo "*interval*: the rotation interval asked for, and the mean one the writer kept."
	echo
	echo "| rotation | interval asked | interval kept | foreach printed | foreach unique | foreach in order | tail -F printed | tail -F unique | tail -F in order |"
	echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
	tr '|' ' ' <"$work/raw" | while read -r mode iv kept fp fu fo tp tu to; do
		echo "| $mode | $iv | $kept | $fp | $fu | $fo | $tp | $tu | $to |"
	done
} >"$work/rotation-vs-tail.md"
cat "$work/rotation-vs-tail.md"
keep_results "$rev" "$work/rotation-vs-tail.md"
