#!/usr/bin/env bash
# Measures following many files (issue 44) with `foreach -f` over a pattern, beside GNU
# `tail -F` over the same names, with benchmarks/cmd/followmany (see its doc): both
# followers run as processes of their own, the writers in the driver's.
#
#   scale:   FILES files of one record each (10,000), WRITTEN (100) of them then written a
#            record each every INTERVAL (100 ms) for DURATION (20 s), then IDLE seconds (10)
#            of nothing: every record delivered, the most descriptors held (foreach with
#            --max-open MAX_OPEN, 256), CPU at idle, peak memory, latency while written.
#   fair:    one file written as fast as the writer can and QUIET (50) files a record
#            every 100 ms each, for DURATION: the quiet files' latency (goal: p99 250 ms).
#   newfile: a file made every 200 ms in the watched directory, with one record: its
#            latency, with notifications (the command) and, with the library in the
#            driver's process, with notifications and with the poll alone (Poll 250 ms).
#            tail -F is given names, not a pattern: it has no row.
#
# Writes benchmarks/results/follow-many.md and follow-many.tsv (one line per run), and
# their history/ copies. The foreach measured is built from the commit HEAD (git
# archive). Latency is from just before a record's write(2) to when its line is read from
# the follower's output. Needs GNU tail, and a descriptor limit above FILES for tail -F
# (the script raises its soft limit to the hard one).
#
#   benchmarks/follow-many.sh                                   # the issue's sizes
#   FILES=500 WRITTEN=20 DURATION=3 IDLE=3 benchmarks/follow-many.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

files="${FILES:-10000}"
written="${WRITTEN:-100}"
seconds="${DURATION:-20}"
idle="${IDLE:-10}"
interval="${INTERVAL:-100ms}"
maxopen="${MAX_OPEN:-256}"
quiet="${QUIET:-50}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work/" -f -
(cd "$work" && go build -o "$work/foreach" ./cmd/foreach && go build -o "$work/followmany" ./benchmarks/cmd/followmany)
fm() { TMPDIR="$work" "$work/followmany" -foreach "$work/foreach" -max-open "$maxopen" "$@"; }
start=$(date +%s)
: >"$work/follow-many.tsv"
status=0
# lost FOLLOWER: a run that did not deliver every record. tail -F's losses are a finding
# (the lost column shows them); foreach's fail the run.
lost() { [ "$1" = tail ] || status=1; }
for f in foreach tail; do
	echo "scale $f" >&2
	fm -scenario scale -follower "$f" -files "$files" -written "$written" -seconds "$seconds" \
		-idle "$idle" -interval "$interval" >>"$work/follow-many.tsv" || lost "$f"
done
for f in foreach tail; do
	echo "fair $f" >&2
	fm -scenario fair -follower "$f" -quiet "$quiet" -seconds "$seconds" >>"$work/follow-many.tsv" || lost "$f"
done
echo "newfile" >&2
fm -scenario newfile -follower foreach >>"$work/follow-many.tsv" || status=1
fm -scenario newfile-lib >>"$work/follow-many.tsv" || status=1
fm -scenario newfile-lib -poll-only >>"$work/follow-many.tsv" || status=1
elapsed=$(($(date +%s) - start))
# field KEY LINE: the value of KEY=... in a line of the tsv ("-" when absent).
field() { tr '\t' '\n' <<<"$2" | sed -n "s/^$1=//p" | grep . || echo -; }
{
	echo "# Following many files"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it), $(nproc) cores, $(go env GOVERSION), $(uname -sr), $(tail --version | head -1)"
	echo "- Command: \`FILES=$files WRITTEN=$written DURATION=$seconds IDLE=$idle INTERVAL=$interval MAX_OPEN=$maxopen QUIET=$quiet benchmarks/follow-many.sh\`, wall time $((elapsed / 60))m$((elapsed % 60))s; files in $(df -T "$work" | awk 'NR==2 {print $2}')"
	echo "- Load average as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- Every record delivered by foreach and the library: $( ((status == 0)) && echo yes || echo "NO (see the lost column)")"
	echo
	echo "Scale: $files files of one record each, followed (\`foreach -f --max-open $maxopen 'DIR/*.log'\`, or"
	echo "\`tail -q -F -n 1\` over the $files names); then $written of them a record each every $interval for"
	echo "${seconds} s, then ${idle} s of nothing. start-s: until the $files first records are printed; fds: the"
	echo "most descriptors the follower held (sampled every 50 ms); idle CPU: user+system over the idle"
	echo "seconds, as a share of one core (10 ms ticks); peak: VmHWM. Goals (issue 44): fds at most"
	echo "MaxOpen plus a few, idle CPU at most 1%, memory at most 64 MiB, every record delivered."
	echo
	echo "| follower | files | start-s | records | lost | latency p50 / p99 / max ms | max fds | idle CPU % | peak MiB |"
	echo "|---|---:|---:|---:|---:|---|---:|---:|---:|"
	grep -P '^follower=\S+\tfiles=' "$work/follow-many.tsv" | while IFS= read -r l; do
		echo "| $(field follower "$l") | $(field files "$l") | $(field start-s "$l") | $(field records "$l") | $(field lost "$l") | $(field p50-ms "$l") / $(field p99-ms "$l") / $(field max-ms "$l") | $(field max-fds "$l") | $(field idle-cpu-pct "$l") | $(field peak-mib "$l") |"
	done
	echo
	echo "Fair: one file written as fast as the writer can (a write(2) per record) and $quiet quiet files a"
	echo "record every 100 ms each, for ${seconds} s; the latency of the quiet files' records (goal: p99 at"
	echo "most 250 ms)."
	echo
	echo "| follower | hot records | quiet records | lost | caught up | quiet p50 / p99 / max ms |"
	echo "|---|---:|---:|---:|---|---|"
	grep -P '^follower=\S+\thot-records=' "$work/follow-many.tsv" | while IFS= read -r l; do
		echo "| $(field follower "$l") | $(field hot-records "$l") | $(field quiet-records "$l") | $(field lost "$l") | $(field caught-up "$l") | $(field quiet-p50-ms "$l") / $(field quiet-p99-ms "$l") / $(field quiet-max-ms "$l") |"
	done
	echo
	echo "New files: 20 files made 200 ms apart in the watched directory, one record each; the"
	echo "latency of that record (goals: 100 ms with notifications, Poll without)."
	echo
	echo "| follower | notifications | lost | p50 / p99 / max ms |"
	echo "|---|---|---:|---|"
	grep -P '^follower=\S+\t(lost|poll-only)=' "$work/follow-many.tsv" | while IFS= read -r l; do
		notify=yes
		[[ $(field poll-only "$l") == true ]] && notify="no (Poll $(field poll-ms "$l") ms)"
		echo "| $(field follower "$l") | $notify | $(field lost "$l") | $(field new-p50-ms "$l") / $(field new-p99-ms "$l") / $(field new-max-ms "$l") |"
	done
} >"$work/follow-many.md"
keep_results "$rev" "$work/follow-many.md" "$work/follow-many.tsv"
cat "$work/follow-many.md"
exit "$status"
