#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion (ktprof help --completion bash, installed as
# share/bash-completion/completions/ktprof) completes commands, options of
# a command, and files after an option that takes one.
. "$(dirname "$0")/lib.sh"

run help --completion bash
[ "$rc" = 0 ] || fail "help --completion bash: exit $rc: $err"
printf '%s\n' "$out" >"$T/ktprof.bash"
expect 2 'usage: ktprof help' help --completion zsh

# The words bash would offer for the command line "$@" (the last word is
# the one being completed), one per line.
complete_words() {
	bash --norc --noprofile -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_ktprof
		printf "%s\n" "${COMPREPLY[@]}"' complete "$T/ktprof.bash" "$@"
}

got=$(complete_words ktprof re)
[ "$(echo "$got" | sort | tr '\n' ' ')" = "record report " ] || fail "ktprof re<TAB>: $got"
got=$(complete_words ktprof "")
for c in record import info dump convert report diff mcp help version; do
	echo "$got" | grep -qx "$c" || fail "ktprof <TAB> lacks $c: $got"
done
got=$(complete_words ktprof record --ou)
[ "$got" = --output ] || fail "ktprof record --ou<TAB>: $got"
got=$(complete_words ktprof record -)
for o in --duration -d --overwrite --load; do
	echo "$got" | grep -qx -- "$o" || fail "ktprof record -<TAB> lacks $o"
done
echo "$got" | grep -qx -- --latency && fail "ktprof record -<TAB> offers report's --latency"
touch "$T/cap.ktp"
got=$(cd "$T" && complete_words ktprof report --html ca)
[ "$got" = cap.ktp ] || fail "ktprof report --html ca<TAB>: $got"
got=$(cd "$T" && complete_words ktprof record -d "")
[ -z "$got" ] || fail "ktprof record -d <TAB> offers words for a duration: $got"
got=$(complete_words ktprof help rep)
[ "$got" = report ] || fail "ktprof help rep<TAB>: $got"
echo ok
