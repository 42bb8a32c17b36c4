#!/usr/bin/env bash
# The long run of the command's differential test (cmd/foreach/difftest_test.go,
# TestDiffAgainstTools): every mode against the tool it copies (cat, cat -n, grep -H,
# grep -Hn, grep -zHn, wc -l, tail -n, tail -z -n, tac, tac -s, zcat, xz -dc, bzcat,
# zstdcat, lz4cat), CASES random cases per mode from SEED, each through three --buffer
# sizes, compared byte for byte. Writes benchmarks/results/difftest.md (and a copy per
# commit in benchmarks/results/history/): per mode, the cases, the runs of the command
# and the input bytes, or the first difference (which names the seed and the case, to
# be run again with the same SEED).
#
#   benchmarks/difftest.sh                   # CASES=300, SEED from the clock
#   CASES=2000 SEED=1 benchmarks/difftest.sh
#   MODES='tac|tail' benchmarks/difftest.sh  # some modes only (go test -run's subtests)
#
# The suite (go test ./cmd/foreach) runs 8 cases per mode from seed 37, 2 under -race.
set -euo pipefail
cd "$(dirname "$0")/.."

cases="${CASES:-300}"
seed="${SEED:-$(date +%s)}"
modes="${MODES:-}"
commit="$(git rev-parse --short=12 HEAD)"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
start="$(date +%s)"
status=0
go test ./cmd/foreach -run "^TestDiffAgainstTools\$${modes:+/($modes)}" -count=1 -v -timeout 0 \
	-args -diff.cases="$cases" -diff.seed="$seed" >"$log" 2>&1 || status=$?
elapsed=$(($(date +%s) - start))
out=benchmarks/results/difftest.md
{
	echo "# The command against the tools it copies"
	echo
	echo "- Commit: $commit"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(uname -sr), $(go env GOVERSION); $(cat --version | head -n1), $(grep --version | head -n1), tac $(tac --version | head -n1 | sed 's/.*) //'), $(xz --version | head -n1), $(zstd --version 2>&1 | head -n1 | sed 's/^\*\*\* //; s/, by.*//'), $(lz4 --version 2>&1 | head -n1 | sed 's/^\*\*\* //; s/, by.*//')"
	echo "- Command: \`CASES=$cases SEED=$seed${MODES:+ MODES='$MODES'} benchmarks/difftest.sh\` (go test ./cmd/foreach -run TestDiffAgainstTools -args -diff.cases=$cases -diff.seed=$seed), $elapsed s"
	echo "- Load average (1, 5, 15 min): $load as it started, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) as it ended"
	echo
	echo "| mode | result |"
	echo "|:---|:---|"
	grep -E 'difftest_test.go:[0-9]+: .*: [0-9]+ cases, ' "$log" | sed -E 's/^ *difftest_test.go:[0-9]+: ([^:]+): (.*), no difference$/| `\1` | \2, no difference |/'
	if [ "$status" != 0 ]; then
		echo
		echo "The run failed (go test status $status):"
		echo
		echo '```'
		grep -vE '^(=== RUN|--- PASS|    --- PASS)' "$log" | grep -vE 'cases, .* no difference$' | head -n 60
		echo '```'
	fi
} >"$out"
mkdir -p benchmarks/results/history
cp "$out" "benchmarks/results/history/difftest-$commit.md"
cat "$out"
exit "$status"
