// SPDX-License-Identifier: GPL-2.0
/* Known-answer profile: kernel-only stacks against a synthetic kallsyms. */
#include <stdlib.h>

#include "report/profile.h"
#include "unit.h"

static const char ksyms[] =
	"ffffffff81000000 T entry\n"
	"ffffffff81001000 T outer\n"
	"ffffffff81002000 T leaf_a\n"
	"ffffffff81003000 T leaf_b\n";

#define ENTRY 0xffffffff81000010ull
#define OUTER 0xffffffff81001010ull
#define LEAF_A 0xffffffff81002010ull
#define LEAF_B 0xffffffff81003010ull

static void sample(struct profile *p, uint32_t pid, const uint64_t *ips,
		   unsigned int n)
{
	uint8_t buf[sizeof(struct ktp_sample) + 8 * 8] = { 0 };
	struct ktp_sample s = { .pid = pid, .tid = pid, .nr_kernel = n };
	struct event ev = { .type = KTP_REC_SAMPLE, .rec = buf };

	memcpy(buf, &s, sizeof(s));
	memcpy(buf + sizeof(s), ips, 8 * n);	/* leaf first */
	CHECK_EQ(profile_on_event(p, &ev), 0);
}

static const struct profile_row *row(const struct profile_row *rows,
				     unsigned int n, const char *sym)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].symbol, sym))
			return &rows[i];
	return NULL;
}

UNIT_TEST(self_and_total)
{
	struct symbolizer *sym = symbolizer_new(ksyms, NULL);
	struct task_table tasks;
	struct profile *p;
	struct profile_row *rows;
	const struct profile_row *r;
	uint64_t a[] = { LEAF_A, OUTER, ENTRY };
	uint64_t b[] = { LEAF_B, OUTER, ENTRY };
	uint64_t rec[] = { LEAF_A, LEAF_A, OUTER, ENTRY };	/* recursion */
	uint32_t *pids;
	uint64_t *counts;
	unsigned int n, i;
	char *folded = NULL;
	size_t len = 0;
	FILE *f;

	task_table_init(&tasks);
	p = profile_new(sym, &tasks, -1);
	for (i = 0; i < 7; i++)
		sample(p, 10, a, 3);
	for (i = 0; i < 3; i++)
		sample(p, 10, b, 3);
	sample(p, 20, rec, 4);
	CHECK_EQ(profile_samples(p), 11);

	n = profile_rows(p, -1, &rows);
	r = row(rows, n, "leaf_a");
	CHECK(r && r->self == 8 && r->total == 8);	/* once per sample */
	r = row(rows, n, "outer");
	CHECK(r && r->self == 0 && r->total == 11);
	CHECK_STR(rows[0].symbol, "leaf_a");		/* sorted by self */
	free(rows);

	n = profile_rows(p, 10, &rows);
	r = row(rows, n, "leaf_b");
	CHECK(r && r->self == 3 && r->total == 3);
	CHECK(row(rows, n, "leaf_a")->self == 7);
	free(rows);

	n = profile_processes(p, &pids, &counts);
	CHECK_EQ(n, 2);
	CHECK_EQ(pids[0], 10);
	CHECK_EQ(counts[0], 10);
	free(pids);
	free(counts);

	f = open_memstream(&folded, &len);
	profile_write_folded(p, f);
	fclose(f);
	CHECK_STR(folded, "pid-10;entry;outer;leaf_a 7\n"
			  "pid-10;entry;outer;leaf_b 3\n"
			  "pid-20;entry;outer;leaf_a;leaf_a 1\n");
	free(folded);
	profile_free(p);
	task_table_fini(&tasks);
	symbolizer_free(sym);
}

/* Issue 14 #2: no samples at all (qsort of a NULL array, under UBSan). */
UNIT_TEST(folded_without_samples)
{
	struct symbolizer *sym = symbolizer_new(ksyms, NULL);
	struct task_table tasks;
	struct profile *p;
	char *folded = NULL;
	size_t len = 0;
	FILE *f;

	task_table_init(&tasks);
	p = profile_new(sym, &tasks, -1);
	f = open_memstream(&folded, &len);
	profile_write_folded(p, f);
	fclose(f);
	CHECK_STR(folded, "");
	free(folded);
	profile_free(p);
	task_table_fini(&tasks);
	symbolizer_free(sym);
}

UNIT_MAIN()
