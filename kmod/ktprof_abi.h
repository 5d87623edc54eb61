/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef KTPROF_ABI_H
#define KTPROF_ABI_H

#define KTP_VERSION_STRING "0.1"
#define KTP_ABI_MAJOR 1
#define KTP_ABI_MINOR 0

#endif
