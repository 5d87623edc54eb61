// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/cgroup-cpu.h"
#include "capture/cgroup-table.h"
#include "util/array.h"

/* --- Reading the hierarchy --- */

/* mountinfo writes ' ', '\t', '\n' and '\\' as "\ooo" (fs/proc_namespace.c). */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/*
 * The cgroup2 mount point into *@mnt (malloc'ed). A mount of the whole
 * hierarchy (its root "/") is preferred: a mount of a subtree, the only
 * one in some containers, names paths from that subtree.
 * 0, -ENOENT (none), -ENOMEM, or -errno (mountinfo unreadable).
 */
static int find_mount(char **mnt)
{
	char *line = NULL, *best = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f;

	*mnt = NULL;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAG...] - FSTYPE SOURCE SUPER" */
	while (getline(&line, &cap, f) > 0) {
		char *field[5], *p = line, *fstype;
		int i, whole;

		line[strcspn(line, "\n")] = '\0';
		for (i = 0; i < 5 && (field[i] = strsep(&p, " ")); i++)
			;
		if (i < 5 || !p)
			continue;
		fstype = strstr(p, " - ");
		if (!fstype)
			continue;
		fstype += 3;
		if (strncmp(fstype, "cgroup2 ", 8))
			continue;
		whole = !strcmp(field[3], "/");
		if (best && !whole)
			continue;
		free(best);
		best = strdup(field[4]);
		if (!best) {
			ret = -ENOMEM;
			break;
		}
		unescape_octal(best);
		ret = 0;
		if (whole)
			break;
	}
	free(line);
	fclose(f);
	if (ret) {
		free(best);
		return ret;
	}
	*mnt = best;
	return 0;
}

/* The text being written, and where the bounds stop it. */
struct walk {
	char *text;
	size_t len, cap;
	uint32_t nr;
	dev_t dev;
	int full;		/* a bound was reached: nothing more is added */
	int want_cpu;		/* each cgroup's cpu.stat too, into @cpu */
	char *cpu;
	size_t cpu_len, cpu_cap;
};

/* Cgroup @id's cpu.stat line (capture/cgroup-cpu.h), if it has one. 0 or -ENOMEM. */
static int add_cpu(struct walk *w, int dirfd, uint64_t id)
{
	char line[CGROUP_CPU_LINE_MAX];
	size_t n;

	if (!w->want_cpu)
		return 0;
	n = cgroup_cpu_format(dirfd, id, line);
	if (!n || w->cpu_len + n + 1 > CGROUP_TABLE_TEXT_MAX)
		return 0;
	if (array_reserve_n((void **)&w->cpu, &w->cpu_cap, w->cpu_len + n, 1, 16384))
		return -ENOMEM;
	memcpy(w->cpu + w->cpu_len, line, n + 1);
	w->cpu_len += n;
	return 0;
}

/* A path byte as the table writes it: '\n', '\\', unprintable ones escaped. */
static size_t escaped_len(unsigned char c)
{
	if (c == '\n' || c == '\\')
		return 2;
	return c < 0x20 || c >= 0x7f ? 4 : 1;
}

/*
 * Add "@id @path\n", @path (@plen bytes, "" for the root) escaped; over a
 * bound, nothing more is added. 0 or -ENOMEM.
 */
static int add_line(struct walk *w, uint64_t id, const char *path, size_t plen)
{
	char num[24], *p;
	size_t need, i;
	int n;

	n = snprintf(num, sizeof(num), "%" PRIu64 " ", id);
	need = n + (plen ? 0 : 1) + 1;
	for (i = 0; i < plen; i++)
		need += escaped_len(path[i]);
	if (w->nr >= CGROUP_TABLE_MAX_CGROUPS || w->len + need + 1 > CGROUP_TABLE_TEXT_MAX) {
		w->full = 1;
		return 0;
	}
	if (w->len + need + 1 > w->cap) {
		size_t ncap = w->cap;
		char *nt;

		while (ncap < w->len + need + 1)
			ncap *= 2;
		if (ncap > CGROUP_TABLE_TEXT_MAX)
			ncap = CGROUP_TABLE_TEXT_MAX;
		nt = realloc(w->text, ncap);
		if (!nt)
			return -ENOMEM;
		w->text = nt;
		w->cap = ncap;
	}
	p = w->text + w->len;
	memcpy(p, num, n);
	p += n;
	if (!plen)
		*p++ = '/';
	for (i = 0; i < plen; i++) {
		unsigned char c = path[i];

		if (c == '\n' || c == '\\') {
			*p++ = '\\';
			*p++ = c == '\n' ? 'n' : '\\';
		} else if (escaped_len(c) == 4) {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = "0123456789abcdef"[c >> 4];
			*p++ = "0123456789abcdef"[c & 15];
		} else {
			*p++ = c;
		}
	}
	*p++ = '\n';
	*p = '\0';
	w->len = p - w->text;
	w->nr++;
	return 0;
}

