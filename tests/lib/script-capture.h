/* SPDX-License-Identifier: GPL-2.0 */
/* A capture script (script.h) written as a capture file, for unit tests. */
#ifndef KTPROF_SCRIPT_CAPTURE_H
#define KTPROF_SCRIPT_CAPTURE_H

/*
 * Read the script @script_path and write it to the capture file @out, with
 * session metadata (kernel "unit", session start 1 s). 0, or -1 after
 * printing why.
 */
int script_capture_write(const char *script_path, const char *out);

#endif
