#!/usr/bin/env bash
# The truncation sweep (issue 43): every format's files, made by the tools, cut at
# POINTS places each (text, and text then noise, which the compressors store as it is),
# and at each cut the sequential reader compared with the format's own decompressor on
# the same bytes: it must yield every byte the tool yields, only bytes of the input, then
# "unexpected end of data". The test in CI cuts at 6-16 places; this runs the same test
# with many more. Needs the tools (gzip bzip2 xz zstd lz4); a missing one is skipped.
#
#   benchmarks/truncation.sh             # 200 cuts per file
#   POINTS=1000 benchmarks/truncation.sh
set -euo pipefail
cd "$(dirname "$0")/.."
POINTS=${POINTS:-200}
FOREACH_TRUNCATION_POINTS=$POINTS go test -count=1 -timeout 2h -run 'TestTruncatedAsTools' -v ./internal/decompress/ |
	grep -E '^(=== RUN|--- |ok|FAIL|PASS)|cuts; at|fewer|known' || true