/*
 * Depth first from @root_fd, one open directory a level. Entries that are
 * not directories are control files; symlinks are not followed, and a
 * directory of another filesystem (something mounted over a cgroup) is no
 * cgroup. A cgroup removed during the walk, or unreadable, is left out.
 */
static int walk_tree(struct walk *w, int root_fd)
{
	struct {
		DIR *d;
		size_t plen;
	} stack[CGROUP_TABLE_MAX_DEPTH];
	char *path = malloc(CGROUP_TABLE_MAX_DEPTH * (NAME_MAX + 1) + 1);
	int depth = 0, ret = 0;

	if (!path) {
		close(root_fd);
		return -ENOMEM;
	}
	stack[0].d = fdopendir(root_fd);
	stack[0].plen = 0;
	if (!stack[0].d) {
		ret = -errno;
		close(root_fd);
		free(path);
		return ret;
	}
	while (depth >= 0 && !w->full && !ret) {
		struct dirent *de = readdir(stack[depth].d);
		size_t plen, nlen;
		struct stat st;
		int fd;

		if (!de) {
			closedir(stack[depth--].d);
			continue;
		}
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		fd = openat(dirfd(stack[depth].d), de->d_name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || st.st_dev != w->dev) {
			close(fd);
			continue;
		}
		plen = stack[depth].plen;
		nlen = strnlen(de->d_name, NAME_MAX);
		path[plen] = '/';
		memcpy(path + plen + 1, de->d_name, nlen);
		plen += 1 + nlen;
		ret = add_line(w, st.st_ino, path, plen);
		if (!ret && !w->full)
			ret = add_cpu(w, fd, st.st_ino);
		if (ret || w->full || depth + 1 >= (int)CGROUP_TABLE_MAX_DEPTH) {
			close(fd);
			continue;
		}
		stack[depth + 1].d = fdopendir(fd);
		if (!stack[depth + 1].d) {
			ret = -errno;
			close(fd);
			continue;
		}
		stack[++depth].plen = plen;
	}
	while (depth >= 0)
		closedir(stack[depth--].d);
	free(path);
	return ret;
}

int cgroup_table_read_dir(const char *dir, char **text, char **cpu)
{
	struct walk w = { .cap = 65536, .want_cpu = !!cpu };
	struct stat st;
	int fd, ret;

	*text = NULL;
	if (cpu)
		*cpu = NULL;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	w.dev = st.st_dev;
	w.text = malloc(w.cap);
	if (!w.text) {
		close(fd);
		return -ENOMEM;
	}
	w.text[0] = '\0';
	ret = add_line(&w, st.st_ino, "", 0);
	if (!ret)
		ret = add_cpu(&w, fd, st.st_ino);
	if (!ret)
		ret = walk_tree(&w, fd);	/* closes fd */
	else
		close(fd);
	if (ret) {
		free(w.text);
		free(w.cpu);
		return ret;
	}
	*text = w.text;
	if (cpu)
		*cpu = w.cpu;
	return 0;
}

int cgroup_table_read(char **text, char **cpu)
{
	char *mnt;
	int ret;

	*text = NULL;
	if (cpu)
		*cpu = NULL;
	ret = find_mount(&mnt);
	if (ret)
		return ret;
	ret = cgroup_table_read_dir(mnt, text, cpu);
	free(mnt);
	return ret;
}

