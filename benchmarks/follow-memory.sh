#!/usr/bin/env bash
# A follower that runs for months: the follow package's TestFollowManyRotations with
# ROTATIONS rotations (unique names, the oldest beyond 5 moved to another directory, a
# record per file, each rotation made once the follower has yielded the record before
# it). Reports what the test logs (the bytes allocated per rotation in the first and
# the last tenth, the heap after the first tenth and at the end) and the process's CPU
# time and peak RSS (/usr/bin/time: the writer, in the same process, included). Writes
# benchmarks/results/follow-memory.md (and its history/ copy).
#
#   benchmarks/follow-memory.sh            # ROTATIONS=100000
#
# It measures exactly the commit HEAD (built from `git archive`); the CPU time is taken
# under `flock /tmp/foreach-bench.lock`.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

rotations="${ROTATIONS:-100000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go test -c -o "$work/follow.test" ./follow)
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$work/follow" && flock /tmp/foreach-bench.lock /usr/bin/time -f 'time: %U %S %M %e' -o "$work/time" \
	"$work/follow.test" -test.run '^TestFollowManyRotations$' -test.v -test.timeout 0 -rotations "$rotations") >"$work/test.out" 2>&1
read -r _ user sys rss wall <"$work/time"
logged="$(grep -o '[0-9]* rotations: .*' "$work/test.out")"
{
	echo "# A follower after many rotations"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it), $(nproc) cores, $(go env GOVERSION), $(uname -sr)"
	echo "- Command: \`ROTATIONS=$rotations benchmarks/follow-memory.sh\`; files in $(df -T "$work" | awk 'NR==2 {print $2}')"
	echo "- Load average before: $load_before; as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "TestFollowManyRotations: a log rotated $rotations times with unique names (dateext), the"
	echo "oldest beyond 5 moved to another directory (olddir), one record per file, each rotation"
	echo "made once the follower has yielded the record before it; what the follower remembers of"
	echo "the files beside the name is checked to stay bounded every tenth of the run."
	echo
	echo "| rotations | wall | CPU (user + system) | CPU per rotation | peak RSS | the test's log |"
	echo "|---:|---:|---:|---:|---:|---|"
	awk -v n="$rotations" -v u="$user" -v s="$sys" -v m="$rss" -v w="$wall" -v l="$logged" \
		'BEGIN { printf "| %d | %.1f s | %.1f s | %.0f us | %.1f MiB | %s |\n", n, w, u + s, (u + s) / n * 1e6, m / 1024, l }'
} >"$work/follow-memory.md"
keep_results "$rev" "$work/follow-memory.md"
cat "$work/follow-memory.md"
