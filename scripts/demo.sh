#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The end-to-end demo (make demo): boot the 6.12 test kernel in a VM, load
# ktprof.ko and show what it exposes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/demo
rm -rf "$out"
mkdir -p "$out"
echo "demo: booting the 6.12 test kernel under qemu (TCG)..."
"$top/scripts/vm-run" --kernel 6.12 --out "$out" -- "$top/scripts/demo-guest.sh" "$out"
echo "demo: done; console log in $out/console.log"