/* "/a//b/" as "/a/b", "" and "/" as "/"; @s rewritten in place. */
static void canonical_path(char *s)
{
	char *out = s, *in = s;

	*out++ = '/';
	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		if (out[-1] != '/')
			*out++ = '/';
		while (*in && *in != '/')
			*out++ = *in++;
	}
	*out = '\0';
}

/* Whether a component of canonical @s is "." or "..": no path of the table. */
static int has_dot_component(const char *s)
{
	for (; *s; s++)
		if (s[0] == '/' && s[1] == '.' &&
		    (!s[2] || s[2] == '/' || (s[2] == '.' && (!s[3] || s[3] == '/'))))
			return 1;
	return 0;
}

int cgroup_table_lookup_dir(const char *mnt, const char *path, uint64_t *id, char **canon)
{
	size_t mlen = strlen(mnt);
	struct stat root, st;
	char *rel, *full = NULL;
	int ret = 0;

	*canon = NULL;
	/* Under the mount point, the rest; else a path from the root. */
	if (mlen && !strncmp(path, mnt, mlen) && (path[mlen] == '/' || !path[mlen]))
		path += mlen;
	if (asprintf(&rel, "/%s", path) < 0)
		return -ENOMEM;
	canonical_path(rel);
	if (has_dot_component(rel)) {
		ret = -EINVAL;
		goto out;
	}
	if (asprintf(&full, "%s%s", mnt, rel) < 0) {
		full = NULL;
		ret = -ENOMEM;
		goto out;
	}
	if (stat(mnt, &root) || stat(full, &st)) {
		ret = errno == ENOTDIR ? -ENOTDIR : -ENOENT;
		goto out;
	}
	if (!S_ISDIR(st.st_mode) || st.st_dev != root.st_dev) {
		ret = -ENOTDIR;
		goto out;
	}
	*id = st.st_ino;
	*canon = rel;
	rel = NULL;
out:
	free(full);
	free(rel);
	return ret;
}

int cgroup_table_lookup(const char *path, uint64_t *id, char **canon)
{
	char *mnt;
	int ret;

	*canon = NULL;
	ret = find_mount(&mnt);
	if (ret)
		return ret;
	ret = cgroup_table_lookup_dir(mnt, path, id, canon);
	free(mnt);
	return ret;
}

/* --- The table --- */

void cgroup_table_free(struct cgroup_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->entries[i].path);
	free(t->entries);
	t->entries = NULL;
	t->nr = 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "ID /PATH" (@n bytes at @p, no newline) into @e; 0 or -EINVAL, -ENOMEM. */
static int parse_line(const char *p, size_t n, struct cgroup_table_entry *e)
{
	const char *end = p + n;
	uint64_t id = 0;
	char *out;

	if (p == end || *p < '0' || *p > '9')
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		if (id > (UINT64_MAX - d) / 10)
			return -EINVAL;
		id = id * 10 + d;
	}
	if (end - p < 2 || p[0] != ' ' || p[1] != '/')
		return -EINVAL;
	p++;
	/* Unescaped, a path is never longer than written. */
	e->path = malloc(end - p + 1);
	if (!e->path)
		return -ENOMEM;
	for (out = e->path; p < end; p++) {
		int hi, lo;

		if (*p != '\\') {
			*out++ = *p;
			continue;
		}
		if (end - p >= 2 && (p[1] == '\\' || p[1] == 'n')) {
			*out++ = p[1] == 'n' ? '\n' : '\\';
			p++;
			continue;
		}
		if (end - p < 4 || p[1] != 'x' || (hi = hex_digit(p[2])) < 0 ||
		    (lo = hex_digit(p[3])) < 0 || !(hi | lo)) {
			free(e->path);
			e->path = NULL;
			return -EINVAL;	/* an unknown escape, or a NUL byte */
		}
		*out++ = (char)(hi << 4 | lo);
		p += 3;
	}
	*out = '\0';
	e->id = id;
	return 0;
}

