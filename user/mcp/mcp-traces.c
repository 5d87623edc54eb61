// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp-traces.h"

void mcp_traces_default_config(struct report_config *cfg)
{
	*cfg = (struct report_config){ .source = 0, .symbols = 1 };
}

/*
 * Settings as text, to tell whether two configurations analyse alike;
 * -1 when they do not fit (never equal then).
 */
static int config_key(const struct report_config *c, char *buf, size_t len)
{
	size_t off;
	int n, i;

	n = snprintf(buf, len, "%d:%llu:%d:%llu:%d:%d:%d:%s:%s:%s:%llu:%d:", c->have_from,
		     (unsigned long long)c->from_rel, c->have_to, (unsigned long long)c->to_rel,
		     c->profile, c->symbols, c->source, c->comm ? c->comm : "-",
		     c->cpus ? c->cpus : "-", c->symfs ? c->symfs : "-",
		     (unsigned long long)c->findings.min_samples, c->findings.method);
	for (i = 0; n >= 0 && (size_t)n < len && i < RULE_NR; i++) {
		off = n;
		n += snprintf(buf + off, len - off, "%a,", c->findings.threshold[i]);
	}
	for (i = 0; n >= 0 && (size_t)n < len && i < (int)c->nr_pids; i++) {
		off = n;
		n += snprintf(buf + off, len - off, "%u,", c->pids[i]);
	}
	return n >= 0 && (size_t)n < len ? 0 : -1;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

int mcp_traces_check(const struct mcp_trace *tr, struct error *err)
{
	struct stat st;

	if (stat(tr->path, &st))
		return error_set(err, -ESTALE, "%s: %s since it was loaded as '%s'", tr->path,
				 error_str(-errno), tr->id);
	if (!same_file(&st, &tr->st))
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

/* @cfg with its strings and pids copied into @run, which then owns them. */
static int own_config(struct mcp_trace_run *run, struct report_config *cfg, struct error *err)
{
	if ((cfg->comm && strlen(cfg->comm) >= sizeof(run->comm)) ||
	    (cfg->cpus && strlen(cfg->cpus) >= sizeof(run->cpus)) || cfg->nr_pids > REPORT_MAX_PIDS ||
	    cfg->symfs)
		return error_set(err, -EINVAL, "settings too long to keep");
	if (cfg->comm)
		cfg->comm = strcpy(run->comm, cfg->comm);
	if (cfg->cpus)
		cfg->cpus = strcpy(run->cpus, cfg->cpus);
	if (cfg->nr_pids)
		cfg->pids = memcpy(run->pids, cfg->pids, cfg->nr_pids * sizeof(*cfg->pids));
	return 0;
}

const struct report *mcp_traces_report(struct mcp_trace *tr, const struct report_config *cfg,
				       struct error *err)
{
	char key[sizeof(tr->other->key)], base_key[sizeof(tr->other->key)];
	struct report_config def, own = *cfg;
	struct mcp_trace_run *run;
	int have_key;

	mcp_traces_default_config(&def);
	have_key = !config_key(cfg, key, sizeof(key)) &&
		   !config_key(&def, base_key, sizeof(base_key));
	if (have_key && !strcmp(key, base_key))
		return tr->base;
	if (have_key && tr->other && !strcmp(key, tr->other->key))
		return tr->other->r;
	if (mcp_traces_check(tr, err))
		return NULL;
	run = calloc(1, sizeof(*run));
	if (!run) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	if (own_config(run, &own, err) || !(run->r = report_run(tr->path, &own, err))) {
		free(run);
		return NULL;
	}
	if (have_key)
		strcpy(run->key, key);	/* else "": never matches a key */
	if (tr->other)
		report_free(tr->other->r);
	free(tr->other);
	tr->other = run;
	return run->r;
}

void mcp_traces_fini(struct mcp_traces *t)
{
	while (t->n)
		trace_free(t->v[--t->n]);
}
