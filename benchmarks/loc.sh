#!/usr/bin/env bash
# Lines of product code against lines of measurement code (non-test .go files), as a
# Markdown table on standard output.
#
#   benchmarks/loc.sh            # the working tree
#   benchmarks/loc.sh COMMIT     # a commit (git archive of it), e.g. to compare before and after
#
# Product: the command and the packages a program imports (cmd/, linereader/, bytelist/,
# follow/, parallel/, every other top-level package of the module, and internal/ less what
# only measurement or only tests use). Measurement: benchmarks/ (its programs and the
# scripts), scripts/ (merged into benchmarks/ in round 5), testdata/gen (the corpus
# generator), tools/plot, beam/bench, and the internal packages that serve only
# measurement. "lines" counts every line; "code" leaves out blank lines and lines that are
# only a comment.
set -euo pipefail
cd "$(dirname "$0")/.."

# Top-level directories that are not product, whatever they hold.
not_product="benchmarks scripts testdata tools beam docs"

root=.
label="the working tree"
if [ $# -gt 0 ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	git archive "$1" | tar -x -C "$work"
	root=$work
	label="commit $(git rev-parse --short=12 "$1")"
fi

# internal/ says by its folders what serves only measurement (internal/measure: foreach
# bench's contenders and corpora, the CPU clock of the suites) and what only tests
# (internal/testkit); the rest of internal/ is product.
measurement_internal=$(cd "$root" 2>/dev/null && ls -d internal/measure/*/ 2>/dev/null | sed 's#/$##' | tr '\n' ' ')
test_internal=$(cd "$root" 2>/dev/null && ls -d internal/testkit/*/ 2>/dev/null | sed 's#/$##' | tr '\n' ' ')

# count prints "files lines code" for the non-test .go files under the given paths of
# root; a path that does not exist counts nothing. A path ending in .go is one file.
count() {
	local paths=() p
	for p in "$@"; do
		[ -e "$root/$p" ] && paths+=("$root/$p")
	done
	if [ ${#paths[@]} -eq 0 ]; then
		echo "0 0 0"
		return
	fi
	find "${paths[@]}" -name '*.go' ! -name '*_test.go' -type f -print0 |
		xargs -0 -r awk '
			FNR == 1 { files++ }
			{ lines++ }
			/^[[:space:]]*$/ || /^[[:space:]]*\/\// { next }
			{ code++ }
			END { printf "%d %d %d\n", files, lines, code }' |
		awk '{ print } END { if (NR == 0) print "0 0 0" }'
}

# cmd_less_bench counts cmd/ without foreach bench's own file, which gets a row of its own.
cmd_less_bench() {
	local files lines code bf bl bc
	read -r files lines code < <(count cmd)
	read -r bf bl bc < <(count cmd/foreach/bench.go)
	echo "$((files - bf)) $((lines - bl)) $((code - bc))"
}

internal_product=()
for d in "$root"/internal/*/; do
	d=${d%/}
	d=internal/${d##*/}
	case $d in internal/measure | internal/testkit) continue ;; esac
	internal_product+=("$d")
done
other_product=()
for d in "$root"/*/; do
	d=${d%/}
	d=${d##*/}
	case " cmd linereader bytelist follow parallel internal $not_product " in *" $d "*) continue ;; esac
	[ -n "$(find "$root/$d" -name '*.go' ! -name '*_test.go' -print -quit)" ] && other_product+=("$d")
done

total_files=0 total_lines=0 total_code=0
row() { # row PART WHERE FILES LINES CODE
	printf '| %s | %s | %d | %d | %d |\n' "$1" "$2" "$3" "$4" "$5"
	total_files=$((total_files + $3)) total_lines=$((total_lines + $4)) total_code=$((total_code + $5))
}
total() {
	printf '| **%s** | | **%d** | **%d** | **%d** |\n' "$1" "$total_files" "$total_lines" "$total_code"
	eval "$2_lines=$total_lines $2_code=$total_code"
	total_files=0 total_lines=0 total_code=0
}

echo "Non-test .go files of $label."
echo
echo "| part | where | files | lines | code |"
echo "|---|---|---:|---:|---:|"
row product "cmd/ (less cmd/foreach/bench.go)" $(cmd_less_bench)
row product "cmd/foreach/bench.go (foreach bench)" $(count cmd/foreach/bench.go)
for d in linereader bytelist follow parallel "${other_product[@]}"; do
	row product "$d/" $(count "$d")
done
row product "internal/ ($(echo "${internal_product[@]#internal/}" | tr ' ' ','))" $(count "${internal_product[@]}")
total product product
row measurement "benchmarks/" $(count benchmarks)
row measurement "scripts/" $(count scripts)
row measurement "testdata/gen" $(count testdata/gen)
row measurement "tools/plot" $(count tools/plot)
row measurement "beam/bench" $(count beam/bench)
for d in $measurement_internal; do
	row measurement "$d" $(count "$d")
done
total measurement measurement
row "test helpers" "$(echo $test_internal | tr ' ' ',')" $(count $test_internal)
row "the Beam module" "beam/ less beam/bench" $(cd "$root" && find beam -name '*.go' ! -name '*_test.go' ! -path 'beam/bench/*' -print0 | xargs -0 -r awk '
	FNR == 1 { files++ } { lines++ } /^[[:space:]]*$/ || /^[[:space:]]*\/\// { next } { code++ }
	END { printf "%d %d %d\n", files, lines, code }')
echo
awk -v pl="$product_lines" -v ml="$measurement_lines" -v pc="$product_code" -v mc="$measurement_code" 'BEGIN {
	printf "Measurement is %.0f%% of product and measurement lines together (%.0f%% of code lines).\n",
		100 * ml / (pl + ml), 100 * mc / (pc + mc) }'
