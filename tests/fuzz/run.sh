#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the libFuzzer harnesses of tests/fuzz/: each first on every bad input
# of issue 14 that fits it (tests/bad-input/, plus the ones
# tests/bad-input/make-inputs.sh makes), then fuzzing for SECONDS from its
# corpus in build/fuzz/corpus/NAME (seeded with what gen-capture makes,
# grown by every run). One PASS/FAIL line per step; a crash, a leak, a
# hang (-timeout) or an input over the memory limit is a FAIL, its input
# kept in build/fuzz/artifacts/.
# usage: tests/fuzz/run.sh [--seconds N] [NAME...]   (after make fuzz-bin)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# shellcheck source=tests/lib/common.sh
. tests/lib/common.sh
seconds=20
if [ "${1:-}" = --seconds ]; then
	seconds=$2
	shift 2
fi
[ $# -gt 0 ] || set -- capture render relay rawdir elf mcp probe-spec span-spec
fz=build/fuzz
gen=build/tools/gen-capture
pack=build/tools/fuzz-pack
mkdir -p "$fz/artifacts" "$fz/logs"
work=$(mktemp -d "${TMPDIR:-/tmp}/ktprof-fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Seeds, from gen-capture: small (the fuzzer mutates them fast), each
# feature there (samples, losses, IRQs, FILE and MAP records).
seed_corpora() {
	local c=$fz/corpus s dir f
	mkdir -p "$c/capture" "$c/render" "$c/relay" "$c/rawdir" "$c/elf" "$c/mcp"
	seed_probe_spec "$c/probe-spec" || return 1
	seed_span_spec "$c/span-spec" || return 1
	[ -e "$c/.seeded" ] && return 0
	"$gen" -S -o "$c/capture/scenario.ktp" &&
	"$gen" -S -u -o "$c/capture/scenario-stored.ktp" &&
	"$gen" -n 400 -c 2 -l 50 -o "$c/capture/gen400.ktp" &&
	"$gen" -n 400 -c 2 -l 50 -u -o "$c/capture/gen400-stored.ktp" &&
	"$gen" -k -n 400 -c 2 -l 50 -u -o "$c/capture/gen400-tsc.ktp" || return 1
	for s in tests/report/*.scn; do
		"$gen" -t "$s" -u -o "$c/capture/$(basename "$s" .scn).ktp" || return 1
	done
	for s in scenario gen400 irq probes tsc; do
		dir=$work/seed-$s
		case $s in
		scenario) "$gen" -S -d "$dir" ;;
		gen400) "$gen" -n 400 -c 2 -l 50 -d "$dir" ;;
		tsc) "$gen" -k -n 400 -c 2 -l 50 -d "$dir" ;;
		*) "$gen" -t tests/report/$s.scn -d "$dir" ;;
		esac || return 1
		"$pack" "$dir" "$c/rawdir/$s.pack" || return 1
		for f in "$dir"/cpu*; do
			cp "$f" "$c/relay/$s-$(basename "$f")" || return 1
		done
	done
	cp build/workloads/* "$c/elf/" || return 1
	cp "$c"/capture/* "$c/render/" || return 1
	# MCP: a session's calls of every tool on trace "a" (fuzz-mcp loads it).
	cp tests/bad-input/mcp-args.jsonl "$c/mcp/calls" || return 1
	touch "$c/.seeded"
}

# Probe lists: the scenarios' (the "probe" lines of tests/report/*.scn),
# and one probe of each kind and source. Its own mark: a corpus seeded
# before this harness existed has none.
seed_probe_spec() {	# DIR
	local d=$1
	mkdir -p "$d"
	[ -e "$d.seeded" ] && return 0
	sed -n 's/^probe //p' tests/report/*.scn >"$d/scenarios" &&
	printf '%s\n' 'a=k:vfs_read+0x8 x=%di:u8 y=%r15:x16' 'b=kr:f r=ret:s32' \
		'c=u:/bin/x:main s=arg1:str n=arg2:s64' 'd=ur:/lib/l.so:0x40 r=ret:ustr' \
		>"$d/kinds" && touch "$d.seeded"
}

# Probe and span lists: each scenario's with spans ("probe" lines, "--",
# "span" lines). Its own mark, as seed_probe_spec's.
seed_span_spec() {	# DIR
	local d=$1 s
	mkdir -p "$d"
	[ -e "$d.seeded" ] && return 0
	for s in $(grep -l '^span ' tests/report/*.scn); do
		{ sed -n 's/^probe //p' "$s"; echo --; sed -n 's/^span //p' "$s"; } \
			>"$d/$(basename "$s" .scn)" || return 1
	done
	touch "$d.seeded"
}

# The bad inputs, as files for each harness.
regressions() {
	local r=$work/regress d
	mkdir -p "$r/capture" "$r/render" "$r/relay" "$r/rawdir" "$r/elf" "$r/mcp" "$r/probe-spec" \
		"$r/span-spec"
	tests/bad-input/make-inputs.sh "$work/made" >/dev/null || return 1
	cp tests/bad-input/*.ktp "$work"/made/*.ktp "$r/capture/" || return 1
	cp "$r"/capture/* "$r/render/" || return 1
	# MCP sessions of issue 33 (NUL in names, ids, settings, bytes).
	cp tests/bad-input/mcp-*.jsonl "$r/mcp/" || return 1
	for d in tests/bad-input/rawdir-* tests/bad-input/fuzz-rawdir-* tests/bad-input/fuzz-relay-* "$work"/made/rawdir-*; do
		"$pack" "$d" "$r/rawdir/$(basename "$d").pack" || return 1
		[ -f "$d/cpu0" ] && [ ! -p "$d/cpu0" ] && cp "$d/cpu0" "$r/relay/$(basename "$d")-cpu0"
	done
	# ELF: empty, and a header cut short.
	: >"$r/elf/empty"
	head -c 100 build/workloads/ticker >"$r/elf/cut-header"
	# Probe lists that did not read back: a file offset 0 (written as
	# nothing), a symbol "0x10" (read back as an offset).
	printf 'u:/bin/x:0x0\n' >"$r/probe-spec/file-offset-0"
	printf 'u:/bin/x:0x10+0\n' >"$r/probe-spec/offset-symbol"
	# Span lists a reader must refuse whole: a probe the list lacks, a
	# span given twice, a span of one probe, no newline at the end.
	printf 'a=k:f\nb=kr:f\n--\nx=a,b\ny=a,c\n' >"$r/span-spec/unknown-probe"
	printf 'a=k:f\nb=kr:f\n--\nx=a,b\nx=b,a\n' >"$r/span-spec/twice"
	printf 'a=k:f\n--\nx=a,a\n' >"$r/span-spec/one-probe"
	printf 'a=k:f\nb=kr:f\n--\nx=a,b' >"$r/span-spec/no-newline"
}

# libFuzzer's options: a hang is an input taking 30 s (the machine may be
# busy: a slow input takes 1 s at most when it is not); 2 GB is a leak.
opts=(-timeout=30 -rss_limit_mb=2048 -print_final_stats=1
      "-artifact_prefix=$fz/artifacts/")
export KTPROF_FUZZ_ELF=$top/build/workloads/hotfuncs
# The trace fuzz-mcp's sessions have loaded as "a".
export KTPROF_FUZZ_CAPTURE=$work/mcp-trace.ktp

if ! seed_corpora || ! regressions || ! "$gen" -S -o "$KTPROF_FUZZ_CAPTURE"; then
	result_fail "fuzz/inputs: cannot make the corpora or the bad inputs"
	exit 0
fi

# One harness: its bad inputs, then its fuzzing; result lines on stdout.
run_harness() {	# NAME
	local name=$1 bin=$fz/fuzz-$1 log=$fz/logs/$1 n runs
	if [ ! -x "$bin" ]; then
		result_fail "fuzz/$name: $bin missing (make fuzz-bin)"
		return
	fi
	n=$(find "$work/regress/$name" -type f | wc -l)
	if "$bin" "${opts[@]}" "$work/regress/$name"/* >"$log.regress" 2>&1; then
		result_pass "fuzz/$name-bad-inputs ($n inputs)"
	else
		result_fail "fuzz/$name-bad-inputs"
		grep -E 'ERROR|SUMMARY|Running:|==' "$log.regress" | tail -n 20 | indent
	fi
	if "$bin" "${opts[@]}" -max_total_time="$seconds" "$fz/corpus/$name" >"$log.fuzz" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log.fuzz")
		result_pass "fuzz/$name (${seconds} s, ${runs:-?} runs, corpus $(ls "$fz/corpus/$name" | wc -l))"
	else
		result_fail "fuzz/$name (log: $log.fuzz)"
		grep -E 'ERROR|SUMMARY|Test unit written|^    #' "$log.fuzz" | tail -n 25 | indent
	fi
}

# A libFuzzer run keeps one core busy: a harness a core.
mkdir -p "$work/results"
run_ordered "$work/results" run_harness "$@"
