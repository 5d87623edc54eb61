// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-traces.h"
#include "util/hash.h"

void mcp_traces_default_config(struct report_config *cfg)
{
	*cfg = (struct report_config){ .source = 0 };
}

/* Whether two configurations analyse alike. */
static int same_config(const struct report_config *a, const struct report_config *b)
{
	int i;

	if (!filter_equal(&a->filter, &b->filter) || a->profile != b->profile ||
	    a->source != b->source || !a->symfs != !b->symfs ||
	    (a->symfs && strcmp(a->symfs, b->symfs)) ||
	    a->findings.min_samples != b->findings.min_samples ||
	    a->findings.method != b->findings.method)
		return 0;
	for (i = 0; i < FINDINGS_MAX_RULES; i++)
		if (a->findings.threshold[i] != b->findings.threshold[i])
			return 0;
	return 1;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/*
 * What a raw dump directory holds: its entries' names and identities
 * (inode, size, modification time), summed so that their order does not
 * matter. A cpuN file rewritten in place leaves the directory's own stat
 * as it was. 0 for a file (its stat says it all).
 */
static uint64_t fingerprint(const char *path, const struct stat *st)
{
	struct dirent *e;
	uint64_t sum = 0;
	struct stat es;
	DIR *d;

	if (!S_ISDIR(st->st_mode) || !(d = opendir(path)))
		return 0;
	while ((e = readdir(d))) {
		uint64_t id[4] = { 0 };

		if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &es, AT_SYMLINK_NOFOLLOW))
			continue;
		id[0] = es.st_ino;
		id[1] = (uint64_t)es.st_size;
		id[2] = (uint64_t)es.st_mtim.tv_sec;
		id[3] = (uint64_t)es.st_mtim.tv_nsec;
		sum += hash_fnv1a(id, sizeof(id), hash_fnv1a(e->d_name, strlen(e->d_name),
							     HASH_FNV1A_SEED));
	}
	closedir(d);
	return sum;
}

int mcp_traces_check(const struct mcp_trace *tr, struct error *err)
{
	struct stat st;

	if (stat(tr->path, &st))
		return error_set(err, -ESTALE, "%s: %s since it was loaded as '%s'", tr->path,
				 error_str(-errno), tr->id);
	if (!same_file(&st, &tr->st) || fingerprint(tr->path, &st) != tr->fingerprint)
		return error_set(err, -ESTALE,
				 "%s changed since it was loaded as '%s': load_capture it again",
				 tr->path, tr->id);
	return 0;
}

static int id_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_';
}

/* The file's (or directory's) name, with what is not [A-Za-z0-9._-] made '_'. */
static void id_from_path(const char *path, char *id)
{
	size_t end = strlen(path), start, i, n = 0;

	while (end > 1 && path[end - 1] == '/')
		end--;
	for (start = end; start > 0 && path[start - 1] != '/'; start--)
		;
	for (i = start; i < end && n < MCP_TRACE_ID_MAX; i++)
		id[n++] = id_char(path[i]) ? path[i] : '_';
	if (!n)
		id[n++] = '_';
	id[n] = '\0';
}

static int index_of(const struct mcp_traces *t, const char *id)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i]->id, id))
			return i;
	return -1;
}

static void trace_free(struct mcp_trace *tr)
{
	if (!tr)
		return;
	report_free(tr->base);
	if (tr->other)
		report_free(tr->other->r);
	free(tr->other);
	table_db_free(tr->db);
	free(tr);
}

const char *mcp_traces_ids(const struct mcp_traces *t, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < t->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", t->v[i]->id);
	return buf;
}

int mcp_traces_load(struct mcp_traces *t, const char *path, const char *id,
		    struct mcp_trace **out, struct error *err)
{
	struct report_config cfg;
	struct mcp_trace *tr;
	char ids[MCP_TRACES_MAX * (MCP_TRACE_ID_MAX + 2) + 1];
	int i;

