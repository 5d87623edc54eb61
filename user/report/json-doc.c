// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json-doc.h"
#include "util/text.h"

/* Not a json-c object: only its address is used, as the null value. */
static char null_mark;
struct json_object *const json_doc_null = (struct json_object *)&null_mark;

/* --- Values --- */

struct json_object *json_doc_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

struct json_object *json_doc_str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

struct json_object *json_doc_num(struct json_ctx *c, double v, int decimals)
{
	char buf[64];

	(void)c;
	if (isnan(v) || isinf(v))
		return json_doc_null;
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_object_new_double_s(v, buf);
}

struct json_object *json_doc_dist(struct json_ctx *c, const struct hist *h)
{
	return json_build_dist(c->b, h);
}

/* --- Documents --- */

static void put(struct json_build *b, json_object *o, const char *key, json_object *v)
{
	if (v == json_doc_null) {
		if (json_object_object_add(o, key, NULL))
			b->nomem = 1;
		return;
	}
	json_build_put(b, o, key, v);
}

static json_object *value(const struct json_field *f, struct json_ctx *c);

static void add_fields(json_object *o, const struct json_field *fields, struct json_ctx *c)
{
	const struct json_field *f;
	json_object *v;

	for (f = fields; f->name; f++) {
		if (f->present && !f->present(c))
			continue;
		if (f->type == JSON_FIELDS) {
			add_fields(o, f->sub, c);
			continue;
		}
		v = value(f, c);
		if (v)
			put(c->b, o, f->name, v);
	}
}

double json_doc_number_at(json_object *o, const char *path)
{
	char name[64];
	size_t n;

	while (o && *path) {
		n = strcspn(path, ".");
		if (n >= sizeof(name))
			return 0;
		memcpy(name, path, n);
		name[n] = '\0';
		if (!json_object_object_get_ex(o, name, &o))
			return 0;
		path += n + (path[n] == '.');
	}
	return o ? json_object_get_double(o) : 0;
}

static json_object *array(const struct json_field *f, struct json_ctx *c);

/* A list's item kept by a cut: its order's value and its place as written. */
struct kept {
	double key;
	size_t index;
	json_object *o;
};

/* Whether @a comes after @b: a smaller key, or the same key written later. */
static int after(const struct kept *a, const struct kept *b)
{
	return a->key < b->key || (a->key == b->key && a->index > b->index);
}

