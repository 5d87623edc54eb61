#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The module loads, creates /sys/kernel/debug/ktprof/, and unloads cleanly,
# removing it (the console check covers WARN/BUG/oops).
. "$(dirname "$0")/lib.sh"

[ -f "$KTPROF_KO" ] || fail "$KTPROF_KO not built"
load_module
[ -d "$KTPROF_DBG" ] || fail "$KTPROF_DBG missing after insmod"
rmmod ktprof || fail "rmmod failed"
[ ! -e "$KTPROF_DBG" ] || fail "$KTPROF_DBG still present after rmmod"
module_loaded && fail "ktprof still listed in /proc/modules"
echo "ok"
