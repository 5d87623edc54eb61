/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings from a capture (task names, exec and file paths, IRQ names,
 * symbols, the kernel's own strings) in text output: every byte that is
 * not printable ASCII, and the backslash, written as an escape (\x1b, \n,
 * \\), the way --json escapes them, so that no name can move the cursor,
 * ring the bell or start a line of its own on the reader's terminal.
 */
#ifndef KTPROF_TEXT_H
#define KTPROF_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * @s escaped into @buf (@len bytes, cut short if it must be), or @s itself
 * when it needs no escape.
 */
const char *text_escape(const char *s, char *buf, size_t len);

/*
 * text_escape() into the next of a few static buffers, so that one printf
 * can take several names. For printers, which run in one thread.
 */
const char *text_esc(const char *s);

/* fputs(@s, @f), escaped. */
void text_fputs(const char *s, FILE *f);

#endif
