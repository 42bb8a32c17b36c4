#!/usr/bin/env bash
# Times decompression on the 64 MiB tall and mixed corpora, each compressed by gzip, zstd,
# bzip2 and xz at the tool's default level, and writes benchmarks/results/compress.md:
#
#   1. with hyperfine, each tool's decompressor piped into wc -l against foreach -z -c on the
#      same file (the foreach rows are left out, with a note, while foreach --help does not
#      list -z);
#   2. the Go benchmarks of internal/decompress (BenchmarkDecode): this repository's reader
#      against klauspost/compress used directly and against the standard library's gzip.
#
# Needs gzip, zstd, bzip2, xz, hyperfine (apt-get install hyperfine) and python3 (to tabulate
# hyperfine's CPU times). The files are kept in $WORK (default: a temporary directory removed
# at the end). On a shared machine, name a lock file in LOCK: each timed step then runs under
# flock LOCK, so that no other measurement that takes the lock runs at the same time (the
# files are made outside it):
#
#   benchmarks/compress.sh                                  # RUNS=5 COUNT=6
#   LOCK=/tmp/foreach-bench.lock WORK=/tmp/compress benchmarks/compress.sh
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-5}"
count="${COUNT:-6}"
for tool in gzip zstd bzip2 xz hyperfine python3; do
	command -v "$tool" >/dev/null || { echo "compress.sh: $tool is needed" >&2; exit 1; }
done

if [ -n "${WORK:-}" ]; then
	work="$WORK"
	mkdir -p "$work"
else
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
go build -o "$work/foreach" ./cmd/foreach
go test -c -o "$work/decompress.test" ./internal/decompress
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- internal/decompress go.mod || echo '+changes')"

# Files: tall.txt and mixed.txt, and each compressed at the tool's default level.
for shape in tall mixed; do
	f="$work/$shape.txt"
	# Each file is written under a temporary name and renamed, so that an interrupted run
	# leaves no partial file behind for the next to take as made.
	[ -s "$f" ] || { go run ./testdata/gen --shape "$shape" --size 64MiB -o "$f.tmp" && mv "$f.tmp" "$f"; }
	[ -s "$f.gz" ] || { gzip -c "$f" >"$f.tmp" && mv "$f.tmp" "$f.gz"; }
	[ -s "$f.zst" ] || { zstd -q -c "$f" >"$f.tmp" && mv "$f.tmp" "$f.zst"; }
	[ -s "$f.bz2" ] || { bzip2 -c "$f" >"$f.tmp" && mv "$f.tmp" "$f.bz2"; }
	[ -s "$f.xz" ] || { xz -c "$f" >"$f.tmp" && mv "$f.tmp" "$f.xz"; }
	cat "$f"* >/dev/null # into the page cache
done

# timed CMD...: CMD, under flock $LOCK when LOCK is set.
timed() {
	if [ -n "${LOCK:-}" ]; then
		flock "$LOCK" "$@"
	else
		"$@"
	fi
}

if "$work/foreach" --help 2>&1 | grep -q -- '--decompress'; then
	with_z=1
else
	with_z=0
fi

# table FILE.json: hyperfine's results as a markdown table with CPU time (user+sys, children
# included) beside wall time.
table() {
	python3 - "$1" "$work/" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
strip = sys.argv[2]
base = min(r["median"] for r in res)
print("| Command | Median wall [ms] | Min [ms] | Max [ms] | User+sys [ms] | Wall vs fastest |")
print("|:---|---:|---:|---:|---:|---:|")
for r in res:
    cmd = r["command"].replace(strip, "").replace("|", "\\|")  # a pipe inside a table cell
    print(f"| `{cmd}` | {r['median']*1e3:.0f} | {r['min']*1e3:.0f} | {r['max']*1e3:.0f} | "
          f"{(r['user']+r['system'])*1e3:.0f} | {r['median']/base:.2f} |")
PY
}

out=benchmarks/results/compress.md
mkdir -p benchmarks/results
{
	echo "# Decompression: foreach's reader and the tools"
	echo
	echo "- Commit measured: $commit"
	echo "- Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores, $(go env GOOS)/$(go env GOARCH), $(go env GOVERSION)"
	echo "- Tools: $(gzip --version | head -1), zstd $(zstd -V | grep -o 'v[0-9.]*' | head -1), bzip2 $(bzip2 --help 2>&1 | head -1 | grep -o 'Version [0-9.]*' | cut -d' ' -f2), $(xz --version | head -1)"
	echo "- Data: \`go run ./testdata/gen --shape SHAPE --size 64MiB\`, compressed by each tool at its default level, in the page cache"
	echo "- Command: \`benchmarks/compress.sh\` (RUNS=$runs, COUNT=$count)"
	echo
	echo "| File | Bytes | Ratio |"
	echo "|:---|---:|---:|"
	for shape in tall mixed; do
		size=$(wc -c <"$work/$shape.txt")
		echo "| $shape.txt | $size | 1 |"
		for ext in gz zst bz2 xz; do
			c=$(wc -c <"$work/$shape.txt.$ext")
			echo "| $shape.txt.$ext | $c | $(python3 -c "print(f'{$c/$size:.3f}')") |"
		done
	done
	echo
	echo "## The tools' decompressors into wc -l, and foreach -z -c"
	echo
	if [ "$with_z" = 0 ]; then
		echo "(foreach -z -c rows skipped: this build's \`foreach --help\` does not list -z, --decompress.)"
		echo
	fi
	for shape in tall mixed; do
		f="$work/$shape.txt"
		for pair in "gz:gzip" "zst:zstd" "bz2:bzip2" "xz:xz"; do
			ext="${pair%%:*}" tool="${pair#*:}"
			cmds=("$tool -dc $f.$ext | wc -l")
			[ "$with_z" = 1 ] && cmds+=("$work/foreach -z -c $f.$ext")
			timed hyperfine -w 1 -r "$runs" --output=null --export-json "$work/h.json" "${cmds[@]}" >/dev/null
			echo "### $shape.txt.$ext"
			echo
			table "$work/h.json"
			echo
		done
	done
	echo "## Go: BenchmarkDecode (internal/decompress)"
	echo
	echo "Reading each file from memory through a 64 KiB buffer. \`decompress\` is this repository's"
	echo "reader; \`klauspost*\` the library used directly (\`-sync\`: one goroutine, as the reader"
	echo "uses it; \`-default\`: the library's default concurrency, decoding ahead on other"
	echo "goroutines); \`stdlib\` is compress/gzip. MB/s are decompressed bytes; cpu-ns/op is the"
	echo "process's user+sys time per decode. Medians of COUNT=$count alternating runs (benchstat)."
	echo
	echo '```'
	DECOMPRESS_BENCH_DIR="$work" timed "$work/decompress.test" -test.run '^$' -test.bench 'Decode' \
		-test.benchtime 2x -test.count "$count" >"$work/bench.txt"
	go tool benchstat -filter '.unit:(sec/op OR B/s OR cpu-ns/op)' "$work/bench.txt" | grep -v '^goos\|^goarch\|^pkg\|^cpu' | sed "s#$work/##g"
	echo '```'
} >"$out"
cat "$out"
