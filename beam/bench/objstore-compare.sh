#!/usr/bin/env bash
# Reads one object on the fake S3 and GCS servers (gofakes3, fake-gcs-server, both in the
# test's process on 127.0.0.1) with foreachio, in 4 and in 16 sections, and with Beam's own
# textio, and writes what each pulled from the server and how long it took into
# beam/bench/objects-vs-textio.md: bytes sent and GETs counted at the server, wall and CPU
# time, for a 200 MiB plain object and its gzip. The runs alternate, in reverse order
# every other round. Not part of CI: about 4 minutes at the defaults on a 2-core machine
# shared with other work.
#
#   bash beam/bench/objstore-compare.sh                # ROUNDS=3 MIB=200
#   ROUNDS=1 bash beam/bench/objstore-compare.sh
#   MIB=40 OUT=/tmp/vs.md bash beam/bench/objstore-compare.sh   # a quick look
set -euo pipefail
OUT=${OUT:+$(realpath -m "$OUT")}
cd "$(dirname "$0")"

ROUNDS=${ROUNDS:-3}
MIB=${MIB:-200}
OUT=${OUT:-$PWD/objects-vs-textio.md}
LOCK=${LOCK:-/tmp/foreach-bench.lock}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

commit=$(git rev-parse --short HEAD)
if git status --porcelain -- .. ../../linereader ../../internal | grep -v -e '_test\.go$' -e 'objects-vs-textio\.md$' | grep -q .; then
	commit="$commit (with uncommitted changes)"
fi
sdk=$(go list -m -f '{{.Version}}' github.com/apache/beam/sdks/v2)

echo "+ building the test binary into $WORK"
go test -c -o "$WORK/objects.test" ./objects
load_before=$(uptime | sed 's/.*load average: //')
started=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "+ running (load average $load_before)"
/usr/bin/flock "$LOCK" /usr/bin/time -f '%e s wall, %U s user, %S s system, %M KiB peak RSS' -o "$WORK/time" \
	"$WORK/objects.test" -test.run '^TestVsTextio$' -test.v -test.timeout 30m \
	-vs.out "$WORK/tables.md" -vs.rounds "$ROUNDS" -vs.mib "$MIB" 2>&1 |
	grep -e 'round [0-9]*:' -e '^--- ' -e '^FAIL' -e '^ok' | tee "$WORK/log"
load_after=$(uptime | sed 's/.*load average: //')

{
	echo "# foreachio against textio on the fake object stores"
	echo
	echo "Made by \`ROUNDS=$ROUNDS MIB=$MIB bash beam/bench/objstore-compare.sh\` at commit $commit, $started, with the Beam Go SDK $sdk on Prism (in the test's process, loopback workers)."
	echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(go version | cut -d' ' -f3-)."
	echo "Load average (1, 5, 15 min) before the runs: $load_before; after: $load_after. The whole test process: $(cat "$WORK/time")."
	echo
	cat <<'EOF'
How it is measured: the servers run in the test's process on 127.0.0.1 (beam/internal/fakestore), each behind a handler that counts the bytes of the response bodies it sends ("sent": what a store would bill as egress), the GETs of the object's bytes (listings and metadata apart) and the requests with a Range header. textio reads through Beam's own `io/filesystem/s3` and `io/filesystem/gcs`, unchanged, pointed at the servers the way a user points them: `AWS_ENDPOINT_URL=http://127.0.0.1:PORT` (aws-sdk-go-v2's S3 endpoint rules address an IP endpoint path style, which gofakes3 serves) and `STORAGE_EMULATOR_HOST=127.0.0.1:PORT`; nothing is substituted. foreachio reads through beam/objstore, configured by the same variables.

Each run is one pipeline on Prism counting the object's records: `textio.Read` into a lifted count (textio's way), `foreachio.CountRecords` (the count taken inside each section) and `foreachio.ReadRecords` into the same count as textio (every record an element, as textio's are). foreachio's sections are set with `WithSectionSize(size / k)`. textio's split count cannot be set: its block size is a constant of the SDK (64 MiB, a last block of 16 MiB or less merged into the one before), so it cuts 200 MiB in 3 splits whatever is asked (its row says how many), and "expected" is what its rule predicts, each split read from byte 0 to its end (at 200 MiB: 64 + 128 + 200 MiB, 1.96×). textio opens the object once per restriction it processes, each open a GET without Range from byte 0 (the body closed once the restriction's end is passed: "sent" then includes what was in flight), so its GETs beyond its splits are residuals that Prism split off while it read, each read from byte 0 again; its row also gives the restrictions it processed, counted from its own log lines ("Reading from …", one per restriction, passed by Prism to the test's log); foreachio's GETs are its read windows (a residual of its is a new section with ranged GETs of its own). A gzip object is read whole, once, by foreachio; textio splits it by the same rule on its compressed size, decompresses each split from the start and takes the compressed offsets for offsets in the text, so it delivers only the records that start before the compressed size (and "expected" has no meaning there). foreachio's bound is the issue's goal, 1.05× the object plus 1 MiB per section. Wall and CPU are medians over the rounds; CPU is the whole process's (user + system: Prism, the workers, and both servers, whose share grows with the bytes they send); values that differed between rounds are listed in the order of the rounds (a value equal to the one before it left out). "÷ textio" compares with textio's run on the same object.
EOF
	cat "$WORK/tables.md"
	echo
	echo "Every run, in the order run:"
	echo
	echo '```'
	sed 's/^ *//' "$WORK/log"
	echo '```'
} >"$OUT"
echo "+ wrote $OUT"
