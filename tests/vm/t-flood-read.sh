#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Readers copying the relay files continuously during a flood never get an
# invalid or partial record; what is lost is reported and adds up.
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT
n=200000

guest() {
	load_module subbuf_size=8192 n_subbufs=4
	ctl start
	mkdir -p "$out/raw"
	for f in "$KTPROF_DBG"/cpu*; do
		( while [ ! -e "$out/.stop" ]; do cat "$f"; done >>"$out/raw/${f##*/}" ) &
	done
	flood=()
	"$WORKLOADS/sched-mix" -r 2000 -t 100 >/dev/null &
	flood+=($!)
	for cpu in $(seq 0 $(( $(nproc) - 1 ))); do
		taskset -c "$cpu" sh -c "echo $n > $KTPROF_DBG/selftest" &
		flood+=($!)
	done
	wait "${flood[@]}"
	nap 0.2
	ctl stop
	touch "$out/.stop"
	wait
	for f in "$KTPROF_DBG"/cpu*; do cat "$f" >>"$out/raw/${f##*/}"; done
	cat "$KTPROF_DBG/stats" | tee "$out/raw/stats"
	cat "$KTPROF_DBG/meta" >"$out/raw/meta"
	unload_module
}

host() {
	"$KTPROF" dump --json "$out/raw" >"$out/dump.json" 2>"$out/dump.err" || fail "dump failed"
	cat "$out/dump.err"
	if grep -v ' 0 sub-buffers missing, 0 bytes skipped as invalid, 0 bytes truncated$' \
		"$out/dump.err" | grep -q .; then
		fail "invalid, missing or partial data: $(cat "$out/dump.err")"
	fi
	/usr/bin/python3 "$(dirname "$0")/check_stream.py" --allow-loss "$out/dump.json" ||
		fail "stream check failed"
	# Per CPU: records decoded + records reported lost == records the module counted.
	/usr/bin/python3 - "$out/dump.json" "$out/raw/stats" <<'PY' || fail "loss accounting does not add up"
import json, re, sys
got, lost = {}, {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    c = e["cpu"]
    if e["type"] == "lost":
        lost[c] = lost.get(c, 0) + e["records"]
    elif e["type"] != "subbuf":
        got[c] = got.get(c, 0) + 1
for line in open(sys.argv[2]):
    m = re.match(r"cpu=(\d+) records=(\d+) .* lost=(\d+) ", line)
    if not m:
        continue
    c, rec, lo = int(m[1]), int(m[2]), int(m[3])
    print("cpu%d: module wrote %d, lost %d; decoded %d, reported lost %d"
          % (c, rec, lo, got.get(c, 0), lost.get(c, 0)))
    assert got.get(c, 0) == rec and lost.get(c, 0) == lo
PY
	echo ok
}

run_phases
