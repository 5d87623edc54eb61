#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof import: a raw dump directory becomes a capture file (mode 0600)
# that decodes to the same records; only cpuN/meta/stats/kallsyms are read,
# symlinks are not followed, and bad directories fail clearly.
. "$(dirname "$0")/lib.sh"

"$GEN" -n 50000 -c 2 -l 5000 -d "$T/raw" || fail "gen-capture failed"
expect 0 "" import "$T/raw" -o "$T/cap.ktp"
[ "$(stat -c %a "$T/cap.ktp")" = 600 ] || fail "capture mode $(stat -c %a "$T/cap.ktp")"
[ ! -e "$T/cap.ktp.part" ] || fail "temporary file left behind"
"$KTPROF" dump -q "$T/raw" >"$T/raw.txt"
"$KTPROF" dump -q "$T/cap.ktp" >"$T/cap.txt"
cmp -s "$T/raw.txt" "$T/cap.txt" || fail "the capture decodes differently from the directory"
echo "$(wc -l <"$T/cap.txt") records decode the same from both"
expect 0 "" info "$T/cap.ktp"
echo "$out" | grep -q 'lost records      100' || fail "losses not carried into the capture: $out"

# Symlinks are not followed: a cpuN that is one is an error.
mkdir "$T/evil"
ln -s /etc/passwd "$T/evil/cpu0"
cp "$T/raw/meta" "$T/evil/meta"
expect 1 'evil/cpu0: not a regular file' import "$T/evil" -o "$T/evil.ktp"
[ ! -e "$T/evil.ktp" ] || fail "a capture was written from a symlink"
mkdir "$T/nometa" && cp "$T/raw/cpu0" "$T/nometa/"
expect 1 'meta' import "$T/nometa" -o "$T/x.ktp"
[ ! -e "$T/x.ktp" ] || fail "output written despite the error"
sed 's/^abi=.*/abi=7.1/' "$T/raw/meta" >"$T/m" && cp -r "$T/raw" "$T/newabi" && cp "$T/m" "$T/newabi/meta"
expect 1 'record ABI 7\.1; this ktprof reads 1\.x' import "$T/newabi" -o "$T/x.ktp"
expect 1 'record ABI 7\.1' dump "$T/newabi"
expect 2 'usage' import "$T/raw"
expect 1 'No such file' import "$T/none" -o "$T/x.ktp"
echo ok
