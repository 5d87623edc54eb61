#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The end-to-end demo (make demo): boot the Debian 6.12 test kernel in a VM,
# record a built-in mixed workload with ktprof record (vm-capture.sh), then
# show what the capture holds, convert it to a Perfetto trace, and end with
# the report's summary and its HTML page.
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
"$top/user/ktprof" report --profile --top 20 "$out/capture.ktp" >"$out/profile.txt"
"$top/user/ktprof" report --json "$out/capture.ktp" >"$out/report.json"
"$top/user/ktprof" report --html "$out/report.html" "$out/capture.ktp"
echo "demo: Perfetto trace in $out/trace.pftrace"
echo "      open it at https://ui.perfetto.dev (Open trace file), or query it"
echo "      with trace_processor; nothing is uploaded, the UI runs locally"
echo "demo: capture in $out/capture.ktp, CPU profile in $out/profile.txt,"
echo "      the report as JSON in $out/report.json"
echo "      ktprof dump --symbolize $out/capture.ktp | less     every record"
echo "      ktprof report --latency $out/capture.ktp           one section"
echo
"$top/user/ktprof" report "$out/capture.ktp"
echo
echo "demo: the report with plots: $out/report.html (open it in a browser)"
