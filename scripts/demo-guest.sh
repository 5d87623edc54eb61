#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest half of scripts/demo.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
ko=$top/build/kmod/$(uname -r)/kmod/ktprof.ko
echo "guest: $(uname -r), $(nproc) CPUs"
insmod "$ko"
echo "guest: /sys/kernel/debug/ktprof/ holds:"
ls -l /sys/kernel/debug/ktprof/
rmmod ktprof
echo "guest: module unloaded"
