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

/*
 * JSON text is UTF-8 (RFC 8259), names from a capture are bytes. Every JSON
 * writer follows one rule: valid UTF-8 passes as it is, and each byte that
 * is not part of it stands for the character U+0080..U+00FF of its value
 * (as if Latin-1), written \u00XX or as that character's UTF-8. So a name
 * reads back as the same characters from every writer (report, diff,
 * dump --json, mcp), and --comm matches that form too.
 */

/* The length of the UTF-8 character at @s (@n bytes left); 0 if there is none. */
size_t text_utf8_char(const unsigned char *s, size_t n);

/* @s (@n bytes) into @out (2n + 1 bytes), the rule applied; its length. */
size_t text_utf8_fix(const char *s, size_t n, char *out);

/*
 * @s inside a JSON string: '"' and '\\' escaped, control characters and
 * bytes outside valid UTF-8 as \u00XX.
 */
void text_json_fputs(const char *s, FILE *f);

#endif
