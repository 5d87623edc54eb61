/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup v2 hierarchy as a capture keeps it: records name a cgroup by
 * its id only, so the recorder reads the tree at the session's start and
 * at its stop, and stores it as text, one line a cgroup:
 *
 *	ID PATH\n
 *
 * ID is the cgroup directory's inode number in decimal (on 64-bit kernels
 * the cgroup id is the kernfs node id, which is that inode number), PATH
 * the directory's path from the cgroup2 root, "/" for the root itself.
 * A byte of PATH that is '\n', '\\' or not printable ASCII is written as
 * "\n", "\\" or "\xHH", so that every line stays one line.
 */
#ifndef KTPROF_CGROUP_TABLE_H
#define KTPROF_CGROUP_TABLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bounds of a read: a tree larger than these is cut (the table has what
 * was read before), so a machine with a huge hierarchy costs a capture a
 * few MiB of metadata at most.
 */
#define CGROUP_TABLE_MAX_CGROUPS 65536u
#define CGROUP_TABLE_MAX_DEPTH 64u	/* levels below the root */
#define CGROUP_TABLE_TEXT_MAX (8u << 20)

struct cgroup_table_entry {
	uint64_t id;
	char *path;		/* unescaped, NUL-terminated */
};

/* By id, each id once. All zeroes is an empty table. */
struct cgroup_table {
	struct cgroup_table_entry *entries;
	size_t nr;
};

/*
 * Walk this machine's cgroup2 hierarchy (its mount found in
 * /proc/self/mountinfo) into *@text, malloc'ed and NUL-terminated, and,
 * unless @cpu is NULL, each cgroup's cpu.stat into *@cpu (the lines of
 * capture/cgroup-cpu.h; NULL when no cgroup has one). 0, or -ENOENT when
 * no cgroup2 is mounted, -ENOMEM, or -errno when the root cannot be read.
 */
int cgroup_table_read(char **text, char **cpu);

/*
 * The same walk from @dir, as if it were the cgroup2 root (what
 * cgroup_table_read() does once it found the mount; tests walk a tree of
 * their own). 0, -ENOMEM or -errno (@dir cannot be read).
 */
int cgroup_table_read_dir(const char *dir, char **text, char **cpu);

/*
 * The cgroup that @path names on this machine into *@id: a path from the
 * cgroup2 root ("/a/b" or "a/b") or one under its mount point
 * ("/sys/fs/cgroup/a/b"); its path from the root, "/" for the root, into
 * *@canon (malloc'ed). 0, -ENOENT (no cgroup2, or no such cgroup),
 * -ENOTDIR (not a cgroup: a control file, another file system), -EINVAL
 * (a "." or ".." component), -ENOMEM.
 */
int cgroup_table_lookup(const char *path, uint64_t *id, char **canon);

/* The same, with the cgroup2 root mounted at @mnt (tests: a tree of their own). */
int cgroup_table_lookup_dir(const char *mnt, const char *path, uint64_t *id, char **canon);

/*
 * Parse @text into @t; a later line with an id already seen is ignored.
 * 0, -EINVAL (a line that is not "ID PATH") or -ENOMEM; on failure @t is
 * left empty. cgroup_table_free() after success.
 */
int cgroup_table_parse(const char *text, struct cgroup_table *t);

/* Add the cgroups of @src that @dst has no id of. 0 or -ENOMEM (@dst unchanged). */
int cgroup_table_merge(struct cgroup_table *dst, const struct cgroup_table *src);

/* The path of cgroup @id, NULL when @t does not know it. */
const char *cgroup_table_path(const struct cgroup_table *t, uint64_t id);

void cgroup_table_free(struct cgroup_table *t);

#endif
