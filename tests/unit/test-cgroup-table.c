// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/cgroup-table.h"
#include "unit.h"

/* As the recorder writes it: the root first, ids in no order. */
static const char sample[] =
	"1 /\n"
	"4127 /system.slice\n"
	"9 /system.slice/a\\x20b.service\n"
	"5020 /user.slice/new\\nline\n"
	"77 /back\\\\slash/\\x01\\xFF\n"
	"18446744073709551615 /max\n";

UNIT_TEST(parse)
{
	struct cgroup_table t;

	CHECK_EQ(cgroup_table_parse(sample, &t), 0);
	CHECK_EQ(t.nr, 6);
	CHECK_STR(cgroup_table_path(&t, 1), "/");
	CHECK_STR(cgroup_table_path(&t, 4127), "/system.slice");
	CHECK_STR(cgroup_table_path(&t, 9), "/system.slice/a b.service");
	CHECK_STR(cgroup_table_path(&t, 5020), "/user.slice/new\nline");
	CHECK_STR(cgroup_table_path(&t, 77), "/back\\slash/\x01\xff");
	CHECK_STR(cgroup_table_path(&t, UINT64_MAX), "/max");
	CHECK(cgroup_table_path(&t, 0) == NULL);
	CHECK(cgroup_table_path(&t, 10) == NULL);
	CHECK(cgroup_table_path(&t, 5021) == NULL);
	cgroup_table_free(&t);
	CHECK_EQ(t.nr, 0);

	/* No trailing newline; nothing at all. */
	CHECK_EQ(cgroup_table_parse("3 /x\n2 /y", &t), 0);
	CHECK_EQ(t.nr, 2);
	CHECK_STR(cgroup_table_path(&t, 2), "/y");
	cgroup_table_free(&t);
	CHECK_EQ(cgroup_table_parse("", &t), 0);
	CHECK_EQ(t.nr, 0);
	CHECK(cgroup_table_path(&t, 1) == NULL);
	cgroup_table_free(&t);
}

UNIT_TEST(duplicates)
{
	struct cgroup_table t;

	/* The first line of an id counts (a cgroup renamed during the walk). */
	CHECK_EQ(cgroup_table_parse("5 /old\n1 /\n5 /new\n3 /c\n5 /newer\n", &t), 0);
	CHECK_EQ(t.nr, 3);
	CHECK_STR(cgroup_table_path(&t, 5), "/old");
	CHECK_STR(cgroup_table_path(&t, 1), "/");
	CHECK_STR(cgroup_table_path(&t, 3), "/c");
	cgroup_table_free(&t);
}

UNIT_TEST(rejects)
{
	static const char *const bad[] = {
		"garbage\n",
		"1\n",
		"1 \n",
		"1 x\n",
		"1  /\n",
		" 1 /\n",
		"-1 /\n",
		"+1 /\n",
		"0x10 /\n",
		"18446744073709551616 /\n",		/* UINT64_MAX + 1 */
		"99999999999999999999999999 /\n",
		"1 /\n\n2 /b\n",			/* an empty line */
		"\n",
		"1 /\n2 /b\nthree /c\n",		/* good lines, then not */
		"1 /a\\q\n",
		"1 /a\\x0\n",
		"1 /a\\xg0\n",
		"1 /a\\x00b\n",				/* no NUL in a path */
		"1 /a\\\n",
	};
	struct cgroup_table t;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = cgroup_table_parse(bad[i], &t);

		if (ret != -EINVAL)
			UNIT_FAIL("bad[%zu]: %d, expected -EINVAL", i, ret);
		/* Left empty: freeing it again is harmless. */
		CHECK(t.nr == 0 && t.entries == NULL);
		cgroup_table_free(&t);
	}
}

