#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The man pages (ktprof help --man, scripts/man-module.sh) render without a
# warning, every command has one, every option of each `ktprof CMD --help`
# is in its page, and ktprof.ko(4) names every module parameter, debugfs
# file and stats counter the module's source declares.
. "$(dirname "$0")/lib.sh"
command -v man >/dev/null || fail "man (man-db) is not installed: scripts/setup.sh"

# Render $1 as man would show it; a groff or man warning fails the test.
render() {
	LC_ALL=C MANWIDTH=80 man --warnings -l "$1" >"$1.txt" 2>"$1.err" ||
		fail "man -l $1: $(cat "$1.err")"
	[ ! -s "$1.err" ] || fail "man -l $1 warns: $(cat "$1.err")"
}

# Every option of a usage text, one per line: -o and --output.
usage_opts() {
	sed -nE 's/^  (-[^ ,]), (--[a-z0-9-]+).*/\1\n\2/p; s/^      (--[a-z0-9-]+).*/\1/p'
}

run --help
cmds=$(printf '%s\n' "$out" | sed -nE 's/^  ([a-z]+) .*/\1/p')
[ -n "$cmds" ] || fail "no commands in ktprof --help"

run help --man
[ "$rc" = 0 ] || fail "help --man: exit $rc: $err"
printf '%s\n' "$out" >"$T/ktprof.1"
render "$T/ktprof.1"
for cmd in $cmds; do
	grep -q "^       $cmd " "$T/ktprof.1.txt" || grep -qx "       $cmd" "$T/ktprof.1.txt" ||
		fail "ktprof(1) lacks the command $cmd"
	case $cmd in help|version) continue ;; esac	# in ktprof(1) only
	grep -q "ktprof-$cmd(1)" "$T/ktprof.1.txt" || fail "ktprof(1) does not refer to ktprof-$cmd(1)"
	run help --man "$cmd"
	[ "$rc" = 0 ] || fail "help --man $cmd: exit $rc: $err"
	page=$T/ktprof-$cmd.1
	printf '%s\n' "$out" >"$page"
	render "$page"
	for sec in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS' 'SEE ALSO'; do
		grep -qx "$sec" "$page.txt" || fail "ktprof-$cmd(1) has no $sec section"
	done
	grep -q "^       ktprof-$cmd - " "$page.txt" || fail "ktprof-$cmd(1): bad NAME line"
	run "$cmd" --help
	opts=$(printf '%s\n' "$out" | usage_opts)
	[ -n "$opts" ] || fail "no options in ktprof $cmd --help"
	for o in $opts; do
		grep -Eq -- "(^|[ ,])$o([ ,]|\$)" "$page.txt" ||
			fail "ktprof-$cmd(1) lacks $o"
	done
done

"$TOP/scripts/man-module.sh" 0 >"$T/ktprof.ko.4" || fail "man-module.sh failed"
render "$T/ktprof.ko.4"
params=$(sed -nE 's/.*module_param[a-z_]*\(\s*([A-Za-z0-9_]+).*/\1/p' "$TOP"/kmod/*.c)
[ -n "$params" ] || fail "no module_param in kmod/"
for p in $params; do
	grep -Eq "^       $p \(" "$T/ktprof.ko.4.txt" || fail "ktprof.ko(4) lacks the parameter $p"
done
files=$(sed -nE 's/^\s*\{ "([a-z_]+)", 0[0-7]+, &ktp_.*/\1/p' "$TOP/kmod/control.c")
[ -n "$files" ] || fail "no debugfs files in kmod/control.c"
for f in $files cpuN; do
	grep -Eq "^ +$f( |\$)" "$T/ktprof.ko.4.txt" || fail "ktprof.ko(4) lacks the debugfs file $f"
done
counters=$(sed -nE 's/^\s*X\([A-Z_]+, *[0-9]+, *([a-z_]+), *".*/\1/p' "$TOP/kmod/include/uapi/ktprof_abi.h")
[ "$(printf '%s\n' "$counters" | wc -l)" -ge 10 ] || fail "no KTP_CPU_STATS() counters in ktprof_abi.h"
for c in $counters; do
	grep -Eq "^ +$c( |\$)" "$T/ktprof.ko.4.txt" || fail "ktprof.ko(4) lacks the counter $c"
done
echo ok