	if (strlen(path) >= sizeof(tr->path))
		return error_set(err, -ENAMETOOLONG, NULL);
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return error_set(err, -ENOMEM, NULL);
	if (id)
		snprintf(tr->id, sizeof(tr->id), "%s", id);
	else
		id_from_path(path, tr->id);
	i = index_of(t, tr->id);
	if (i < 0 && t->n == MCP_TRACES_MAX) {
		free(tr);
		return error_set(err, -ENOSPC,
				 "%d traces are loaded, the most there may be: unload_capture one first (loaded: %s)",
				 MCP_TRACES_MAX, mcp_traces_ids(t, ids, sizeof(ids)));
	}
	snprintf(tr->path, sizeof(tr->path), "%s", path);
	/* The identity first: a file replaced while it is read is then caught later. */
	if (stat(path, &tr->st)) {
		free(tr);
		return error_set(err, -errno, "%s: %s", path, error_str(-errno));
	}
	tr->fingerprint = fingerprint(path, &tr->st);
	mcp_traces_default_config(&cfg);
	tr->base = report_run(path, &cfg, err);
	if (!tr->base) {
		free(tr);
		return err->code;
	}
	if (i >= 0) {
		trace_free(t->v[i]);
		t->v[i] = tr;
	} else {
		t->v[t->n++] = tr;
	}
	*out = tr;
	return 0;
}

int mcp_traces_unload(struct mcp_traces *t, const char *id)
{
	int i = index_of(t, id);

	if (i < 0)
		return -ENOENT;
	trace_free(t->v[i]);
	memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) * sizeof(t->v[0]));
	t->n--;
	return 0;
}

struct mcp_trace *mcp_traces_find(struct mcp_traces *t, const char *id, struct error *err)
{
	char ids[MCP_TRACES_MAX * (MCP_TRACE_ID_MAX + 2) + 1];
	int i;

	if (!t->n) {
		error_set(err, -ENOENT, "no trace is loaded: call load_capture with a capture's path first");
		return NULL;
	}
	if (!id) {
		if (t->n == 1)
			return t->v[0];
		error_set(err, -EINVAL, "%u traces are loaded; name one with trace_id: %s", t->n,
			  mcp_traces_ids(t, ids, sizeof(ids)));
		return NULL;
	}
	i = index_of(t, id);
	if (i < 0) {
		error_set(err, -ENOENT, "no trace '%.64s' is loaded (loaded: %s)", id,
			  mcp_traces_ids(t, ids, sizeof(ids)));
		return NULL;
	}
	return t->v[i];
}

const struct report *mcp_traces_report(struct mcp_trace *tr, const struct report_config *cfg,
				       struct error *err)
{
	struct report_config def;
	struct mcp_trace_run *run;

	/* Cached or not, what is answered must be what the capture says now. */
	if (mcp_traces_check(tr, err))
		return NULL;
	mcp_traces_default_config(&def);
	if (same_config(cfg, &def))
		return tr->base;
	if (tr->other && same_config(cfg, &tr->other->cfg))
		return tr->other->r;
	run = calloc(1, sizeof(*run));
	if (!run) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	run->cfg = *cfg;
	run->r = report_run(tr->path, cfg, err);
	if (!run->r) {
		free(run);
		return NULL;
	}
	if (tr->other)
		report_free(tr->other->r);
	free(tr->other);
	tr->other = run;
	return run->r;
}

struct table_db *mcp_traces_db(struct mcp_traces *t, struct mcp_trace *tr, struct error *err)
{
	struct table_fill_config cfg = { .symbols = 1 };
	unsigned int i;
	int ret;

	if (mcp_traces_check(tr, err))
		return NULL;
	if (tr->db)
		return tr->db;
	for (i = 0; i < t->n; i++) {
		table_db_free(t->v[i]->db);
		t->v[i]->db = NULL;
	}
	tr->db = table_db_new(err);
	if (!tr->db)
		return NULL;
	/* A capture cut short is queried as far as it reads, as it is analysed. */
	ret = table_db_load(tr->db, tr->path, &cfg, err);
	if (ret < 0) {
		table_db_free(tr->db);
		tr->db = NULL;
		return NULL;
	}
	snprintf(tr->db_problem, sizeof(tr->db_problem), "%s", ret ? error_msg(err) : "");
	*err = (struct error){ 0 };
	return tr->db;
}

void mcp_traces_fini(struct mcp_traces *t)
{
	while (t->n)
		trace_free(t->v[--t->n]);
}
