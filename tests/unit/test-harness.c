// SPDX-License-Identifier: GPL-2.0
/*
 * The harness itself (unit.h): this binary runs its own helper cases, one
 * at a time, and checks the line each prints and the exit status. The
 * helpers run only when named, so they never show in a normal run.
 */
#include <sys/wait.h>

#include "unit.h"

UNIT_HELPER(helper_passes)
{
	CHECK_EQ(2 + 2, 4);
}

UNIT_HELPER(helper_skips)
{
	UNIT_SKIP("needs %s", "a unicorn");
	UNIT_FAIL("not reached: UNIT_SKIP returns from the case");
}

/* A failure is never hidden by a later skip. */
UNIT_HELPER(helper_fails_then_skips)
{
	CHECK_EQ(1 + 1, 3);
	UNIT_SKIP("too late");
}

UNIT_HELPER(helper_fails)
{
	CHECK_STR("got", "want");
}

/* Run this binary on @name: its output (NUL-terminated) and exit status. */
static int run_self(const char *name, char *out, size_t len)
{
	char cmd[1024];
	size_t n = 0;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", unit_argv0, name);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (n + 1 < len && fgets(out + n, len - n, p))
		n += strlen(out + n);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The line of @out that starts with @prefix, or NULL. */
static const char *line_starting(const char *out, const char *prefix)
{
	const char *l;

	for (l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix)))
			return l;
	return NULL;
}

UNIT_TEST(pass_line)
{
	char out[4096];

	CHECK_EQ(run_self("helper_passes", out, sizeof(out)), 0);
	CHECK_STR(out, "PASS unit/harness/helper_passes\n");
}

UNIT_TEST(skip_line_has_reason_and_exit_0)
{
	char out[4096];

	CHECK_EQ(run_self("helper_skips", out, sizeof(out)), 0);
	CHECK_STR(out, "SKIP unit/harness/helper_skips: needs a unicorn\n");
}

UNIT_TEST(fail_before_skip_still_fails)
{
	char out[4096];

	CHECK_EQ(run_self("helper_fails_then_skips", out, sizeof(out)), 1);
	CHECK(line_starting(out, "FAIL unit/harness/helper_fails_then_skips\n") != NULL);
	CHECK(line_starting(out, "SKIP ") == NULL);
	CHECK(strstr(out, "1 + 1 == 2, expected 3 == 3") != NULL);
}

UNIT_TEST(fail_line_and_exit_1)
{
	char out[4096];

	CHECK_EQ(run_self("helper_fails", out, sizeof(out)), 1);
	CHECK(line_starting(out, "FAIL unit/harness/helper_fails\n") != NULL);
	CHECK(strstr(out, "\"got\", expected \"want\"") != NULL);
}

UNIT_MAIN()
