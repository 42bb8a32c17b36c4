#!/usr/bin/env bash
# Reads every .gz file of the machine of 64 KiB or more with internal/pgzip, the
# speculative parallel decoder, in chunks of 16 and 64 KiB (so that every one is split),
# and compares each with decompress.NewReader (bytes and error, exactly) and with
# gzip -dc (internal/pgzip's TestMachineFiles with PGZIP_SWEEP=all: the suite itself
# takes a sample). The roots searched are /usr/share, /usr/lib, /usr/local, /opt, the Go
# module cache and GOROOT. Prints each file's chunks and how many were used, and the
# number of files and bytes; fails on any difference.
#
#   benchmarks/pgzip-sweep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PGZIP_SWEEP=all go test -count=1 -run '^TestMachineFiles$' -v -timeout 60m ./internal/pgzip |
	grep -E 'machine_test|^(--- |ok|FAIL)'
