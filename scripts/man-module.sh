#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktprof.ko(4) in roff on stdout, made from the module's own source so that
# it cannot drift from it: PARAMETERS from every module_param*() and its
# MODULE_PARM_DESC() in kmod/*.c, FILES from the debugfs list at the top of
# kmod/control.c, the stats file's counters from KTP_CPU_STATS() in the ABI
# header. The date is SOURCE_DATE_EPOCH's (reproducible builds).
# usage: scripts/man-module.sh VERSION
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
version=${1:?usage: man-module.sh VERSION}
date=
[ -z "${SOURCE_DATE_EPOCH:-}" ] || date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)

# roff: backslashes escaped, a '-' that starts a word a minus sign.
roff() { sed -e 's/\\/\\e/g' -e 's/\(^\|[ ([|-]\)-/\1\\-/g' -e 's/\(^\|[ ([|-]\)-/\1\\-/g' -e "s/^[.']/\\\\\\&&/"; }

# "name<TAB>type<TAB>description" for each parameter, in source order.
params() {
	perl -0777 -ne '
		my %desc;
		while (/MODULE_PARM_DESC\(\s*(\w+)\s*,\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)/g) {
			my ($n, $d) = ($1, $2);
			$d =~ s/"\s*"//g; $d =~ s/^"|"$//g;
			$desc{$n} = $d;
		}
		while (/module_param_named\(\s*(\w+)\s*,\s*\w+\s*,\s*(\w+)|module_param\(\s*(\w+)\s*,\s*(\w+)/g) {
			my ($n, $t) = defined $1 ? ($1, $2) : ($3, $4);
			defined $desc{$n} or die "man-module.sh: no MODULE_PARM_DESC($n)\n";
			print "$n\t$t\t$desc{$n}\n";
		}
		while (/module_param_(?:array|string|cb)\w*\(\s*(\w+)/g) {
			print "$1\t\t", ($desc{$1} // ""), "\n";
		}' "$top"/kmod/*.c
}

# "name<TAB>description" for each line of control.c's debugfs list.
debugfs_files() {
	sed -n '/debugfs control files/,/^ \*\/$/p' "$top/kmod/control.c" |
		awk '/^ \*   [a-z]/ { if (n) print n "\t" d; n = $2; d = $0
				sub(/^ \*   [a-z]+ +/, "", d); next }
		     /^ \*      +/ && n { l = $0; sub(/^ \* +/, "", l); d = d " " l; next }
		     n { print n "\t" d; n = "" }
		     END { if (n) print n "\t" d }'
}

cat <<HEAD
.TH KTPROF.KO 4 "$date" "ktprof $version" "ktprof Manual"
.nr HY 0
.nh
.ad l
.SH NAME
ktprof.ko \- BPF\-free scheduler tracing and CPU profiling module
.SH SYNOPSIS
.B modprobe ktprof
[\fIPARAMETER\fR=\fIVALUE\fR]...
.SH DESCRIPTION
The ktprof module hooks the scheduler, irq, softirq, IPI and workqueue
tracepoints and per\-CPU perf sampling events, and writes compact binary
records into per\-CPU relay files under
.IR /sys/kernel/debug/ktprof/ .
The irq group is every hardirq: \fBirq_handler_entry\fR/\fBexit\fR, and on
x86 the system vectors, which bypass them (the \fBirq_vectors\fR
tracepoints of the local APIC timer, the reschedule and call\-function
IPIs, irq_work and the APIC's other vectors), recorded as irq
0x10000 + vector.
Every lost record is counted.
.BR ktprof\-record (1)
configures and runs a session over generic netlink; without it, the
debugfs files below start and stop a session with the parameters'
defaults, so that a shell alone (a VM's init script) can capture with
.BR cat (1);
.BR ktprof\-import (1)
turns such a dump into a capture file.
.PP
The module supports x86\-64 kernels from 6.1 on, not PREEMPT_RT ones.
Reading and writing its files needs root (CAP_PERFMON for control).
.SH PARAMETERS
The parameters are the defaults of every session started from debugfs or
at load (\fBautostart=1\fR); a bad one fails the load with EINVAL and a
one\-line reason in the kernel log. They are read\-only once loaded
(\fI/sys/module/ktprof/parameters/\fR).
HEAD
params | while IFS=$'\t' read -r name type desc; do
	printf '.TP\n.BR %s " (%s)"\n' "$(printf %s "$name" | roff)" "$type"
	printf '%s\n' "$desc" | roff
done
# "name<TAB>help" for each counter of KTP_CPU_STATS(), in the list's order.
counters() {
	sed -n '/^#define KTP_CPU_STATS(X)/,/^$/p' "$top/kmod/include/uapi/ktprof_abi.h" |
		sed -n 's/^[[:space:]]*X([A-Z_]*, *[0-9]*, *\([a-z_]*\), *"\([^"]*\)").*/\1\t\2/p'
}

cat <<MID
.SH FILES
.TP
.I /sys/kernel/debug/ktprof/
The module's directory in debugfs:
.RS
MID
debugfs_files | while IFS=$'\t' read -r name desc; do
	printf '.TP\n.B %s\n' "$name"
	printf '%s\n' "$desc" | roff
done
cat <<TAIL
.TP
.BI cpu N
CPU \fIN\fR's relay buffer: whole sub\-buffers of binary records, in
time order (the format: docs/record\-format.md); read it with
.BR cat (1)
after a stop, or let
.BR ktprof\-record (1)
read it.
.RE
.SS Counters
Each CPU with a buffer has a line in
.IR stats :
.BI cpu= N
and these counters as \fIKEY\fR=\fIVALUE\fR, in this order, with
.B avg_bytes
(bytes per record) after
.BR bytes .
.BR ktprof\-record (1)
reads the same counters over netlink and keeps them in its capture.
TAIL
counters | while IFS=$'\t' read -r name help; do
	printf '.TP\n.B %s\n' "$(printf %s "$name" | roff)"
	printf '%s\n' "$help" | roff
done
cat <<TAIL
.SH EXAMPLES
A capture with nothing but a shell:
.PP
.RS 4
.EX
modprobe ktprof autostart=1
\&./workload
D=/sys/kernel/debug/ktprof; echo stop > \$D/control
mkdir out; for f in \$D/cpu*; do cat \$f > out/\${f##*/}; done
cat \$D/meta > out/meta; cat \$D/stats > out/stats
cat /proc/kallsyms > out/kallsyms
ktprof import out \\-o cap.ktp
.EE
.RE
.SH SEE ALSO
.BR ktprof (1),
.BR ktprof\-record (1),
.BR ktprof\-import (1),
.BR modprobe (8),
.BR dkms (8)
TAIL