/* The heap of the kept items, the one that comes last at its root. */
static void sift_down(struct kept *h, size_t n, size_t i)
{
	struct kept t;
	size_t l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < n && after(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && after(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct kept *h, size_t i)
{
	struct kept t;

	while (i && after(&h[i], &h[(i - 1) / 2])) {
		t = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static int first_of(const void *x, const void *y)
{
	return after(x, y) ? 1 : after(y, x) ? -1 : 0;
}

/*
 * A list cut as it is walked: unordered, its first @limit items; ordered,
 * a heap of the @limit that come first so far, whose last is dropped when
 * a better item comes. Items not kept are counted without being made
 * when the list is unordered.
 */
static json_object *array_cut(const struct json_field *f, struct json_ctx *c)
{
	const struct json_cut *cut = c->cut;
	const char *order = f->order;
	struct kept *h;
	json_object *a, *o;
	struct json_ctx e = *c;
	size_t pos = 0, n = 0, total, i;

	if (!cut->list(cut, f, &order)) {
		c->cut = NULL;	/* nor its items' lists */
		a = array(f, c);
		c->cut = cut;
		return a;
	}
	h = calloc(cut->limit + 1, sizeof(*h));
	a = json_object_new_array();
	if (!h || !a) {
		c->b->nomem = 1;
		free(h);
		return a;
	}
	for (total = 0; f->next(&e, &pos);) {
		if (!order && n == cut->limit && !cut->keep) {
			total++;
			continue;
		}
		o = json_doc_object(f->sub, &e);
		if (!o) {
			c->b->nomem = 1;
			break;
		}
		if (cut->keep && !cut->keep(cut, f, o)) {
			json_object_put(o);
			continue;
		}
		h[n] = (struct kept){ order ? json_doc_number_at(o, order) : 0, total++, o };
		if (n < cut->limit) {
			sift_up(h, n++);
		} else if (after(&h[0], &h[n])) {
			json_object_put(h[0].o);
			h[0] = h[n];
			sift_down(h, n, 0);
		} else {
			json_object_put(o);
		}
	}
	qsort(h, n, sizeof(*h), first_of);
	for (i = 0; i < n; i++)
		json_build_push(c->b, a, h[i].o);
	free(h);
	if (cut->total)
		cut->total(cut, f, total);
	return a;
}

/*
 * A list its getter made whole (the profile's processes, already cut at
 * the view's rows): ordered and cut as array_cut() would have.
 */
static json_object *cut_made(const struct json_field *f, struct json_ctx *c, json_object *a)
{
	const struct json_cut *cut = c->cut;
	const char *order = f->order;
	size_t n, i;
	struct kept *v;

	if (!json_object_is_type(a, json_type_array) || !cut->list(cut, f, &order))
		return a;
	n = json_object_array_length(a);
	v = calloc(n + 1, sizeof(*v));
	if (!v) {
		c->b->nomem = 1;
		return a;
	}
	for (i = 0; i < n; i++) {
		v[i].o = json_object_get(json_object_array_get_idx(a, i));
		v[i].key = order ? json_doc_number_at(v[i].o, order) : 0;
		v[i].index = i;
	}
	qsort(v, n, sizeof(*v), first_of);
	/* Each put takes our reference and drops the array's one of the old item. */
	for (i = 0; i < n; i++)
		json_object_array_put_idx(a, i, v[i].o);
	free(v);
	if (n > cut->limit && json_object_array_del_idx(a, cut->limit, n - cut->limit))
		c->b->nomem = 1;
	if (cut->total)
		cut->total(cut, f, n);
	return a;
}

static json_object *array(const struct json_field *f, struct json_ctx *c)
{
	json_object *a;
	struct json_ctx e = *c;
	size_t pos = 0;

	if (c->cut && (f->flags & JSON_LIST))
		return array_cut(f, c);
	a = json_object_new_array();
	while (f->next(&e, &pos))
		json_build_push(c->b, a, json_doc_object(f->sub, &e));
	return a;
}

static json_object *value(const struct json_field *f, struct json_ctx *c)
{
	if (f->get && c->cut && (f->flags & JSON_LIST))
		return cut_made(f, c, f->get(f, c));
	if (f->get)
		return f->get(f, c);
	switch (f->type) {
	case JSON_INT:
		return json_object_new_uint64(*(const uint64_t *)((const char *)c->item + f->off));
	case JSON_OBJ:
		return json_doc_object(f->sub, c);
	case JSON_ARR:
		return f->next ? array(f, c) : json_object_new_array();
	default:
		return NULL;
	}
}

json_object *json_doc_object(const struct json_field *fields, struct json_ctx *c)
{
	json_object *o = json_object_new_object();

	if (!o) {
		c->b->nomem = 1;
		return NULL;
	}
	add_fields(o, fields, c);
	return o;
}

/* --- Documents, streamed --- */

/*
 * The document written as it is walked, field by field: only one field's
 * value (a number, a distribution, one analysis's small object) exists as
 * json-c objects at a time, so memory follows the largest of those, not
 * the document (a thread's fields took some 20 KB as json-c objects: 100k
 * threads, 2 GB). The layout is json-c's pretty one.
 */
struct stream {
	FILE *f;
	unsigned int depth;
	int first;		/* nothing written yet in the open object or array */
	struct json_build *b;
};

static void newline(struct stream *s)
{
	unsigned int i;

	fputc('\n', s->f);
	for (i = 0; i < s->depth; i++)
		fputs("  ", s->f);
}

/* Is @v printable ASCII without a quote or backslash: written as it is? */
static int plain_ascii(const char *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] < 0x20 || v[i] > 0x7e || v[i] == '"' || v[i] == '\\')
			return 0;
	return 1;
}

static void str_out(struct stream *s, const char *v, size_t n)
{
	char *fixed;

	/* Keys and most names: no copy to fix, no escape (the same bytes). */
	if (plain_ascii(v, n)) {
		fputc('"', s->f);
		fwrite(v, 1, n, s->f);
		fputc('"', s->f);
		return;
	}
	fixed = malloc(2 * n + 1);
	if (!fixed) {
		s->b->nomem = 1;
		return;
	}
	text_utf8_fix(v, n, fixed);
	fputc('"', s->f);
	text_json_fputs(fixed, s->f);
	fputc('"', s->f);
	free(fixed);
}

/* Before an element of the open object or array (@key NULL: an array's). */
static void element(struct stream *s, const char *key)
{
	if (!s->first)
		fputc(',', s->f);
	s->first = 0;
	newline(s);
	if (key) {
		str_out(s, key, strlen(key));
		fputc(':', s->f);
	}
}

static void open_(struct stream *s, char c)
{
	fputc(c, s->f);
	s->depth++;
	s->first = 1;
}

static void close_(struct stream *s, char c)
{
	s->depth--;
	if (!s->first)
		newline(s);
	s->first = 0;
	fputc(c, s->f);
}

/* A json-c value a getter made, in the same layout. */
static void value_out(struct stream *s, json_object *v)
{
	size_t i, n;

	switch (json_object_get_type(v)) {
	case json_type_object:
		open_(s, '{');
		{
			json_object_object_foreach(v, k, x) {
				element(s, k);
				value_out(s, x);
			}
		}
		close_(s, '}');
		break;
	case json_type_array:
		open_(s, '[');
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			element(s, NULL);
			value_out(s, json_object_array_get_idx(v, i));
		}
		close_(s, ']');
		break;
	case json_type_string:
		str_out(s, json_object_get_string(v), (size_t)json_object_get_string_len(v));
		break;
	default:	/* null, booleans, numbers as json-c writes them */
		fputs(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), s->f);
		break;
	}
}