UNIT_TEST(merge)
{
	struct cgroup_table a, b, empty = { 0 };

	CHECK_EQ(cgroup_table_parse("1 /\n5 /a\n8 /gone-at-stop\n", &a), 0);
	CHECK_EQ(cgroup_table_parse("9 /c\n1 /renamed\n3 /b\n5 /a\n", &b), 0);
	CHECK_EQ(cgroup_table_merge(&a, &b), 0);
	CHECK_EQ(a.nr, 5);
	CHECK_STR(cgroup_table_path(&a, 1), "/");	/* dst's name stays */
	CHECK_STR(cgroup_table_path(&a, 3), "/b");
	CHECK_STR(cgroup_table_path(&a, 5), "/a");
	CHECK_STR(cgroup_table_path(&a, 8), "/gone-at-stop");
	CHECK_STR(cgroup_table_path(&a, 9), "/c");
	if (a.nr == 5)
		CHECK(a.entries[0].id == 1 && a.entries[1].id == 3 && a.entries[2].id == 5 &&
		      a.entries[3].id == 8 && a.entries[4].id == 9);
	/* Again: nothing new. From and into an empty table. */
	CHECK_EQ(cgroup_table_merge(&a, &b), 0);
	CHECK_EQ(a.nr, 5);
	CHECK_EQ(cgroup_table_merge(&a, &empty), 0);
	CHECK_EQ(a.nr, 5);
	CHECK_EQ(cgroup_table_merge(&empty, &b), 0);
	CHECK_EQ(empty.nr, 4);
	CHECK_STR(cgroup_table_path(&empty, 1), "/renamed");
	/* The copy is its own: b freed, the names stay. */
	cgroup_table_free(&b);
	CHECK_STR(cgroup_table_path(&empty, 9), "/c");
	cgroup_table_free(&empty);
	cgroup_table_free(&a);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static uint64_t ino_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : st.st_ino;
}

/*
 * The walk on a tree of our own: names that need escapes come back the
 * same through the parser; files and symlinks are no cgroups; the depth
 * bound holds.
 */
UNIT_TEST(read_dir)
{
	static const char *const dirs[] = {
		"a", "a/b c", "a/new\nline", "back\\slash", "x\x01y\xe9",
	};
	char root[] = "/tmp/ktprof-cgroup-table.XXXXXX", path[4096], *text = NULL;
	struct cgroup_table t;
	size_t i, len;
	FILE *f;
	int depth;

	if (!mkdtemp(root))
		UNIT_SKIP("mkdtemp: %s", strerror(errno));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		CHECK_EQ(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/a/file", root);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/link", root);
	CHECK_EQ(symlink("a", path), 0);
	/* 70 levels of "d": the walk lists 64 below the root. */
	len = snprintf(path, sizeof(path), "%s", root);
	for (depth = 1; depth <= 70; depth++) {
		len += snprintf(path + len, sizeof(path) - len, "/d");
		CHECK_EQ(mkdir(path, 0755), 0);
	}

	CHECK_EQ(cgroup_table_read_dir(root, &text, NULL), 0);
	CHECK(text != NULL);
	if (!text)
		goto out;
	/* Each line one line: 1 + 5 + 64 of them. */
	for (i = 0, len = 0; text[i]; i++)
		len += text[i] == '\n';
	CHECK_EQ(len, 70);
	CHECK(strstr(text, " /a/new\\nline\n") != NULL);
	CHECK(strstr(text, " /back\\\\slash\n") != NULL);
	CHECK(strstr(text, " /x\\x01y\\xe9\n") != NULL);
	CHECK(strstr(text, "link") == NULL && strstr(text, "file") == NULL);
	CHECK_EQ(cgroup_table_parse(text, &t), 0);
	CHECK_EQ(t.nr, 70);
	CHECK_STR(cgroup_table_path(&t, ino_of(root)), "/");
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char want[256];

		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		snprintf(want, sizeof(want), "/%s", dirs[i]);
		CHECK_STR(cgroup_table_path(&t, ino_of(path)), want);
	}
	len = snprintf(path, sizeof(path), "%s", root);
	for (depth = 1; depth <= 65; depth++) {
		len += snprintf(path + len, sizeof(path) - len, "/d");
		if (depth == 64)
			CHECK_STR(cgroup_table_path(&t, ino_of(path)), path + strlen(root));
		if (depth == 65)
			CHECK(cgroup_table_path(&t, ino_of(path)) == NULL);
	}
	cgroup_table_free(&t);
