# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the test runners (tests/run-all.sh, run-unit.sh, */run.sh) and the
# tests share; sourced, not run. Bash.
#
# Runners: one result line per test on stdout, which tests/run-all.sh
# counts by its first word and the space after it (^PASS , ^FAIL , ^SKIP ):
#   result_pass TEXT...      PASS TEXT (e.g. "vm/capture@6.12 (40 s)")
#   result_fail TEXT...      FAIL TEXT (e.g. "cli/report"; the why after ": ")
#   result_skip TEXT...      SKIP TEXT: a test that cannot run here, with
#                            the reason; neither a pass nor a failure
#   result_re                an ERE (grep -E) matching any result line
# and what explains a FAIL under it, indented:
#   indent [LABEL]           each line of stdin as "    LABEL" + line
#   log_tail N FILE [LABEL]  the last N lines of FILE, indented
#   run_ordered DIR FUNC ARG...
#                            FUNC ARG for each ARG, as many at once as
#                            there are cores, each's output into DIR;
#                            then the outputs in the order of the ARGs
# Tests (their lines go to their logs, which run.sh shows in part):
#   say MSG...               "--- MSG" on stdout: where a test has got to
#   fail MSG...              "FAIL: MSG" on stderr, and exit 1

result_pass() { printf 'PASS %s\n' "$*"; }
result_fail() { printf 'FAIL %s\n' "$*"; }
result_skip() { printf 'SKIP %s\n' "$*"; }
# shellcheck disable=SC2034	# for the runners that source this file
result_re='^(PASS|FAIL|SKIP) '

# The indentation keeps a log's own lines (a test that prints "FAIL x")
# out of run-all.sh's counts. A last line without its newline (a log cut
# off by a timeout) gets one: the next result line must start a line of
# its own to be counted.
indent() {	# [LABEL]
	local p=${1-}
	p=${p//\\/\\\\}
	p=${p//&/\\&}
	p=${p//\//\\/}
	# '$a\' is GNU sed's "end the last line", not a quote to escape.
	# shellcheck disable=SC1003
	sed -e "s/^/    $p/" -e '$a\'
}

log_tail() {	# N FILE [LABEL]
	tail -n "$1" "$2" | indent "${3-}"
}

# A runner's steps that each keep a core busy (a fuzzer, a test script),
# side by side: their result lines still come in the order given.
run_ordered() {	# DIR FUNC ARG...
	local dir=$1 func=$2 jobs i
	shift 2
	jobs=$(nproc 2>/dev/null || echo 1)
	for ((i = 1; i <= $#; i++)); do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		"$func" "${!i}" >"$dir/$i.out" &
	done
	wait
	for ((i = 1; i <= $#; i++)); do
		cat "$dir/$i.out"
	done
}

# "FAIL:", not "FAIL ": a test's own lines are not result lines.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

say() { echo "--- $*"; }
