#!/usr/bin/env bash
# Times the foreach command against the tools people would otherwise use, with hyperfine,
# on a generated tall file in the page cache (default 128MiB; SIZE overrides), and writes
# benchmarks/results/cli.md. Needs hyperfine (apt-get install hyperfine); ruby and
# python3 are compared when present.
#
#   benchmarks/cli.sh              # SIZE=128MiB RUNS=10
set -euo pipefail
cd "$(dirname "$0")/.."

size="${SIZE:-128MiB}"
runs="${RUNS:-10}"
command -v hyperfine >/dev/null || { echo "cli.sh: hyperfine is needed (apt-get install hyperfine)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/foreach" ./cmd/foreach
go run ./testdata/gen --shape tall --size "$size" -o "$work/tall.txt"
f="$work/tall.txt"
cat "$f" >/dev/null # into the page cache
cat >"$work/read.py" <<'PY'
import sys
for line in open(sys.argv[1], 'rb'):
    pass
PY

others=()
command -v ruby >/dev/null && others+=("ruby -e 'IO.foreach(ARGV[0]){}' $f")
command -v python3 >/dev/null && others+=("python3 $work/read.py $f")

out=benchmarks/results/cli.md
mkdir -p benchmarks/results
{
	echo "# foreach command vs other tools"
	echo
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION)"
	echo "- Data: \`go run ./testdata/gen --shape tall --size $size\` ($(wc -c <"$f") bytes, $(wc -l <"$f") lines), in the page cache; output to /dev/null"
	echo "- Command: \`benchmarks/cli.sh\` (hyperfine, $runs runs after 2 warm-ups)"
	echo
	echo "## Counting: foreach -c vs wc -l"
	echo
	hyperfine -N -w 2 -r "$runs" --output=null --export-markdown "$work/count.md" \
		"wc -l $f" "$work/foreach -c $f" "$work/foreach -c -j1 $f" >/dev/null
	sed "s#$work/##g" "$work/count.md"
	echo
	echo "## Copying: foreach FILE vs cat FILE"
	echo
	hyperfine -N -w 2 -r "$runs" --output=null --export-markdown "$work/copy.md" \
		"cat $f" "$work/foreach $f" >/dev/null
	sed "s#$work/##g" "$work/copy.md"
	echo
	echo "## Reading every line: foreach vs Ruby's IO.foreach and Python's for line in f"
	echo
	echo "(foreach -n numbers every line, so it takes the record-by-record loop; plain foreach passes runs of whole lines on; -c counts separators.)"
	echo
	hyperfine -N -w 1 -r "$(( runs < 5 ? runs : 5 ))" --output=null --export-markdown "$work/langs.md" \
		"$work/foreach -c -j1 $f" "$work/foreach $f" "$work/foreach -n $f" "${others[@]}" >/dev/null
	sed "s#$work/##g" "$work/langs.md"
} >"$out"
cat "$out"
