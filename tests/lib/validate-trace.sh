#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Validate Perfetto traces the way trace_processor would take them: the
# upstream schema decodes them with no unknown-field lines, and the shared
# checker (check_trace.py) finds no error. Both live beside the project in
# ../shared/perfetto; without it, say so and pass (a user's clone).
#
# usage: validate-trace.sh TRACE...     exit 0 valid (or skipped), 1 not
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=$top/../shared/perfetto
if [ ! -f "$shared/check_trace.py" ] || [ ! -f "$shared/perfetto_trace.proto" ]; then
	echo "notice: $shared absent: upstream schema and check_trace.py not applied"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for trace in "$@"; do
	plain=$trace
	case "$trace" in
	*.gz) plain=$tmp/trace; gzip -dc "$trace" >"$plain" || { echo "$trace: bad gzip"; exit 1; } ;;
	esac
	if ! /usr/bin/python3 "$shared/check_trace.py" "$plain" >"$tmp/check" 2>&1; then
		echo "check_trace.py $trace:"
		tail -n 8 "$tmp/check"
		exit 1
	fi
	protoc --decode=perfetto.protos.Trace -I"$shared" "$shared/perfetto_trace.proto" \
		<"$plain" >"$tmp/text" 2>"$tmp/err" ||
		{ echo "the upstream schema does not decode $trace: $(cat "$tmp/err")"; exit 1; }
	if grep -Eq '^ *[0-9]+: ' "$tmp/text"; then
		echo "$trace has fields the upstream schema does not know:"
		grep -Em3 '^ *[0-9]+: ' "$tmp/text"
		exit 1
	fi
	echo "$trace: $(tail -n 1 "$tmp/check")"
done
