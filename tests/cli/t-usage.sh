#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Usage errors exit 2 with usage text; --help exits 0; the command table
# and each subcommand's help agree.
. "$(dirname "$0")/lib.sh"

expect 2 'usage: ktprof' 
expect 2 'unknown command' frobnicate
expect 0 "" --help
for cmd in record import info dump report convert diff mcp; do
	echo "$out" | grep -q "^  $cmd " || fail "--help lacks $cmd"
done
for cmd in record import dump report convert diff mcp; do
	expect 0 "" "$cmd" --help
	echo "$out" | grep -q "usage: ktprof $cmd" || fail "$cmd --help: $out"
	expect 2 "usage: ktprof $cmd" "$cmd" --no-such-option
done
expect 2 'want a duration' record -d 10parsecs
expect 2 'want sched,irq' record -e bogus
expect 2 'scx needs sched' record -e scx
expect 2 'scx needs sched' record -e irq,scx,power
expect 2 'want a size' record -b lots
expect 2 '--clock sundial: want auto, boot or tsc' record --clock sundial
expect 2 '--prepare/--activate' record --activate tomorrow
# record --span names two of --probe's probes, in either order of the
# options; refused before the module is asked (exit 2, nothing written).
expect 2 "--span 'req=a,b': no probe named a" record -o "$T/span.ktp" --span req=a,b
expect 2 "--span 'req=a,b': no probe named b" record -o "$T/span.ktp" --probe a=k:vfs_read \
	--span req=a,b
expect 2 'two spans named req' record -o "$T/span.ktp" --span req=b,a --probe a=k:vfs_read \
	--probe b=kr:vfs_read --span req=a,b
expect 2 "--span 'req': want NAME=BEGIN,END" record -o "$T/span.ktp" --span req
expect 2 'not a twice' record -o "$T/span.ktp" --probe a=k:vfs_read --span r=a,a
[ ! -e "$T/span.ktp" ] || fail "record left a capture after refusing --span"
# A USDT probe is resolved from the file before the module is asked:
# probed has ktp:req_begin and ktp:req_end (tests/workloads/probed.c).
P=$TOP/build/workloads/probed
expect 2 "has no USDT probe ktp:nothing" record -o "$T/usdt.ktp" --probe "usdt:$P:ktp:nothing"
expect 2 "USDT ktp:req_end has 2 arguments: no arg3" record -o "$T/usdt.ktp" \
	--probe "usdt:$P:ktp:req_end x=arg3"
expect 2 "not a 64-bit ELF file" record -o "$T/usdt.ktp" --probe "usdt:$0:ktp:req_begin"
expect 2 "a uprobe has a user stack only" record -o "$T/usdt.ktp" \
	--probe "usdt:$P:ktp:req_begin stack=k"
[ ! -e "$T/usdt.ktp" ] || fail "record left a capture after refusing a USDT probe"
expect 2 '--method is iqr or mad' report --method median /tmp
expect 2 '--threshold wants RULE=VALUE' report --threshold runqueue /tmp
expect 2 '--threshold wants RULE=VALUE' report --threshold bogus=3 /tmp
expect 2 '--top wants a positive number' report --top 0 /tmp
expect 2 'choose one output form' report --json --html x.html /tmp
expect 2 '--folded goes with --profile or --offcpu alone' report --folded --cpu /tmp
expect 2 '--from must come before --to' report --from 2s --to 1s /tmp
expect 2 'usage: ktprof report' report
expect 1 'no cpuN files' report /tmp
echo ok
