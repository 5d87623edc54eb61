// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "symbols/kallsyms.h"
#include "unit.h"

static const char sample_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t do_one\n"
	"ffffffff81000200 D some_data\n"
	"ffffffff81000300 T do_two\n"
	"ffffffffc0001000 t nine_read\t[9p]\n"
	"ffffffffc0001100 t nine_write\t[9p]\n"
	"ffffffffc0002000 T e1k_probe\t[e1000]\n"
	"garbage line\n";

UNIT_TEST(lookups)
{
	struct kallsyms *ks = kallsyms_parse(sample_text);
	struct ksym s;

	CHECK(ks != NULL);
	if (!ks)
		return;
	CHECK_EQ(kallsyms_count(ks), 6);	/* the data symbol is left out */
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffff81000105ull, &s), 0);
	CHECK_STR(s.name, "do_one");
	CHECK_EQ(s.offset, 5);
	CHECK(s.module == NULL);
	/* Past the data symbol, still in do_one's range: do_one. */
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffff81000250ull, &s), 0);
	CHECK_STR(s.name, "do_one");
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffffc0001104ull, &s), 0);
	CHECK_STR(s.name, "nine_write");
	CHECK_STR(s.module, "9p");
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffffc0002001ull, &s), 0);
	CHECK_STR(s.module, "e1000");
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffff80000000ull, &s), -ENOENT);
	/* Far beyond the last symbol: not trusted. */
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffffc8000000ull, &s), -ENOENT);
	kallsyms_free(ks);
}

/* An unprivileged snapshot has all-zero addresses: refuse it. */
UNIT_TEST(zeroed_addresses_refused)
{
	errno = 0;
	CHECK(kallsyms_parse("0000000000000000 T _stext\n0000000000000000 t x\n") == NULL);
	CHECK_EQ(errno, EINVAL);
	CHECK(kallsyms_parse("") == NULL);
}

/*
 * Issue 14 #4: blank lines (strtoull() skipped them all, from each one:
 * quadratic). Known answers around a long run of them.
 */
UNIT_TEST(blank_lines)
{
	size_t n = 200000, off;
	char *text = malloc(n + 128);
	struct kallsyms *ks;
	struct ksym s;

	CHECK(text != NULL);
	if (!text)
		return;
	off = (size_t)sprintf(text, "ffffffff81000000 T first\n");
	memset(text + off, '\n', n);
	off += n;
	sprintf(text + off, "   \n\t\nffffffff81000100 T second\n");
	ks = kallsyms_parse(text);
	free(text);
	CHECK(ks != NULL);
	if (!ks)
		return;
	CHECK_EQ(kallsyms_count(ks), 2);
	CHECK_EQ(kallsyms_lookup(ks, 0xffffffff81000104ull, &s), 0);
	CHECK_STR(s.name, "second");
	kallsyms_free(ks);
}

UNIT_MAIN()
