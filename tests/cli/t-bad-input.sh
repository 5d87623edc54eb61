#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bad inputs of issue 14 (tests/bad-input/, and what make-inputs.sh
# makes of the rest), through the binary built with ASan and UBSan: each
# gives a clear message and exit 1, or, where the input is valid, a clean
# result; never a sanitizer report, a hang or a write through a symlink.
. "$(dirname "$0")/lib.sh"
BAD=$TOP/tests/bad-input
KTPROF=$TOP/build/ktprof-san
[ -x "$KTPROF" ] || fail "$KTPROF missing (make tests-bin)"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

"$BAD/make-inputs.sh" "$T/made" >/dev/null || fail "make-inputs.sh failed"
M=$T/made

# expect, and no sanitizer report.
check() {
	expect "$@"
	! echo "$err" | grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' ||
		fail "ktprof ${*:3}: sanitizer report: $err"
}
# Exit 1 with the message from every reading command.
refused() {
	local input=$1 pattern=$2 cmd
	for cmd in info dump "dump --symbolize" "report --profile" "convert -o $T/x.pftrace"; do
		# shellcheck disable=SC2086
		check 1 "$pattern" $cmd "$input"
	done
	[ ! -e "$T/x.pftrace" ] || fail "convert wrote a trace of $input"
}

# 1: an empty uncompressed chunk (memcpy from NULL).
for f in empty-first-chunk empty-stream-chunk; do
	check 0 "" dump "$BAD/$f.ktp"
	check 0 "" report --profile "$BAD/$f.ktp"
done
refused "$BAD/empty-meta-chunk.ktp" 'empty-meta-chunk.ktp: damaged session metadata'

# 2: no samples at all (qsort of NULL).
check 0 "" report --profile --folded "$BAD/no-samples-valid.ktp"
[ -z "$out" ] || fail "folded profile of no samples: $out"
check 0 "" report --profile --folded "$BAD/rawdir-empty-cpus"

# 3: raw and stored lengths of an uncompressed chunk differ: said, once.
for f in meta stream; do
	refused "$BAD/$f-uncompressed-rawlen-mismatch.ktp" \
		"chunk [0-9]+\): stored uncompressed, but its raw and stored lengths differ"
	check 1 "" info "$BAD/$f-uncompressed-rawlen-mismatch.ktp"
	[ "$(echo "$err" | grep -c .)" = 1 ] || fail "info says it more than once: $err"
done

# 4: blank lines in kallsyms (each rescanned the rest of the run).
check 0 "" report --profile "$BAD/kallsyms-blank-lines-quadratic.ktp"
echo "$out" | grep -q 'do_syscall_64\|schedule' || fail "kernel frames not named: $out"
check 0 "" report --profile "$M/rawdir-blank-kallsyms"

# 5: a FIFO among a dump directory's files blocks nothing.
for n in cpu1 meta kallsyms stats; do
	check 1 "rawdir-fifo-$n/$n: not a regular file" import "$M/rawdir-fifo-$n" -o "$T/f.ktp"
	ls "$T" | grep -q '^f\.ktp' && fail "import of a FIFO left $(ls "$T" | grep '^f\.ktp')"
done
check 1 'rawdir-fifo-cpu1/cpu1: not a regular file' dump "$M/rawdir-fifo-cpu1"
check 1 'rawdir-fifo-meta/meta: not a regular file' info "$M/rawdir-fifo-meta"
check 1 'rawdir-fifo-kallsyms/kallsyms: not a regular file' report --profile "$M/rawdir-fifo-kallsyms"

# 6: the binary a FILE record names is a FIFO: not opened, said.
mkdir -p "$T/sym/tmp/ff" && mkfifo "$T/sym/tmp/ff/app"
check 0 'binaries could not be read' dump --symbolize --symfs "$T/sym" "$BAD/file-record-path-fifo.ktp"
check 0 "" report --profile --symfs "$T/sym" "$BAD/file-record-path-fifo.ktp"

