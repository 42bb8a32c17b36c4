# Sourced, not run, by every benchmarks/*.sh that times a command beside an outside tool
# (after its cd to the repository's root): the one way they time a command. It builds
# benchmarks/cmd/timeit, which runs each command as a whole process (a pipeline as
# `bash -c '…'`), times it from its start to the exit of what it waited for, with the CPU
# time of the process tree from wait4, and times every run by hyperfine too; the two must
# agree within AGREE (default 0.10) or the script stops, keeping nothing.
#
#   timeit_lock "$@"                 # the script again, under the machine's timing lock
#   timeit_build DIR                 # DIR/timeit, from the tree the script runs in
#   timeit_row OUT [FLAG...] CMD...  # timeit's flags and commands; writes OUT.json (every
#                                    # run) and OUT.md (its table), or stops the script
#
# ROUNDS, WARMUP and AGREE come from the environment when set. A machine that is busy
# while the script runs will make the two methods disagree, since they time different
# runs; AGREE=0.5 lets a run on a busy machine through to show that a script works, never
# for a published run (the report says which AGREE was used).
# timeit_lock "$@" (right after the cd): runs the script again under
# /tmp/foreach-bench.lock (flock), so that two timing runs on one machine never overlap.
# Run as `flock /tmp/foreach-bench.lock SCRIPT`, it sees that the lock is its parent's and
# does not wait for it.
timeit_lock() {
	local lock=/tmp/foreach-bench.lock parent
	[ -z "${FOREACH_BENCH_LOCKED:-}" ] || return 0
	export FOREACH_BENCH_LOCKED=1
	parent="$(ps -o args= -p "$PPID" 2>/dev/null || true)"
	case "$parent" in
	flock*"$lock"*) return 0 ;;
	esac
	exec flock "$lock" "$0" "$@"
}

timeit_build() {
	TIMEIT="$1/timeit"
	go build -o "$TIMEIT" ./benchmarks/cmd/timeit
}

timeit_row() {
	local out=$1 status=0
	shift
	"$TIMEIT" -rounds "${ROUNDS:-5}" -warmup "${WARMUP:-1}" -agree "${AGREE:-0.10}" -json "$out.json" "$@" >"$out.md" || status=$?
	if [ "$status" != 0 ]; then
		cat "$out.md" >&2
		echo "$(basename "$0"): the timing above failed (status $status); nothing is kept" >&2
		exit 1
	fi
}

# timeit_note: the line every report gives about its timing method.
timeit_note() {
	echo "Timed by \`benchmarks/cmd/timeit\` (benchmarks/timeit.sh): each command a whole process (a pipeline run as \`bash -c\`), wall time from its start to the exit of what it waited for, CPU time (user + system) of the process tree from wait4; ROUNDS=${ROUNDS:-5} rounds after WARMUP=${WARMUP:-1}, the commands in an order rotated every round; medians. Every run was timed by hyperfine too (\`hyperfine -N -r 1\`, right after timeit's run or, every other round, right before it; both give each run an environment of random size), and every command's medians by the two agree within AGREE=${AGREE:-0.10}: the tables under \"Checked against hyperfine\"."
}
