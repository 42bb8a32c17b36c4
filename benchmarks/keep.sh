# Sourced, not run, by every benchmarks/*.sh that keeps what it measured (after its cd to
# the repository's root): the one place that says where results go.
#
#   keep_results COMMIT FILE...
#
# Each FILE (a report, raw data) becomes benchmarks/results/SCRIPT.EXT, the latest run of
# the script, and benchmarks/results/history/SCRIPT-COMMIT.EXT, the run of that commit:
# SCRIPT is the running script's name without .sh, EXT the FILE's own extension, COMMIT
# the commit measured as the script names it (a later run of the same commit replaces
# it). benchmarks/results/README.md lists the files.
keep_results() {
	local commit=$1 script f ext
	shift
	script=$(basename "$0" .sh)
	mkdir -p benchmarks/results/history
	for f in "$@"; do
		ext=${f##*.}
		cp "$f" "benchmarks/results/$script.$ext"
		cp "$f" "benchmarks/results/history/$script-$commit.$ext"
		echo "wrote benchmarks/results/$script.$ext and benchmarks/results/history/$script-$commit.$ext" >&2
	done
}
