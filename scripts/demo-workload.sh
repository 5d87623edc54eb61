#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo's mixed workload: pipe ping-pong, CPU hogs, sleepers and a
# forking child (sched-mix), alongside a program to profile (hotfuncs).
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/build/workloads/sched-mix" -r 5000 -t 1000 >/dev/null &
"$top/build/workloads/hotfuncs" -t 1500 >/dev/null
wait
