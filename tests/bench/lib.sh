#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the bench's host and guest scripts; needs $KTPROF.

# Records in a capture: the per-CPU "records" column of ktprof info, summed.
# The table's rows are indented and start with the CPU number; other
# indented lines (a CPU's symbolization notes) sit among them, and the
# next section starts at the margin.
capture_records() {
	"$KTPROF" info "$1" | awk '/^per CPU/ { on = 1; next } /^[^ ]/ { on = 0 }
		on && $1 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }'
}
