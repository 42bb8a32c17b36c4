#!/usr/bin/env bash
# The job as a distributed job: a standalone Prism job server (cmd/prism of the Beam Go
# SDK the module requires), and the job binary started again as its own worker, by an
# EXTERNAL worker pool (the SDK's boot loader, container/, with --worker_pool) and as
# PROCESS workers (the boot loader started by Prism for each worker). Every run's
# records report and summary are checked against the input's exact counts, with small
# sections so that Prism has sections to split.
#
#   bash beam/prism.sh              # RUNS=3 runs in each environment
#   RUNS=40 bash beam/prism.sh      # the check of the summary under dynamic splits
#
# The job is given --worker_binary (itself): without it the universal runner compiles the
# job's source again for the workers.
#
# Prism's PROCESS environment passes --id='ID' with the quotes inside the argument, which
# the boot loader does not strip (it then asks the provision service for a worker id that
# does not exist): the PROCESS command is a small wrapper that removes them.
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT

echo "+ building prism, the boot loader and foreach-beam into $WORK"
go build -o "$WORK/prism" github.com/apache/beam/sdks/v2/go/cmd/prism
go build -o "$WORK/boot" github.com/apache/beam/sdks/v2/go/container
go build -o "$WORK/foreach-beam" ./cmd/foreach-beam

cat >"$WORK/boot-process" <<EOF
#!/usr/bin/env bash
args=()
for a in "\$@"; do
	case \$a in --id=\\'*\\') a=\${a#--id=\\'}; a=--id=\${a%\\'} ;; esac
	args+=("\$a")
done
exec "$WORK/boot" "\${args[@]}"
EOF
chmod +x "$WORK/boot-process"

mkdir -p "$WORK/in"
for f in a b c; do
	for ((i = 0; i < 3000; i++)); do echo "$f line $i of the input"; done >"$WORK/in/$f.txt"
done
printf 'no final newline' >>"$WORK/in/c.txt"
want_records=$((3 * 3000 + 1))
files=3
# A BGZF file, cut in sections of its text at its members (64 KiB of text each): the
# workers find its index from its structure.
if command -v bgzip >/dev/null; then
	for ((i = 0; i < 20000; i++)); do echo "d line $i of the compressed input"; done | bgzip -c >"$WORK/in/d.txt.gz"
	want_records=$((want_records + 20000))
	files=4
fi

# Prism, the pool and the boot loaders write their files (pipeline_options.json …) where
# they run: in the work directory, removed at the end.
cd "$WORK"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() {
	for ((i = 0; i < 300; i++)); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	echo "nothing listens on $1 after 30 s" >&2
	return 1
}

job_port=$(free_port)
"$WORK/prism" --job_port="$job_port" --web_port="$(free_port)" --serve_http=false --log_level=warn >"$WORK/prism.log" 2>&1 &
pids+=($!)
wait_port "$job_port"

# The worker pool listens on port 50000 (fixed by the boot loader).
"$WORK/boot" --worker_pool >"$WORK/pool.log" 2>&1 &
pids+=($!)
wait_port 50000

check() { # environment, run, extra flags...
	local env=$1 run=$2
	shift 2
	local out="$WORK/out/$env-$run"
	if ! timeout 300 "$WORK/foreach-beam" --input "$WORK/in/*.txt*" --output "$out" --section-size 4KiB \
		--runner=universal --endpoint="localhost:$job_port" --worker_binary="$WORK/foreach-beam" "$@" >"$WORK/stdout" 2>"$WORK/stderr"; then
		echo "FAIL $env run $run: the job failed:"
		cat "$WORK/stderr"
		return 1
	fi
	local got
	got=$(awk -F'\t' '{s += $2} END {print s}' "$out-records.tsv")
	if [ "$got" != "$want_records" ] || ! grep -q "^foreach-beam: $files files, $want_records records in" "$WORK/stdout"; then
		echo "FAIL $env run $run: records report sums to $got, want $want_records; summary: $(cat "$WORK/stdout")"
		return 1
	fi
}

failed=0
for env in EXTERNAL PROCESS; do
	case $env in
	EXTERNAL) flags=(--environment_type=EXTERNAL --environment_config=localhost:50000) ;;
	PROCESS) flags=(--environment_type=PROCESS "--environment_config={\"command\": \"$WORK/boot-process\"}") ;;
	esac
	ok=0
	for ((run = 1; run <= RUNS; run++)); do
		if check "$env" "$run" "${flags[@]}"; then ok=$((ok + 1)); else failed=$((failed + 1)); fi
	done
	echo "$env: $ok of $RUNS runs exact ($want_records records in $files files, 4 KiB sections)"
done

# Nothing the jobs started may outlive them: once a job has finished, neither Prism nor
# the worker pool has a process left (the workers, and the boot loaders that started them).
left=""
for ((i = 0; i < 100; i++)); do
	# A zombie (Z) has exited: the worker pool's boot loader does not reap the loaders it
	# started, which the pool's own exit does.
	left=$(for p in "${pids[@]}"; do ps -o pid=,stat= --ppid "$p" | awk '$2 !~ /^Z/ {print $1}'; done)
	[ -z "$left" ] && break
	sleep 0.1
done
if [ -n "$left" ]; then
	echo "FAIL: processes left running 10 s after the last job:"
	ps -o pid,args -p "$(echo $left | tr ' ' ',')"
	failed=$((failed + 1))
else
	echo "no process left by the jobs"
fi
echo "$((2 * RUNS + 1 - failed)) passed, $failed failed"
[ "$failed" = 0 ]
