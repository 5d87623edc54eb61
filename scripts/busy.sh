#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run a command while every host core is kept busy by a CPU hog (stress-ng,
# at normal priority, so the command competes for each core as it would
# on a loaded CI machine), and exit with the command's status.
# usage: scripts/busy.sh CMD [ARGS...]      e.g. scripts/busy.sh make check
set -u
command -v stress-ng >/dev/null || { echo "busy.sh: stress-ng missing (scripts/setup.sh)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: scripts/busy.sh CMD [ARGS...]" >&2; exit 2; }
n=$(nproc)
stress-ng --cpu "$n" --cpu-method int64 --quiet &
hogs=$!
trap 'kill $hogs 2>/dev/null; wait $hogs 2>/dev/null' EXIT
echo "busy.sh: $n CPU hogs (stress-ng pid $hogs) beside: $*" >&2
"$@"
