#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Capture with ktprof inside a VM, as its init script or its one command:
# load the module, record while a workload runs, copy the result to a
# shared directory, unload. POSIX sh: with --shell-only busybox is enough.
#
#   scripts/vm-run --out /tmp/cap -- scripts/vm-capture.sh -- my-workload
#   vng --run BZIMAGE --disable-kvm --rwdir /tmp/cap=/tmp/cap \
#       --exec "scripts/vm-capture.sh --out /tmp/cap -- my-workload"
#
# Results in OUT: capture.ktp, info.txt and capture.log (recorder), or raw/
# (shell-only: cpuN, meta, stats, kallsyms, modules, topology,
# sched_ext.start and .stop where the kernel has sched_ext; turn it into a
# capture on any machine with `ktprof import raw -o capture.ktp`), and
# dmesg, the kernel's log at the end (vng keeps no console log by default).
#
# OUT must be writable in the guest: vm-run mounts the host's root
# read-only and vng lays throw-away overlays over it, so it has to be
# vm-run's --out or a vng --rwdir share to reach the host.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"

usage() {
	cat <<'EOF'
usage: vm-capture.sh [options] [-- WORKLOAD [ARGS...]]

  --out DIR        where results go (default $KTPROF_VM_OUT, else ./ktprof-out)
  --ko PATH        ktprof.ko (default: build/kmod/$(uname -r)/kmod/ktprof.ko
                   next to this script)
  --ktprof PATH    the ktprof binary (default: user/ktprof next to this script)
  --shell-only     capture with cat through debugfs, no recorder (busybox)
  --duration SECS  record this long when there is no workload (default 5)
  --reader-cpu N   pin the recorder's readers to CPU N (default: the first
                   isolated CPU, when booted with isolcpus=)
  --record-args A  extra arguments for `ktprof record` (one string)
  -h, --help       this text
EOF
}

top=$(dirname "$here")
out=${KTPROF_VM_OUT:-./ktprof-out}
ko=$top/build/kmod/$(uname -r)/kmod/ktprof.ko
ktprof=$top/user/ktprof
shell_only=
duration=5
reader_cpu=
record_args=

while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--ko) ko=$2; shift 2 ;;
	--ktprof) ktprof=$2; shift 2 ;;
	--shell-only) shell_only=1; shift ;;
	--duration) duration=$2; shift 2 ;;
	--reader-cpu) reader_cpu=$2; shift 2 ;;
	--record-args) record_args=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) say "unknown option $1"; usage >&2; exit 2 ;;
	esac
done

mkdir -p "$out" || die "cannot create $out (--out DIR: vm-run's --out or a vng --rwdir)"
dbg=/sys/kernel/debug
[ -d "$dbg/tracing" ] || [ -d "$dbg/block" ] || mount -t debugfs debugfs "$dbg" 2>/dev/null
[ -f "$ko" ] || die "$ko not found (make modules-all, or --ko PATH)"
grep -q '^ktprof ' /proc/modules && die "ktprof is already loaded"

# A CPU kept for the tracer (isolcpus=N): readers go there.
if [ -z "$reader_cpu" ] && [ -r /sys/devices/system/cpu/isolated ]; then
	reader_cpu=$(cut -d, -f1 /sys/devices/system/cpu/isolated | cut -d- -f1)
fi

run_workload() {
	if [ $# -gt 0 ]; then
		"$@"
	else
		sleep "$duration"
	fi
}

# What sched_ext runs (kernels that have it), for `ktprof import`.
sched_ext() {	# FILE
	scx=/sys/kernel/sched_ext
	[ -r "$scx/state" ] || return 0
	{
		echo "state=$(cat "$scx/state")"
		echo "ops=$(cat "$scx/root/ops" 2>/dev/null)"
		echo "enable_seq=$(cat "$scx/enable_seq" 2>/dev/null)"
	} >"$1"
}

status=0
if [ -n "$shell_only" ]; then
	mkdir -p "$out/raw"
	# A previous run's files would mix with this one's.
	rm -f "$out/raw/"*
	insmod "$ko" || die "insmod $ko failed"
	sched_ext "$out/raw/sched_ext.start"
	echo start >"$dbg/ktprof/control" || die "cannot start"
	run_workload "$@" || status=$?
	echo stop >"$dbg/ktprof/control"
	sched_ext "$out/raw/sched_ext.stop"
	for f in "$dbg"/ktprof/cpu*; do
		cat "$f" >"$out/raw/${f##*/}"
	done
	cat "$dbg/ktprof/meta" >"$out/raw/meta"
	cat "$dbg/ktprof/stats" >"$out/raw/stats"
	cat /proc/kallsyms >"$out/raw/kallsyms"
	cat /proc/modules >"$out/raw/modules"
	# cpu package core llc node, for `ktprof import`.
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		n=${c##*cpu}
		pkg=$(cat "$c/topology/physical_package_id" 2>/dev/null || echo -1)
		core=$(cat "$c/topology/core_id" 2>/dev/null || echo -1)
		llc=-1
		for l in "$c"/cache/index*; do
			[ -r "$l/id" ] && llc=$(cat "$l/id")
		done
		node=-1
		for d in "$c"/node*; do
			[ -e "$d" ] && node=${d##*node}
		done
		echo "$n $pkg $core $llc $node" >>"$out/raw/topology"
	done
	rmmod ktprof || status=1
	dmesg >"$out/dmesg" 2>/dev/null
	say "raw dump in $out/raw (ktprof import $out/raw -o capture.ktp)"
	exit $status
fi

[ -x "$ktprof" ] || die "$ktprof not found (make, or --ktprof PATH)"
opts="-q -o $out/capture.ktp --load $ko"
[ -n "$reader_cpu" ] && opts="$opts --reader-cpu $reader_cpu"
[ -n "$record_args" ] && opts="$opts $record_args"
# Word splitting of $opts is wanted: they are separate arguments.
# shellcheck disable=SC2086
if [ $# -gt 0 ]; then
	"$ktprof" record $opts -- "$@" 2>"$out/capture.log" || status=$?
else
	"$ktprof" record $opts -d "${duration}s" 2>"$out/capture.log" || status=$?
fi
cat "$out/capture.log" >&2
"$ktprof" info "$out/capture.ktp" >"$out/info.txt" 2>&1 || status=1
dmesg >"$out/dmesg" 2>/dev/null
say "capture in $out/capture.ktp"
exit $status
