#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The virtme-ng tests: tests/vng/t-*.sh, each one vng boot (TCG) of a test
# kernel running the README's command, checked on the host. Prints
# "PASS vng/NAME@KERNEL" or "FAIL vng/NAME@KERNEL" with the reason.
#
# usage: tests/vng/run.sh [--kernel K]... [NAME...]   (default: 6.12, all)
# The 7.3 debug kernel is not in the default: under vng's own init (udev,
# a bash init over uncached 9p) with KASAN and lockdep it boots for minutes
# under TCG, and it has no overlayfs for vng's default writable overlays.
# Logs: build/vng/<kernel>/<name>/log.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# shellcheck source=tests/lib/common.sh
. tests/lib/common.sh
kernels=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernels+=("${2:?--kernel needs a value}"); shift 2 ;;
	-h|--help) sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(6.12)
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for t in tests/vng/t-*.sh; do
		names+=("$(basename "$t" .sh | sed 's/^t-//')")
	done
fi

# Whatever keeps every test of a kernel from running fails them all, with
# the reason.
fail_all() {	# KERNEL REASON
	local n
	for n in "${names[@]}"; do
		result_fail "vng/$n@$1: $2"
	done
}

for k in "${kernels[@]}"; do
	if ! command -v vng >/dev/null; then
		fail_all "$k" "vng is not installed (scripts/setup.sh installs virtme-ng)"
		continue
	fi
	if ! kinfo=$(scripts/vm-run --kernel "$k" --print-kernel 2>&1); then
		fail_all "$k" "$kinfo"
		continue
	fi
	read -r image release <<<"$kinfo"
	ko=build/kmod/$release/kmod/ktprof.ko
	if [ ! -f "$ko" ] || [ ! -x user/ktprof ] || [ ! -x build/workloads/sched-mix ]; then
		fail_all "$k" "$ko, user/ktprof or build/workloads/sched-mix missing (make all tests-bin modules-all)"
		continue
	fi
	for n in "${names[@]}"; do
		t=tests/vng/t-$n.sh
		if [ ! -f "$t" ]; then
			result_fail "vng/$n@$k: no such test ($t)"
			continue
		fi
		out=$top/build/vng/$k/$n
		rm -rf "$out"
		mkdir -p "$out"
		start=$SECONDS
		if VNG_KERNEL=$k VNG_IMAGE=$image VNG_OUT=$out bash "$t" >"$out/log" 2>&1; then
			result_pass "vng/$n@$k ($((SECONDS - start)) s)"
		else
			result_fail "vng/$n@$k ($((SECONDS - start)) s): $(grep '^FAIL: ' "$out/log" | tail -n 1 | cut -c7-200)"
			log_tail 30 "$out/log"
		fi
	done
done
