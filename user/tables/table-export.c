// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tables/table-export.h"
#include "util/outfile.h"
#include "util/text.h"

struct export_file {
	struct outfile *of;
	FILE *f;
};

struct table_export {
	enum table_format format;
	char **names;			/* the captures' names so far */
	unsigned int nr_names;
	struct export_file files[TABLE_NR + 1];	/* the tables, then schema.json */
	char capture[600];
	char dir[4096];
};

static const char *suffix(enum table_format f)
{
	return f == TABLE_FORMAT_CSV ? "csv" : "ndjson";
}

static int file_open(struct table_export *x, struct export_file *ef, const char *name,
		     struct error *err)
{
	char path[4200];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", x->dir, name);
	ef->of = outfile_open(path, 0644, 0);
	if (!ef->of) {
		ret = -errno;
		return error_set(err, ret, "%s: %s", path, error_str(ret));
	}
	fd = dup(outfile_fd(ef->of));
	ef->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!ef->f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return error_set(err, ret, "%s: %s", path, error_str(ret));
	}
	return 0;
}

/* Rows of every table but captures (whose key it is) start with their capture's name. */
static int tagged(const struct table_def *d)
{
	return d != &table_defs[TABLE_CAPTURES];
}

static void csv_header(FILE *f, const struct table_def *d)
{
	unsigned int i;

	if (tagged(d))
		fputs("capture,", f);
	for (i = 0; i < d->nr_cols; i++)
		fprintf(f, "%s%s", i ? "," : "", d->cols[i].name);
	fputc('\n', f);
}

