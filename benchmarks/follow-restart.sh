#!/usr/bin/env bash
# The restart scenarios of following, with the real logrotate (benchmarks/cmd/restartcheck):
# through the library (a checkpoint kept, the log rotated once to three times while the
# program is stopped, resumed) and through `foreach -f --state` killed with SIGKILL
# KILLS times while the log is written and rotated. Writes
# benchmarks/results/follow-restart.md
# (and history/follow-restart-COMMIT.md).
#
#   benchmarks/follow-restart.sh            # KILLS=12
#
# The foreach measured is built from the commit HEAD (git archive). Needs logrotate.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

kills="${KILLS:-12}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work/" -f -
(cd "$work" && go build -o "$work/foreach" ./cmd/foreach && go build -o "$work/restartcheck" ./benchmarks/cmd/restartcheck)
table="$("$work/restartcheck" -foreach "$work/foreach" -kills "$kills")"
{
	echo "# Following across restarts, with the real logrotate"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it); $(logrotate --version 2>&1 | head -n1)"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION)"
	echo "- Command: \`KILLS=$kills benchmarks/follow-restart.sh\`; files in $(df -T "${TMPDIR:-/tmp}" | awk 'NR==2 {print $2}')"
	echo "- Load average as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "Library: 1,000 records; a program follows the log with follow.Open, stops after 400"
	echo "keeping its Checkpoint's text; while it is stopped, 100 records are written before each"
	echo "of 1 to 3 forced logrotate runs and 100 after the last; it resumes from the text. Every"
	echo "record after the checkpoint must come once (*lost*: never; *duplicated*: more than once;"
	echo "*partial*: a line that is not a whole record)."
	echo
	echo "Command: a writer appends a record every millisecond (reopening the file for each, as"
	echo "a logger told to reopen does); logrotate (create, dateext, compress, delaycompress; or"
	echo "copytruncate) runs every 1.1 s; \`foreach -f --state FILE\` is killed with SIGKILL at"
	echo "a random time in the range shown after its start (the first run once it has saved its"
	echo "state: a run killed before has nothing to restart from) and started again, every third"
	echo "time after a 1.2 s pause in which a rotation comes; at the end a last run prints the"
	echo "rest and is ended with SIGTERM. *out of order*: records a run printed after a later"
	echo "one. *duplicated* records are those printed after the last save before a kill, printed"
	echo "again by the next run (the state is saved at least once a second). Round 4 lost"
	echo "records when kills came before its first save (issue 38: 1,120 to 2,400 in 4 of 13"
	echo "runs of 10 kills; 17,360 of 91,920 with every kill within 0.6 s of a start), and"
	echo "printed copytruncate's copies out of order."
	echo
	echo "$table"
} >"$work/follow-restart.md"
cat "$work/follow-restart.md"
keep_results "$rev" "$work/follow-restart.md"
