#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sched_ext in the capture's metadata: a raw dump directory's copies of
# /sys/kernel/sched_ext at start and stop reach info and the report, and
# import carries them into the capture file; without them nothing is said.
. "$(dirname "$0")/lib.sh"

"$GEN" -n 20000 -c 2 -d "$T/raw" || fail "gen-capture -d failed"
expect 0 '' info "$T/raw"
! echo "$out" | grep -q sched_ext || fail "info speaks of sched_ext without data"
printf 'state=enabled\nops=scx_simple\nenable_seq=4\n' >"$T/raw/sched_ext.start"
printf 'state=disabled\nops=\nenable_seq=4\n' >"$T/raw/sched_ext.stop"
expect 0 '' info "$T/raw"
echo "$out" | grep -q 'sched_ext       start: enabled (scx_simple); stop: disabled' ||
	fail "info of the raw directory: $out"
expect 0 '' import "$T/raw" -o "$T/cap.ktp"
expect 0 '' info "$T/cap.ktp"
echo "$out" | grep -q 'sched_ext       start: enabled (scx_simple); stop: disabled' ||
	fail "info of the imported capture: $out"
expect 0 '' report --json "$T/cap.ktp"
echo "$out" | /usr/bin/python3 -c '
import json, sys
c = json.load(sys.stdin)["capture"]["sched_ext"]
sys.exit(0 if c["start"]["ops"] == "scx_simple" and c["stop"]["state"] == "disabled" and
         c["start"]["enable_seq"] == 4 else "bad: %s" % c)' || fail "report --json lacks sched_ext"
expect 0 '' report "$T/cap.ktp"
echo "$out" | grep -q 'sched_ext: enabled (scx_simple) at start, disabled at stop' ||
	fail "the report's header lacks sched_ext"
echo ok
