#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bad inputs of issue 14 that are not stored here: too big to keep
# (made from a small recipe), or FIFOs (git cannot store one). Into OUT:
#   kallsyms-1GiB.ktp          16 KALLSYMS chunks of 64 MiB each, 1 MB on disk
#   streams-60000.ktp          60,000 one-header CPU streams (4.8 MB)
#   streams-8000.ktp           8,000 of them: below the CPU limit
#   rawdir-blank-kallsyms/     kallsyms with 1,000,000 blank lines
#   rawdir-fifo-NAME/          NAME (cpu1, meta, kallsyms, stats) a FIFO
#   rawdir-stats-300k/         stats with 300,000 distinct cpu= lines
#   rawdir-cpu00/              cpu00 beside cpu0
# usage: tests/bad-input/make-inputs.sh OUT   (after make tests-bin)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
gen=$top/build/tools/gen-capture
out=${1:?usage: make-inputs.sh OUT}
mkdir -p "$out"
cd "$out"

"$gen" -S -o scenario.ktp
python3 "$top/tests/lib/capture_file.py" kallsyms-bomb scenario.ktp kallsyms-1GiB.ktp
python3 "$top/tests/lib/capture_file.py" streams scenario.ktp streams-60000.ktp 60000
python3 "$top/tests/lib/capture_file.py" streams scenario.ktp streams-8000.ktp 8000

rm -rf rawdir-* && "$gen" -S -d seed-rawdir
raw() { cp -r seed-rawdir "$1"; }
raw rawdir-blank-kallsyms
head -c 1000000 /dev/zero | tr '\0' '\n' >>rawdir-blank-kallsyms/kallsyms
for name in cpu1 meta kallsyms stats; do
	raw "rawdir-fifo-$name"
	rm "rawdir-fifo-$name/$name"
	mkfifo "rawdir-fifo-$name/$name"
done
raw rawdir-stats-300k
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "cpu=%d records=%d\n", i, i }' \
	>rawdir-stats-300k/stats
raw rawdir-cpu00
cp rawdir-cpu00/cpu0 rawdir-cpu00/cpu00