static void stream_fields(struct stream *s, const struct json_field *fields, struct json_ctx *c);

static void stream_array(struct stream *s, const struct json_field *f, struct json_ctx *c)
{
	struct json_ctx e = *c;
	size_t pos = 0;

	open_(s, '[');
	while (f->next && f->next(&e, &pos)) {
		element(s, NULL);
		open_(s, '{');
		stream_fields(s, f->sub, &e);
		close_(s, '}');
	}
	close_(s, ']');
}

static void stream_fields(struct stream *s, const struct json_field *fields, struct json_ctx *c)
{
	const struct json_field *f;
	json_object *v;

	for (f = fields; f->name && !s->b->nomem; f++) {
		if (f->present && !f->present(c))
			continue;
		if (f->type == JSON_FIELDS) {
			stream_fields(s, f->sub, c);
			continue;
		}
		if (!f->get && (f->type == JSON_OBJ || f->type == JSON_ARR)) {
			element(s, f->name);
			if (f->type == JSON_ARR) {
				stream_array(s, f, c);
			} else {
				open_(s, '{');
				stream_fields(s, f->sub, c);
				close_(s, '}');
			}
			continue;
		}
		v = value(f, c);
		if (!v)
			continue;
		element(s, f->name);
		if (v == json_doc_null) {
			fputs("null", s->f);
			continue;
		}
		value_out(s, v);
		json_object_put(v);
	}
}

int json_doc_write(const struct json_field *fields, struct json_ctx *c, FILE *out)
{
	struct stream s = { .f = out, .b = c->b };

	open_(&s, '{');
	stream_fields(&s, fields, c);
	close_(&s, '}');
	fputc('\n', out);
	if (c->b->nomem)
		return -ENOMEM;
	return ferror(out) ? -EIO : 0;
}

/* --- Schemas --- */

static const struct json_field dist_fields[] = {
	{ .name = "count", .type = JSON_INT }, { .name = "min_ns", .type = JSON_INT }, { .name = "mean_ns", .type = JSON_NUM },
	{ .name = "p50_ns", .type = JSON_INT }, { .name = "p90_ns", .type = JSON_INT }, { .name = "p99_ns", .type = JSON_INT },
	{ .name = "p99_9_ns", .type = JSON_INT }, { .name = "max_ns", .type = JSON_INT }, { .name = "exact", .type = JSON_BOOL },
	JSON_END
};

#define MAX_DEFS 32

/*
 * Objects that recur (a distribution stands ten times in the report's
 * schema) are defined once under $defs and referred to: the schemas are
 * read by clients, and sometimes by models, so their size matters.
 */
struct builder {
	struct json_build b;
	const char *names[MAX_DEFS];
	const struct json_field *defs[MAX_DEFS];
	unsigned int n, done;
};

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

static json_object *field_schema(struct builder *bd, const struct json_field *f);

static void add_properties(struct builder *bd, json_object *props, json_object *req,
			   const struct json_field *fields, unsigned int flags)
{
	const struct json_field *f;

	for (f = fields; f->name; f++) {
		if (f->type == JSON_FIELDS) {
			add_properties(bd, props, req, f->sub, flags);
			continue;
		}
		json_build_put(&bd->b, props, f->name, field_schema(bd, f));
		if (!(f->flags & JSON_OPTIONAL) && !(flags & JSON_OPEN))
			json_build_push(&bd->b, req, str(f->name));
	}
}

