#!/usr/bin/env bash
# What it costs `foreach -f --state` to resume in a 1 GiB log: the time from its start to
# the first new record printed, and the bytes it read (/proc/PID/io rchar), when the log
# is still at the name and when it was rotated (renamed, a new file created) while the
# command was stopped. A checkpoint names the file and the offset: resuming must not read
# the file again. Writes benchmarks/results/follow-resume-cost.md
# (and history/follow-resume-cost-COMMIT.md).
#
#   benchmarks/follow-resume-cost.sh          # SIZE=1073741824 ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

size="${SIZE:-1073741824}"
rounds="${ROUNDS:-3}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work/" -f -
(cd "$work" && go build -o "$work/foreach" ./cmd/foreach)
fe="$work/foreach"

# waitfor FILE TEXT: until FILE holds TEXT (60 s at most).
waitfor() {
	for _ in $(seq 6000); do
		grep -qF "$2" "$1" 2>/dev/null && return
		sleep 0.01
	done
	echo "timed out waiting for $2 in $1" >&2
	exit 1
}

# once CASE: prints "ms-to-first-record bytes-read".
once() {
	local log="$work/big.log" st="$work/state" out="$work/out"
	rm -f "$work"/big.log* "$st" "$out"
	yes 'an application log line of a typical length, with a few fields: status=200 ms=12' | head -c "$size" >"$log"
	"$fe" -f --from-end --state "$st" "$log" >/dev/null &
	local pid=$!
	waitfor "$st" "off="
	kill -TERM "$pid"
	wait "$pid" || true
	if [ "$1" = rotated ]; then
		mv "$log" "$log.1"
		echo "late record in the rotated file" >>"$log.1"
	fi
	echo "new record" >>"$log"
	local t0 t1
	t0=$(date +%s%N)
	"$fe" -f --state "$st" "$log" >"$out" &
	pid=$!
	waitfor "$out" "new record"
	t1=$(date +%s%N)
	local rchar
	rchar=$(awk '/^rchar/ {print $2}' "/proc/$pid/io")
	kill -TERM "$pid"
	wait "$pid" || true
	echo "$(((t1 - t0) / 1000000)) $rchar"
}

: >"$work/raw"
for ((r = 1; r <= rounds; r++)); do
	for c in same rotated; do
		echo "$c $(once "$c")" | tee -a "$work/raw" >&2
	done
done
{
	echo "# Resuming in a 1 GiB log"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it)"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
	echo "- Command: \`SIZE=$size ROUNDS=$rounds benchmarks/follow-resume-cost.sh\`; files in $(df -T "$work" | awk 'NR==2 {print $2}')"
	echo "- Load average as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "A $size-byte log; \`foreach -f --from-end --state FILE\` saves its checkpoint at the end"
	echo "and is ended; a record is appended (*same*), or the log is renamed to .1, a record"
	echo "appended to it and one to a new log (*rotated*); the command is started again with"
	echo "the state. *ms*: from its start to the new record on its output (through the process"
	echo "start, polled every 10 ms); *bytes read*: its rchar (every read(2) and pread(2),"
	echo "the executable's own loading excluded) when the record is out."
	echo
	echo "| case | ms | bytes read |"
	echo "|---|---:|---:|"
	while read -r c ms rb; do echo "| $c | $ms | $rb |"; done <"$work/raw"
} >"$work/follow-resume-cost.md"
cat "$work/follow-resume-cost.md"
keep_results "$rev" "$work/follow-resume-cost.md"
