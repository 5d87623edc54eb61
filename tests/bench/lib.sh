#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the bench's host and guest scripts; needs $KTPROF.

# Records in a capture: the per-CPU "records" column of ktprof info, summed.
capture_records() {
	"$KTPROF" info "$1" | awk '/^per CPU/ { on = 1; next }
		on && $1 ~ /^[0-9]+$/ { n += $2 } on && $1 !~ /^[0-9]+$/ && $1 != "cpu" { on = 0 }
		END { print n + 0 }'
}
