#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Truncated and corrupted capture files: a clear error and a non-zero exit
# from info, dump and report, never a crash or a hang; a file cut between
# chunks still reads up to its last complete chunk.
. "$(dirname "$0")/lib.sh"

"$GEN" -n 200000 -c 3 -o "$T/good.ktp" || fail "gen-capture failed"
expect 0 "" info "$T/good.ktp"
echo "$out" | grep -q 'complete' || fail "info does not say complete: $out"
size=$(stat -c %s "$T/good.ktp")
full=$("$KTPROF" dump "$T/good.ktp" | wc -l)

for cut in 10 31 32 40 1000 $((size / 3)) $((size / 2)) $((size - 40)) $((size - 1)); do
	head -c "$cut" "$T/good.ktp" >"$T/cut.ktp"
	for cmd in info dump "report --profile" "report" "report --json" \
		"convert -o $T/cut.pftrace" "diff $T/good.ktp"; do
		# shellcheck disable=SC2086
		run $cmd "$T/cut.ktp"
		[ "$rc" = 1 ] || fail "$cmd on a file cut at $cut: exit $rc ($err)"
		echo "$err" | grep -Eq 'truncated|not a ktprof capture|no session metadata' ||
			fail "$cmd on a file cut at $cut: unclear error: $err"
	done
done

# Cut inside the last chunks: what precedes still decodes.
head -c $((size * 3 / 4)) "$T/good.ktp" >"$T/cut.ktp"
run dump "$T/cut.ktp"
got=$(echo "$out" | grep -c .)
[ "$got" -gt 0 ] && [ "$got" -lt "$full" ] || fail "cut file decoded $got of $full lines"
echo "a file cut at 3/4 decodes $got of $full records"
run info "$T/cut.ktp"
echo "$out" | grep -q 'TRUNCATED: .*readable up to offset' || fail "info: $out"
# The report analyses what is there, and says what is missing.
run report "$T/cut.ktp"
[ "$rc" = 1 ] || fail "report on a cut file: exit $rc"
echo "$out" | grep -q 'warning: the capture is cut short' || fail "report lacks the warning: $out"
echo "$out" | grep -q 'task-' || fail "report of a cut file shows no thread: $out"

# Damage in the middle of the streams: the analysis of what precedes it.
cp "$T/good.ktp" "$T/bad.ktp"
printf '\377\377\377\377' | dd of="$T/bad.ktp" bs=1 seek=$((size / 2)) conv=notrunc status=none
run report --json "$T/bad.ktp"
[ "$rc" = 1 ] || fail "report on a damaged file: exit $rc"
echo "$err" | grep -q 'damaged' || fail "report on a damaged file: unclear error: $err"
echo "$out" | grep -q '"damaged":true' || fail "report --json does not say damaged: $out"
echo "$out" | grep -q '"runtime_ns"' || fail "report --json of a damaged file has no threads"

for off in 0 8 40 60 200 $((size / 2)) $((size - 20)); do
	cp "$T/good.ktp" "$T/bad.ktp"
	printf '\377\377\377\377' | dd of="$T/bad.ktp" bs=1 seek="$off" conv=notrunc status=none
	for cmd in info dump "report --profile" "report" "report --json" \
		"convert -o $T/bad.pftrace" "diff $T/good.ktp"; do
		# shellcheck disable=SC2086
		run $cmd "$T/bad.ktp"
		[ "$rc" = 1 ] || fail "$cmd on a file damaged at $off: exit $rc"
		echo "$err" | grep -Eq 'damaged|corrupt|not a ktprof capture|truncated|bad magic|capture format' ||
			fail "$cmd on a file damaged at $off: unclear error: $err"
	done
done

# A damaged stream leaves no trace file behind (convert writes NAME.part).
[ ! -e "$T/bad.pftrace" ] && [ ! -e "$T/bad.pftrace.part" ] ||
	fail "convert left output from a damaged capture"

# A newer major version is refused, naming both versions.
cp "$T/good.ktp" "$T/v2.ktp"
printf '\002\000' | dd of="$T/v2.ktp" bs=1 seek=8 conv=notrunc status=none
expect 1 'capture format 2\.[0-9]+; this ktprof reads 1\.0 to 1\.[0-9]+' info "$T/v2.ktp"
expect 1 'not a ktprof capture' dump /etc/passwd
expect 1 'No such file' dump "$T/nonexistent.ktp"
echo ok