/* Stable (the first of equal ids stays first): bottom-up merge sort. */
static void sort_by_id(struct cgroup_table_entry *v, struct cgroup_table_entry *tmp, size_t n)
{
	struct cgroup_table_entry *from = v, *to = tmp, *x;
	size_t w;

	for (w = 1; w < n; w *= 2) {
		size_t l;

		for (l = 0; l < n; l += 2 * w) {
			size_t m = l + w < n ? l + w : n, r = m + w < n ? m + w : n;
			size_t a = l, b = m, k = l;

			while (a < m && b < r)
				to[k++] = from[b].id < from[a].id ? from[b++] : from[a++];
			while (a < m)
				to[k++] = from[a++];
			while (b < r)
				to[k++] = from[b++];
		}
		x = from;
		from = to;
		to = x;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
}

int cgroup_table_parse(const char *text, struct cgroup_table *t)
{
	struct cgroup_table_entry *tmp;
	size_t lines = 0, i, k;
	const char *p, *nl;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	for (p = text; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		lines++;
		if (!nl)
			break;
	}
	if (!lines)
		return 0;
	t->entries = calloc(lines, sizeof(*t->entries));
	if (!t->entries)
		return -ENOMEM;
	for (p = text; *p && !ret; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		ret = parse_line(p, nl ? (size_t)(nl - p) : strlen(p), &t->entries[t->nr]);
		if (!ret)
			t->nr++;
	}
	tmp = ret ? NULL : malloc(t->nr * sizeof(*tmp));
	if (!ret && !tmp)
		ret = -ENOMEM;
	if (ret) {
		cgroup_table_free(t);
		return ret;
	}
	sort_by_id(t->entries, tmp, t->nr);
	free(tmp);
	/* An id twice (a cgroup renamed while the tree was read): the first stays. */
	for (i = k = 0; i < t->nr; i++) {
		if (k && t->entries[k - 1].id == t->entries[i].id)
			free(t->entries[i].path);
		else
			t->entries[k++] = t->entries[i];
	}
	t->nr = k;
	return 0;
}

static const struct cgroup_table_entry *find(const struct cgroup_table *t, uint64_t id)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->entries[mid].id == id)
			return &t->entries[mid];
		if (t->entries[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *cgroup_table_path(const struct cgroup_table *t, uint64_t id)
{
	const struct cgroup_table_entry *e = find(t, id);

	return e ? e->path : NULL;
}

int cgroup_table_merge(struct cgroup_table *dst, const struct cgroup_table *src)
{
	struct cgroup_table_entry *v;
	size_t i, j, k, add = 0;
	char **paths;

	/* Both sorted by id: one pass counts, one merges. */
	for (i = j = 0; j < src->nr; j++) {
		while (i < dst->nr && dst->entries[i].id < src->entries[j].id)
			i++;
		if (i == dst->nr || dst->entries[i].id != src->entries[j].id)
			add++;
	}
	if (!add)
		return 0;
	if (add > SIZE_MAX / sizeof(*v) - dst->nr)
		return -ENOMEM;
	paths = calloc(add, sizeof(*paths));
	v = malloc((dst->nr + add) * sizeof(*v));
	if (!paths || !v)
		goto nomem;
	/* The copies first: a failure then leaves @dst as it was. */
	for (i = j = k = 0; j < src->nr; j++) {
		while (i < dst->nr && dst->entries[i].id < src->entries[j].id)
			i++;
		if (i < dst->nr && dst->entries[i].id == src->entries[j].id)
			continue;
		paths[k] = strdup(src->entries[j].path);
		if (!paths[k++])
			goto nomem;
	}
	for (i = j = k = 0; i < dst->nr || j < src->nr;) {
		if (j == src->nr || (i < dst->nr && dst->entries[i].id <= src->entries[j].id)) {
			if (j < src->nr && dst->entries[i].id == src->entries[j].id)
				j++;
			v[k++] = dst->entries[i++];
		} else {
			v[k].id = src->entries[j++].id;
			v[k].path = paths[k - i];
			k++;
		}
	}
	free(paths);
	free(dst->entries);
	dst->entries = v;
	dst->nr = k;
	return 0;
nomem:
	for (k = 0; paths && k < add; k++)
		free(paths[k]);
	free(paths);
	free(v);
	return -ENOMEM;
}
