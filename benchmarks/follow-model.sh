#!/usr/bin/env bash
# The model-based test of `foreach -f --state` (cmd/foreach's TestFollowModel) for long
# runs: for each rotation scheme (create with numbered shifting, dateext, compress,
# delaycompress, copytruncate, a mixture), SCHEDULES random schedules of STEPS steps of
# writes cut anywhere, rotations, SIGSTOP/SIGCONT, SIGKILL (a third of the starts killed
# within 100 ms) and restarts, each checked against the model: records lost, printed in
# part, printed out of order within a run, printed again after a kill (against what the
# kill allows: what the run printed in the 2.5 s before it). Writes
# benchmarks/results/follow-model.md and follow-model.tsv (one line per schedule), and
# their history/ copies. The seeds are SEED, SEED+1, ...: a failing schedule is run again
# with `go test ./cmd/foreach -run 'TestFollowModel/SCHEME/seed=N' -args -model.seed=N`.
# MANY schedules over many files (TestFollowModelMany, issue 44: several logs followed by
# a pattern that matches their rotated files too, each rotated in a scheme drawn at each
# rotation, logs created and deleted) run too, as the row "many"; one fails again with
# `go test ./cmd/foreach -run 'TestFollowModelMany/many/seed=N' -args -model.seed=N`.
#
#   benchmarks/follow-model.sh            # SCHEDULES=20 STEPS=120 SEED=1000 MANY=20
#
# It measures exactly the commit HEAD (built from `git archive`). Counts, not timings: a
# busy machine makes the runs slower and the saves later, not the counts wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
. benchmarks/keep.sh

schedules="${SCHEDULES:-20}"
steps="${STEPS:-120}"
seed="${SEED:-1000}"
many="${MANY:-20}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

rev="$(git rev-parse --short=12 HEAD)"
git archive --format=tar HEAD | tar -x -C "$work" -f -
(cd "$work" && go test -c -o "$work/foreach.test" ./cmd/foreach)
start=$(date +%s)
: >"$work/follow-model.tsv"
status=0
(cd "$work/cmd/foreach" && "$work/foreach.test" -test.run '^TestFollowModel(Many)?$' -test.timeout 0 -test.v \
	-model.schedules "$schedules" -model.steps "$steps" -model.seed "$seed" -model.many "$many" \
	-model.report "$work/follow-model.tsv") >"$work/test.out" 2>&1 || status=$?
elapsed=$(($(date +%s) - start))
{
	echo "# The model-based test of foreach -f --state"
	echo
	echo "- Commit: $rev (built from \`git archive\` of it), $(nproc) cores, $(go env GOVERSION), $(uname -sr)"
	echo "- Command: \`SCHEDULES=$schedules STEPS=$steps SEED=$seed MANY=$many benchmarks/follow-model.sh\`, wall time $((elapsed / 60))m$((elapsed % 60))s; files in $(df -T "$work" | awk 'NR==2 {print $2}')"
	echo "- Load average as it ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "- The test: $( ((status == 0)) && echo "passed" || echo "FAILED (exit status $status)")"
	echo
	echo "Each schedule: $steps random steps of writes (1 to 40 records, cut into writes of 1 to"
	echo "120 bytes anywhere), rotations in the scheme (a tick of the clock apart; the writer"
	echo "goes on with a renamed file for a while before it reopens the name; compress after the"
	echo "writer reopened, as postrotate then compress; rotated files beyond 4 deleted once"
	echo "printed), SIGSTOP and SIGCONT, SIGKILL and starts (a third of the starts killed within"
	echo "100 ms), then a last run ended with SIGTERM once it has printed the last record."
	echo "*lost*: records never printed by any run; *partial*: lines that are not a record;"
	echo "*out of order*: records a run printed after a later one; *duplicated*: records printed"
	echo "again by a run after a kill, against *allowed*: the lines the killed runs printed in the"
	echo "2.5 s before their kill (the state is saved at least once a second)."
	echo "The row *many* is the model over many files: \`foreach -f -H --state\` over a pattern matching"
	echo "three to six logs in one directory and their rotated files, each rotation of a log in a"
	echo "scheme drawn then, logs created and deleted (once all their records are printed); a line is"
	echo "*partial* too if it names another log than the one its record was written to, and *out of"
	echo "order* is counted per log."
	echo
	echo "| scheme | schedules | failed | records | lines printed | kills (early) | SIGSTOPs | rotations | lost | partial | out of order | duplicated | allowed | duplicated per kill |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	awk -F'\t' '
		{ s = $1; if (!(s in n)) order[++k] = s; n[s]++; fail[s] += ($16 == "fail"); rec[s] += $4; pr[s] += $5; kill[s] += $6; early[s] += $7; stop[s] += $8
		  m = split($9, r, ","); for (i = 1; i <= m; i++) { split(r[i], kv, "="); rot[s] += kv[2]; byscheme[kv[1]] += kv[2] }
		  lost[s] += $10; part[s] += $11; dup[s] += $12; bound[s] += $13; ooo[s] += $14 }
		END { for (i = 1; i <= k; i++) { s = order[i]
			printf "| %s | %d | %d | %d | %d | %d (%d) | %d | %d | %d | %d | %d | %d | %d | %.0f |\n", s, n[s], fail[s], rec[s], pr[s], kill[s], early[s], stop[s], rot[s], lost[s], part[s], ooo[s], dup[s], bound[s], kill[s] ? dup[s] / kill[s] : 0 }
			printf "\nRotations by scheme over all schedules:"; sep = " "
			for (sc in byscheme) { printf "%s%s %d", sep, sc, byscheme[sc]; sep = ", " }
			print "." }' "$work/follow-model.tsv"
	if ((status != 0)); then
		echo
		echo "Failures:"
		echo
		echo '```'
		grep -E -- '--- FAIL|never printed|printed record|not a record|more than the' "$work/test.out" | head -n 40
		echo '```'
	fi
} >"$work/follow-model.md"
keep_results "$rev" "$work/follow-model.md" "$work/follow-model.tsv"
cat "$work/follow-model.md"
exit "$status"