/* schema.json: {"format":..., "tables":[{"name","doc","file","columns":[...]}]} */
static void write_schema(const struct table_export *x, FILE *f)
{
	unsigned int i, j;

	fprintf(f, "{\"format\":\"%s\",\"tables\":[", suffix(x->format));
	for (i = 0; i < TABLE_NR; i++) {
		const struct table_def *d = &table_defs[i];

		fprintf(f, "%s\n{\"name\":\"%s\",\"file\":\"%s.%s\",\"doc\":\"", i ? "," : "",
			d->name, d->name, suffix(x->format));
		text_json_fputs(d->doc, f);
		fputs("\",\"columns\":[", f);
		if (tagged(d))
			fputs("{\"name\":\"capture\",\"type\":\"TEXT\",\"doc\":"
			      "\"the capture (captures.capture)\"},", f);
		for (j = 0; j < d->nr_cols; j++) {
			fprintf(f, "%s{\"name\":\"%s\",\"type\":\"%s\",\"doc\":\"", j ? "," : "",
				d->cols[j].name, table_type_sql(d->cols[j].type));
			text_json_fputs(d->cols[j].doc, f);
			fputs("\"}", f);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
}

/* @dir, made if absent: a directory, not a symlink to one. */
static int make_dir(const char *dir, struct error *err)
{
	struct stat st;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return error_set(err, -errno, "%s: %s", dir, error_str(-errno));
	if (lstat(dir, &st))
		return error_set(err, -errno, "%s: %s", dir, error_str(-errno));
	if (!S_ISDIR(st.st_mode))
		return error_set(err, -ENOTDIR, "%s: not a directory (a symlink is not followed)",
				 dir);
	return 0;
}

struct table_export *table_export_open(const char *dir, enum table_format f,
				       struct error *err)
{
	struct table_export *x;
	char name[64];
	unsigned int i;

	if (f == TABLE_FORMAT_TEXT) {
		error_set(err, -EINVAL, "export writes csv or ndjson");
		return NULL;
	}
	if (strlen(dir) >= sizeof(x->dir)) {
		error_set(err, -ENAMETOOLONG, "%s: %s", dir, error_str(-ENAMETOOLONG));
		return NULL;
	}
	if (make_dir(dir, err))
		return NULL;
	x = calloc(1, sizeof(*x));
	if (!x) {
		error_set(err, -ENOMEM, "%s", error_str(-ENOMEM));
		return NULL;
	}
	x->format = f;
	snprintf(x->dir, sizeof(x->dir), "%s", dir);
	for (i = 0; i <= TABLE_NR; i++) {
		if (i < TABLE_NR)
			snprintf(name, sizeof(name), "%s.%s", table_defs[i].name, suffix(f));
		else
			snprintf(name, sizeof(name), "schema.json");
		if (file_open(x, &x->files[i], name, err)) {
			table_export_discard(x);
			return NULL;
		}
		if (i < TABLE_NR && f == TABLE_FORMAT_CSV)
			csv_header(x->files[i].f, &table_defs[i]);
	}
	return x;
}

static int name_used(const struct table_export *x, const char *name)
{
	unsigned int i;

	for (i = 0; i < x->nr_names; i++)
		if (!strcmp(x->names[i], name))
			return 1;
	return 0;
}

/*
 * Two captures of one name (a file exported twice, copies of one
 * session) stay apart: the second is NAME#2, and so on.
 */
static int export_capture(void *ctx, const char *name)
{
	struct table_export *x = ctx;
	unsigned int n = 1;
	char **v;

	snprintf(x->capture, sizeof(x->capture), "%s", name);
	while (name_used(x, x->capture))
		snprintf(x->capture, sizeof(x->capture), "%s#%u", name, ++n);
	v = realloc(x->names, (x->nr_names + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	x->names = v;
	v[x->nr_names] = strdup(x->capture);
	if (!v[x->nr_names])
		return -ENOMEM;
	x->nr_names++;
	return 0;
}

static int export_row(void *ctx, enum table_id t, const struct table_value *v)
{
	struct table_export *x = ctx;
	const struct table_def *d = &table_defs[t];
	FILE *f = x->files[t].f;
	struct table_value cap = TV_TEXT(x->capture);
	int json = x->format == TABLE_FORMAT_JSON, first = 1;
	unsigned int i;

	if (json)
		fputc('{', f);
	if (tagged(d)) {
		if (json)
			table_text_json_key(f, "capture", 1);
		table_text_value(f, x->format, &cap, TABLE_TEXT);
		first = 0;
	}
	for (i = 0; i < d->nr_cols; i++) {
		if (json)
			table_text_json_key(f, d->cols[i].name, first && !i);
		else if (!first || i)
			fputc(',', f);
		/* The captures table's key: the name its rows are tagged with. */
		table_text_value(f, x->format, tagged(d) || i ? &v[i] : &cap, d->cols[i].type);
	}
	fputs(json ? "}\n" : "\n", f);
	return ferror(f) ? -EIO : 0;
}

int table_export_add(struct table_export *x, const char *path,
		     const struct table_fill_config *cfg, struct error *err)
{
	const struct table_sink sink = { export_capture, export_row, x };
	int ret = table_fill(path, cfg, &sink, err);

	if (ret == -EIO)
		error_set(err, ret, "%s: writing the tables: %s", x->dir, error_str(ret));
	return ret;
}

int table_export_close(struct table_export *x, struct error *err)
{
	unsigned int i;
	int ret = 0, r;

	write_schema(x, x->files[TABLE_NR].f);
	for (i = 0; i <= TABLE_NR; i++) {
		r = fclose(x->files[i].f) ? -errno : 0;
		x->files[i].f = NULL;
		if (r && !ret)
			ret = r;
	}
	for (i = 0; i <= TABLE_NR && !ret; i++) {
		ret = outfile_close(x->files[i].of);
		x->files[i].of = NULL;
	}
	if (ret)
		error_set(err, ret, "%s: %s", x->dir, error_str(ret));
	table_export_discard(x);
	return ret;
}

void table_export_discard(struct table_export *x)
{
	unsigned int i;

	if (!x)
		return;
	for (i = 0; i <= TABLE_NR; i++) {
		if (x->files[i].f)
			fclose(x->files[i].f);
		if (x->files[i].of)
			outfile_discard(x->files[i].of);
	}
	for (i = 0; i < x->nr_names; i++)
		free(x->names[i]);
	free(x->names);
	free(x);
}