out:
	free(text);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	CHECK_EQ(cgroup_table_read_dir(root, &text, NULL), -ENOENT);
}

/*
 * -G's paths: from the root or under the mount point, slashes squeezed,
 * the root itself; "." and "..", files and missing ones refused.
 */
UNIT_TEST(lookup_dir)
{
	char root[] = "/tmp/ktprof-cgroup-lookup.XXXXXX", path[4096], *canon = NULL;
	uint64_t id = 0;
	FILE *f;

	if (!mkdtemp(root))
		UNIT_SKIP("mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/a", root);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/a/b", root);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/a/cpu.stat", root);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);

	CHECK_EQ(cgroup_table_lookup_dir(root, "/a//b/", &id, &canon), 0);
	CHECK_STR(canon, "/a/b");
	snprintf(path, sizeof(path), "%s/a/b", root);
	CHECK_EQ(id, ino_of(path));
	free(canon);
	CHECK_EQ(cgroup_table_lookup_dir(root, "a", &id, &canon), 0);
	CHECK_STR(canon, "/a");
	free(canon);
	snprintf(path, sizeof(path), "%s/a/b", root);
	CHECK_EQ(cgroup_table_lookup_dir(root, path, &id, &canon), 0);
	CHECK_STR(canon, "/a/b");
	free(canon);
	CHECK_EQ(cgroup_table_lookup_dir(root, root, &id, &canon), 0);
	CHECK_STR(canon, "/");
	CHECK_EQ(id, ino_of(root));
	free(canon);
	CHECK_EQ(cgroup_table_lookup_dir(root, "/", &id, &canon), 0);
	CHECK_STR(canon, "/");
	free(canon);

	CHECK_EQ(cgroup_table_lookup_dir(root, "/a/../a", &id, &canon), -EINVAL);
	CHECK_EQ(cgroup_table_lookup_dir(root, "/a/.", &id, &canon), -EINVAL);
	CHECK(canon == NULL);
	CHECK_EQ(cgroup_table_lookup_dir(root, "/a/.hidden", &id, &canon), -ENOENT);
	CHECK_EQ(cgroup_table_lookup_dir(root, "/a/cpu.stat", &id, &canon), -ENOTDIR);
	CHECK_EQ(cgroup_table_lookup_dir(root, "/a/cpu.stat/x", &id, &canon), -ENOTDIR);
	CHECK_EQ(cgroup_table_lookup_dir(root, "/nope", &id, &canon), -ENOENT);
	/* Nor a way out of the tree. */
	CHECK_EQ(cgroup_table_lookup_dir(root, "/../../proc", &id, &canon), -EINVAL);
	CHECK(canon == NULL);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* This machine's hierarchy, if it has one: it parses, and has its root. */
UNIT_TEST(read)
{
	struct cgroup_table t;
	char *text = NULL;
	int ret = cgroup_table_read(&text, NULL);

	if (ret == -ENOENT)
		UNIT_SKIP("no cgroup2 mounted");
	CHECK_EQ(ret, 0);
	CHECK(text != NULL);
	if (ret || !text)
		return;
	CHECK(strlen(text) < CGROUP_TABLE_TEXT_MAX);
	CHECK_EQ(cgroup_table_parse(text, &t), 0);
	CHECK(t.nr >= 1 && t.nr <= CGROUP_TABLE_MAX_CGROUPS);
	/* The root comes first, and is "/". */
	CHECK(strchr(text, ' ') && !strncmp(strchr(text, ' '), " /\n", 3));
	for (ret = 0; (size_t)ret < t.nr; ret++)
		if (!strcmp(t.entries[ret].path, "/"))
			break;
	CHECK((size_t)ret < t.nr);
	cgroup_table_free(&t);
	free(text);
}

UNIT_MAIN()
