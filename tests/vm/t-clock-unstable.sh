#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A kernel that does not trust its TSC (booted with tsc=unstable): the
# module stamps records with boot time under `auto`, and refuses `tsc`
# with its reason (record: the message and a non-zero exit, before any
# capture is written; the control file: an error, the reason in the log).
# vm-args: --append tsc=unstable
# kernels: 6.12 7.3 6.1
. "$(dirname "$0")/lib.sh"
out=$KTPROF_TEST_OUT

cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
[ "$cs" != tsc ] || fail "tsc=unstable left the TSC as the clocksource"
load_module clock=auto
ctl start
grep -qx 'clock=boot' "$KTPROF_DBG/meta" || fail "auto: $(grep clock "$KTPROF_DBG/meta")"
ctl stop
if "$KTPROF" record -q -S none -e sched --clock tsc -o "$out/tsc.ktp" -- true 2>"$out/tsc.err"; then
	fail "record --clock tsc ran on an unstable TSC"
fi
grep -q 'no TSC the kernel trusts' "$out/tsc.err" || fail "record --clock tsc: $(cat "$out/tsc.err")"
[ ! -e "$out/tsc.ktp" ] || fail "a refused session left a capture"
"$KTPROF" record -q -S none -e sched -o "$out/auto.ktp" -- true 2>"$out/auto.err" ||
	fail "record (auto) failed: $(cat "$out/auto.err")"
"$KTPROF" info "$out/auto.ktp" | grep -Eq '^  clock +boot$' || fail "auto: not boot time"
unload_module
load_module clock=tsc
if ctl start 2>/dev/null; then
	fail "the control file started a session with clock=tsc on an unstable TSC"
fi
dmesg | grep -q 'start failed: clock tsc: this machine has no TSC the kernel trusts' ||
	fail "no reason in the log: $(dmesg | tail -3)"
unload_module
echo "refused, and auto is boot time ($cs the clocksource)"