static json_object *object_schema(struct builder *bd, const struct json_field *fields,
				  unsigned int flags)
{
	json_object *o = json_object_new_object(), *props = json_object_new_object();
	json_object *req = json_object_new_array();

	json_build_put(&bd->b, o, "type", str("object"));
	add_properties(bd, props, req, fields, flags);
	json_build_put(&bd->b, o, "properties", props);
	json_build_put(&bd->b, o, "required", req);
	json_build_put(&bd->b, o, "additionalProperties",
		       json_object_new_boolean(flags & JSON_EXTRA));
	return o;
}

static json_object *typed(struct json_build *b, const char *type)
{
	json_object *o = json_object_new_object();

	json_build_put(b, o, "type", str(type));
	return o;
}

/* A reference to the definition @name of @fields, made once. */
static json_object *ref(struct builder *bd, const char *name, const struct json_field *fields)
{
	json_object *o = json_object_new_object();
	char buf[96];
	unsigned int i;

	for (i = 0; i < bd->n && strcmp(bd->names[i], name); i++)
		;
	if (i == bd->n && bd->n < MAX_DEFS) {
		bd->names[bd->n] = name;
		bd->defs[bd->n++] = fields;
	}
	snprintf(buf, sizeof(buf), "#/$defs/%s", name);
	json_build_put(&bd->b, o, "$ref", str(buf));
	return o;
}

/* The object of @f's fields, or a reference to its definition. */
static json_object *sub_schema(struct builder *bd, const struct json_field *f)
{
	if (f->def && !f->description && !(f->flags & (JSON_OPEN | JSON_EXTRA)))
		return ref(bd, f->def, f->sub);
	return object_schema(bd, f->sub, f->flags);
}

static json_object *field_schema(struct builder *bd, const struct json_field *f)
{
	struct json_build *b = &bd->b;
	json_object *o = NULL, *t;

	switch (f->type) {
	case JSON_INT:
		o = typed(b, "integer");
		break;
	case JSON_NUM:
		o = json_object_new_object();
		t = json_object_new_array();
		json_build_push(b, t, str("number"));
		json_build_push(b, t, str("null"));
		json_build_put(b, o, "type", t);
		break;
	case JSON_STR:
		o = typed(b, "string");
		break;
	case JSON_BOOL:
		o = typed(b, "boolean");
		break;
	case JSON_OBJ:
		o = sub_schema(bd, f);
		break;
	case JSON_ARR:
		o = typed(b, "array");
		json_build_put(b, o, "items", sub_schema(bd, f));
		break;
	case JSON_COUNTS:
		o = typed(b, "object");
		json_build_put(b, o, "additionalProperties", typed(b, "integer"));
		break;
	case JSON_STRS:
		o = typed(b, "array");
		json_build_put(b, o, "items", typed(b, "string"));
		break;
	case JSON_DIST:
		/* A distribution absent from one side of a diff is {}. */
		o = f->flags & JSON_OPEN ? object_schema(bd, dist_fields, JSON_OPEN) :
			ref(bd, "distribution", dist_fields);
		break;
	case JSON_ANY:
	case JSON_FIELDS:
		o = json_object_new_object();
		break;
	}
	if (o && f->description)
		json_build_put(b, o, "description", str(f->description));
	return o;
}

/* $defs: each definition referred to, and those they refer to. */
static void add_defs(struct builder *bd, json_object *root)
{
	json_object *d = json_object_new_object();

	while (bd->done < bd->n) {
		unsigned int i = bd->done++;

		json_build_put(&bd->b, d, bd->names[i], object_schema(bd, bd->defs[i], 0));
	}
	json_build_put(&bd->b, root, "$defs", d);
}

json_object *json_doc_schema(const struct json_field *fields, unsigned int flags)
{
	struct builder bd;
	json_object *o;

	memset(&bd, 0, sizeof(bd));
	o = object_schema(&bd, fields, flags);

	if (bd.n)
		add_defs(&bd, o);
	if (bd.b.nomem) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int json_doc_print(json_object *doc, FILE *out)
{
	const char *text;
	char *fixed;
	size_t n;
	int ret;

	if (!doc)
		return -ENOMEM;
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	/* Names are bytes, JSON is UTF-8: util/text.h's rule. */
	n = strlen(text);
	fixed = malloc(2 * n + 1);
	if (!fixed)
		return -ENOMEM;
	n = text_utf8_fix(text, n, fixed);
	ret = fwrite(fixed, 1, n, out) != n || fputc('\n', out) < 0 ? -EIO : 0;
	free(fixed);
	return ret;
}
