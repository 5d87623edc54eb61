#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof top's full-screen view in a pseudo-terminal (tests/lib/top_tty.py
# reads the screen as an xterm would show it): a replay of known captures
# at -d 0.2, its views (sched_ext's DSQs on scx.scn), sorts and filter, q,
# SIGINT and SIGTERM (exit 0, like top(1) and ktprof record, with the
# terminal as it was), a resize, pause, and the terminals it refuses.
. "$(dirname "$0")/lib.sh"

tty=$TOP/tests/lib/top_tty.py
"$GEN" -t "$TOP/tests/report/basic.scn" -o "$T/basic.ktp" || fail "gen-capture basic failed"
"$GEN" -n 20000 -c 4 -s 1 -o "$T/gen.ktp" || fail "gen-capture gen failed"
"$GEN" -t "$TOP/tests/report/scx.scn" -o "$T/scx.ktp" || fail "gen-capture scx failed"
basic=("$KTPROF" top --replay "$T/basic.ktp" -d 0.2)
gen=("$KTPROF" top --replay "$T/gen.ktp" -d 0.2)

# One scenario of the driver; its own lines on failure.
scenario() {	# NAME ARGS... -- COMMAND...
	local name=$1 out
	shift
	out=$(timeout 120 python3 "$tty" "$name" "$@" 2>&1) ||
		fail "top_tty $name $*: $out"
	printf '%s\n' "$out"
}

# basic.scn: a (pid 100) ran 8400 ns, b (200) 5800, a-worker (101) 600.
scenario views -- "${basic[@]}"
# scx.scn: DSQ 5 and the local DSQs of CPUs 0 and 1 in the sched_ext view.
scenario views --expect-dsq LOCAL --expect-dsq 0x5 -- "$KTPROF" top --replay "$T/scx.ktp" -d 0.2
scenario sort --expect-order R=a,b,a-worker --expect-order N=a,a-worker,b \
	--expect-order X=b,a,a-worker -- "${basic[@]}"
scenario filter --filter worker --expect-rows a-worker -- "${basic[@]}"
scenario filter --filter 200 --expect-rows b -- "${basic[@]}"
# 64 threads on 4 CPUs: a full screen of rows, sorted and filtered.
scenario views --size 100x30 -- "${gen[@]}"
scenario sort -- "${gen[@]}"
scenario filter --filter task-1 -- "${gen[@]}"
scenario quit --size 60x12 -- "${gen[@]}"
scenario sigint -- "${gen[@]}"
scenario sigterm -- "${gen[@]}"
scenario resize -- "${gen[@]}"
scenario pause -- "${gen[@]}"

# Refused, before the terminal is touched: too small, an unknown or a dumb TERM.
scenario refuse --size 20x10 \
	--expect-err 'ktprof top: the terminal is 20x10: ktprof top needs 60x12 at least \(or use --batch\)' \
	-- "${gen[@]}"
scenario refuse --size 59x30 --expect-err 'is 59x30: ktprof top needs 60x12' -- "${gen[@]}"
scenario refuse --term no-such-terminal --expect-err 'TERM=no-such-terminal is unknown' -- "${gen[@]}"
scenario refuse --term dumb --expect-err 'TERM=dumb cannot move its cursor \(or use --batch\)' -- "${gen[@]}"
# Not a terminal at all: --batch is the way.
expect 1 'standard input is not a terminal: use --batch' top --replay "$T/gen.ktp" </dev/null
scenario refuse --stdout-null --expect-err 'standard output is not a terminal: use --batch' \
	-- "${gen[@]}"
echo ok
