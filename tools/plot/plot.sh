#!/usr/bin/env bash
# Draws the performance pictures from the committed results: builds tools/plot (its own
# module, so that the plotting library never weighs on the core module) and runs it in the
# repository root, where every path it is given, and each of its defaults, is taken from.
#
#   tools/plot/plot.sh                  # docs/performance.png and docs/cli.png
#   tools/plot/plot.sh -results benchmarks/results/run.tsv -out docs/performance.png
#   tools/plot/plot.sh -h               # every flag
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
go -C "$here" build -o "$bin/plot" .
cd "$here/../.."
"$bin/plot" "$@"