# 7: nothing is written through a symlink, at a temporary name or the target.
"$GEN" -S -d "$T/raw" && "$GEN" -S -o "$T/s.ktp" || fail "gen-capture failed"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/out.ktp.part"
ln -s "$T/victim" "$T/tr.pftrace.part"
check 0 "" import "$T/raw" -o "$T/out.ktp"
check 0 'wrote' convert -o "$T/tr.pftrace" "$T/s.ktp"
[ "$(cat "$T/victim")" = precious ] || fail "the symlink's target was overwritten"
[ -f "$T/out.ktp" ] && [ ! -L "$T/out.ktp" ] && [ -f "$T/tr.pftrace" ] && [ ! -L "$T/tr.pftrace" ] ||
	fail "outputs are not regular files"
[ "$(stat -c %a "$T/out.ktp")" = 600 ] && [ "$(stat -c %a "$T/victim")" = 644 ] ||
	fail "modes: capture $(stat -c %a "$T/out.ktp"), victim $(stat -c %a "$T/victim")"
ln -s "$T/victim" "$T/link.ktp"
check 1 'link.ktp: not a regular file' import "$T/raw" -o "$T/link.ktp"
check 1 'link.ktp: not a regular file' convert -o "$T/link.ktp" "$T/s.ktp"
[ -L "$T/link.ktp" ] && [ "$(cat "$T/victim")" = precious ] || fail "a symlink target was replaced"
mkfifo "$T/fifo.pftrace"
check 1 'fifo.pftrace: not a regular file' convert -o "$T/fifo.pftrace" "$T/s.ktp"
ls "$T" | grep -q '\.part$' && [ "$(ls "$T" | grep -c '\.part$')" != 2 ] &&
	fail "temporary files left: $(ls "$T")"

# 8: a section inflating far beyond what it may hold: refused unread.
refused "$M/kallsyms-1GiB.ktp" 'KALLSYMS section is more than the 64 MiB ktprof reads'

# 9: more CPU streams than a capture may have; many below that limit read.
refused "$M/streams-60000.ktp" 'a CPU number above 8191'
check 0 "" info "$M/streams-8000.ktp"
echo "$out" | grep -q '^  7999 ' || fail "info lacks CPU 7999: $(echo "$out" | tail -3)"

# 10: a stats file of 300,000 CPUs (each looked up among all before).
check 0 "" import "$M/rawdir-stats-300k" -o "$T/stats.ktp"

# 11: a stream of CPU 0xffffffff (the CPU count wrapped to 0).
refused "$BAD/cpu-ffffffff.ktp" 'a CPU number above 8191'

# 12: control bytes of records are escaped in text, as in JSON.
check 0 "" dump "$BAD/rawdir-control-chars"
echo "$out" | grep -q 'filename=\\x1b\[2J\\x1b\[H\\a\\n$' || fail "exec filename not escaped: $out"
! printf '%s' "$out" | LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' || fail "raw control bytes in dump"
[ "$(echo "$out" | grep -c .)" = "$(check 0 "" dump --json "$BAD/rawdir-control-chars"; echo "$out" | grep -c .)" ] ||
	fail "text and JSON dumps differ in lines"

# 13: cpu00 beside cpu0 (both read as CPU 0).
refused "$M/rawdir-cpu00" 'rawdir-cpu00/cpu00: not a CPU file name'

# What the fuzzers found since (tests/bad-input/fuzz-*, CRCs set right):
# a result or a clear refusal, from every command.
for f in "$BAD"/fuzz-*; do
	for cmd in info dump "dump --json --symbolize" report "report --json" \
		"report --html $T/x.html" "report --profile --folded" "convert -o $T/x.pftrace" \
		"convert --view threads -o $T/x.pftrace" "diff $BAD/no-samples-valid.ktp"; do
		# shellcheck disable=SC2086
		run $cmd "$f"
		[ "$rc" -le 1 ] || fail "ktprof $cmd $f: exit $rc: $err"
		! echo "$err" | grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' ||
			fail "ktprof $cmd $f: sanitizer report: $err"
	done
done
echo ok
