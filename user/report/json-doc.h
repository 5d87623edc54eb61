/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON document described once, as tables of fields, from which both the
 * document and its JSON Schema are made: a field that a writer adds and
 * the schema does not know cannot exist, since there is no writer but the
 * table. Each field has a name, a type, its sub-fields (objects, arrays),
 * and how its value is read from the context it is written in.
 *
 * The schemas use only keywords that JSON Schema draft 2020-12 (MCP's
 * default) and draft-07 read alike; each object's schema names every field
 * it may hold (additionalProperties: false).
 */
#ifndef KTPROF_JSON_DOC_H
#define KTPROF_JSON_DOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/json-build.h"

enum json_doc_type {
	JSON_INT,		/* an integer */
	JSON_NUM,		/* a number, or null (NaN, infinite) */
	JSON_STR,
	JSON_BOOL,
	JSON_OBJ,		/* an object of the fields @sub */
	JSON_ARR,		/* an array of objects of the fields @sub */
	JSON_COUNTS,		/* an object of integers, any names */
	JSON_STRS,		/* an array of strings */
	JSON_ANY,		/* anything */
	JSON_DIST,		/* a distribution (report/hist.h) */
	JSON_FIELDS,		/* not a field: the fields @sub written in its place */
};

enum {
	JSON_OPTIONAL = 1 << 0,	/* the field may be absent */
	JSON_OPEN = 1 << 1,	/* JSON_OBJ, JSON_ARR: no field required
				 * (a distribution of nothing is {}) */
	JSON_EXTRA = 1 << 2,	/* JSON_OBJ, JSON_ARR: other fields allowed */
	JSON_LIST = 1 << 3,	/* JSON_ARR: grows with the capture (cut at a limit) */
};

struct json_field;

/*
 * The JSON_LIST arrays cut as they are made (the MCP tools' `limit`): each
 * keeps its @limit items that come first by its order (largest first,
 * ties as written), in that order. Only those are json-c objects at any
 * time, so a document's memory follows @limit, not the capture.
 */
struct json_cut {
	size_t limit;
	/* Whether list @f is cut, and the field its items are ordered by
	 * (*@order: dotted, "latency.wakeup.p99_ns"; NULL: as written). */
	int (*list)(const struct json_cut *cut, const struct json_field *f, const char **order);
	/* Whether @item of list @f is in it at all (NULL: all are). */
	int (*keep)(const struct json_cut *cut, const struct json_field *f,
		    struct json_object *item);
	/* Told each list's length before the cut. */
	void (*total)(const struct json_cut *cut, const struct json_field *f, size_t len);
	void *arg;
};

/*
 * Where a getter reads: @doc is the document's subject (a report, a
 * diff), @item the object being written (a CPU's result, a pair), @id its
 * number (a CPU, a thread index), @aux what its parent says of it; @cut,
 * if not NULL, cuts the lists.
 */
struct json_ctx {
	const void *doc;
	const void *view;
	const void *item;
	uint64_t id;
	const void *aux;
	struct json_build *b;
	const struct json_cut *cut;
};

struct json_field {
	const char *name;	/* NULL ends a table */
	enum json_doc_type type;
	const struct json_field *sub;
	unsigned int flags;
	const char *description;	/* NULL: none */
	/*
	 * JSON_OBJ, JSON_ARR: the name under which the schema defines @sub
	 * once ($defs), for sub-tables that recur; NULL: written in place.
	 */
	const char *def;
	/*
	 * The value. JSON_INT without @get: the uint64_t at @off in @item.
	 * Otherwise @get makes it (NULL: the field is left out; for
	 * JSON_OBJ without @get, the sub-fields in the same context).
	 */
	size_t off;
	struct json_object *(*get)(const struct json_field *f, struct json_ctx *c);
	/*
	 * JSON_ARR: its elements; sets c->item, c->id (and c->aux) for
	 * element *@pos and advances it, 0 after the last.
	 */
	int (*next)(struct json_ctx *c, size_t *pos);
	/* JSON_LIST: the field of its items to order them by, largest first
	 * (the MCP tools'); NULL: as written. */
	const char *order;
	/* Whether the field is written here (NULL: always). */
	int (*present)(const struct json_ctx *c);
};

#define JSON_END { .name = NULL }

/* What a getter returns for null (a number that is NaN or infinite). */
extern struct json_object *const json_doc_null;

/* The fields of @fields in context @c, as an object (NULL on ENOMEM: c->b says). */
struct json_object *json_doc_object(const struct json_field *fields, struct json_ctx *c);

/* The JSON Schema of an object of @fields (@flags: JSON_OPEN, JSON_EXTRA); NULL on ENOMEM. */
struct json_object *json_doc_schema(const struct json_field *fields, unsigned int flags);

/*
 * The document of @fields in context @c written to @out as it is made (its
 * memory that of one field's value, not the document's): 0, -ENOMEM, -EIO.
 */
int json_doc_write(const struct json_field *fields, struct json_ctx *c, FILE *out);

/* The number at dotted @path in object @o (0 if absent). */
double json_doc_number_at(struct json_object *o, const char *path);

/* @doc pretty-printed to @out, and a newline; 0 or a negative error. */
int json_doc_print(struct json_object *doc, FILE *out);

/* Getters for common cases. */
struct json_object *json_doc_u64(uint64_t v);
struct json_object *json_doc_str(const char *s);
struct json_object *json_doc_num(struct json_ctx *c, double v, int decimals);

/* The distribution of @h, with the fields of json_doc_dist_fields. */
struct json_object *json_doc_dist(struct json_ctx *c, const struct hist *h);

#endif
