// SPDX-License-Identifier: GPL-2.0
/* Escaping a capture's strings for text output: known answers. */
#include "unit.h"
#include "util/text.h"

UNIT_TEST(plain_strings_as_they_are)
{
	const char *s = "swapper/0 do_syscall_64+0x1a [9p]";
	char buf[64];

	CHECK(text_escape(s, buf, sizeof(buf)) == s);
}

UNIT_TEST(control_bytes_escaped)
{
	char buf[64];

	/* The exec filename of tests/bad-input/rawdir-control-chars. */
	CHECK_STR(text_escape("\x1b[2J\x1b[H\a\n", buf, sizeof(buf)),
		  "\\x1b[2J\\x1b[H\\a\\n");
	CHECK_STR(text_escape("a\tb\rc\x7f" "d\\e", buf, sizeof(buf)),
		  "a\\tb\\rc\\x7fd\\\\e");
	/* Bytes above ASCII, as JSON's \u00XX. */
	CHECK_STR(text_escape("caf\xc3\xa9", buf, sizeof(buf)), "caf\\xc3\\xa9");
}

UNIT_TEST(cut_at_an_escape_boundary)
{
	char buf[8];

	/* "ab" fits, "\x1b" (4 bytes) does, "\x1b" again does not: 7 + NUL. */
	CHECK_STR(text_escape("ab\x1b\x1b", buf, sizeof(buf)), "ab\\x1b");
	CHECK_STR(text_escape("\n", buf, 1), "");
}

UNIT_TEST(fputs_matches_escape)
{
	char *out = NULL, buf[64];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	text_fputs("x\x01y\\", f);
	fclose(f);
	CHECK_STR(out, text_escape("x\x01y\\", buf, sizeof(buf)));
	CHECK_STR(out, "x\\x01y\\\\");
	free(out);
}

UNIT_MAIN()
