#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The end-to-end demo (make demo): boot the Debian 6.12 test kernel in a VM,
# record a built-in mixed workload with ktprof record (vm-capture.sh), then
# show what the capture holds, convert it to a Perfetto trace and print its
# CPU profile.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
rm -rf "$out"
mkdir -p "$out"
echo "demo: booting the 6.12 test kernel under qemu (TCG) and recording..."
"$top/scripts/vm-run" --kernel 6.12 --out "$out" -- \
	"$top/scripts/vm-capture.sh" --out "$out" -- "$top/scripts/demo-workload.sh"
echo
"$top/user/ktprof" info "$out/capture.ktp"
echo
"$top/user/ktprof" convert -o "$out/trace.pftrace" "$out/capture.ktp"
echo
# Through a file: head closing the pipe early would fail the demo (pipefail).
"$top/user/ktprof" report --profile --top 8 "$out/capture.ktp" >"$out/profile.txt"
head -n 40 "$out/profile.txt"
echo
echo "demo: Perfetto trace in $out/trace.pftrace"
echo "      open it at https://ui.perfetto.dev (Open trace file), or query it"
echo "      with trace_processor; nothing is uploaded, the UI runs locally"
echo "demo: capture in $out/capture.ktp, whole profile in $out/profile.txt"
echo "      ktprof dump --symbolize $out/capture.ktp | less     every record"
echo "      ktprof report --profile --folded $out/capture.ktp   folded stacks"
