// SPDX-License-Identifier: GPL-2.0
/*
 * The cut of a document's lists as they are made (json_cut, the MCP
 * tools' limit): the rows kept are those a stable sort of the whole list,
 * largest first, would put first; the totals are the lists' lengths; items
 * a cut leaves out of a list are neither kept nor counted.
 */
#include <json.h>
#include <string.h>

#include "report/json-doc.h"
#include "unit.h"

/* A list of items { "v": value, "at": index }: values 3 1 4 1 5 9 2 6 5 3. */
static const uint64_t values[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 };

static int next_value(struct json_ctx *c, size_t *pos)
{
	if (*pos >= sizeof(values) / sizeof(values[0]))
		return 0;
	c->item = &values[*pos];
	c->id = (*pos)++;
	return 1;
}

static struct json_object *get_at(const struct json_field *f, struct json_ctx *c)
{
	(void)f;
	return json_doc_u64(c->id);
}

static const struct json_field item_fields[] = {
	{ .name = "v", .type = JSON_INT, .off = 0 },
	{ .name = "at", .type = JSON_INT, .get = get_at },
	JSON_END
};

static const struct json_field doc_fields[] = {
	{ .name = "ordered", .type = JSON_ARR, .sub = item_fields, .flags = JSON_LIST,
	  .next = next_value, .order = "v" },
	{ .name = "written", .type = JSON_ARR, .sub = item_fields, .flags = JSON_LIST,
	  .next = next_value },
	{ .name = "whole", .type = JSON_ARR, .sub = item_fields, .next = next_value },
	JSON_END
};

struct cut_seen {
	struct json_cut cut;
	size_t total[2];
	int odd_only;
};

static int cut_list(const struct json_cut *cut, const struct json_field *f, const char **order)
{
	(void)cut;
	(void)order;
	return f == &doc_fields[0] || f == &doc_fields[1];
}

static int keep_odd(const struct json_cut *cut, const struct json_field *f, json_object *item)
{
	const struct cut_seen *s = cut->arg;
	json_object *v;

	(void)f;
	return !s->odd_only || (json_object_object_get_ex(item, "v", &v) &&
				json_object_get_int64(v) % 2);
}

static void cut_total(const struct json_cut *cut, const struct json_field *f, size_t len)
{
	struct cut_seen *s = cut->arg;

	s->total[f == &doc_fields[1]] = len;
}

/* "v@at v@at ..." of list @name in @doc. */
static void rows(json_object *doc, const char *name, char *buf, size_t len)
{
	json_object *a, *v, *at;
	size_t i, n = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(doc, name, &a))
		return;
	for (i = 0; i < json_object_array_length(a) && n < len; i++) {
		json_object_object_get_ex(json_object_array_get_idx(a, i), "v", &v);
		json_object_object_get_ex(json_object_array_get_idx(a, i), "at", &at);
		n += snprintf(buf + n, len - n, "%s%d@%d", i ? " " : "",
			      json_object_get_int(v), json_object_get_int(at));
	}
}

static json_object *make(struct cut_seen *s, size_t limit, int odd_only)
{
	struct json_build b = { 0 };
	struct json_ctx c = { .b = &b, .cut = &s->cut };
	json_object *doc;

	*s = (struct cut_seen){
		.cut = { .limit = limit, .list = cut_list, .keep = keep_odd, .total = cut_total,
			 .arg = s },
		.odd_only = odd_only,
	};
	doc = json_doc_object(doc_fields, &c);
	CHECK(!b.nomem);
	return doc;
}

UNIT_TEST(cut_keeps_what_a_stable_sort_puts_first)
{
	struct cut_seen s;
	json_object *doc = make(&s, 4, 0);
	char buf[256];

	/* Largest first; of the two 5s and the two 3s, the one written first. */
	rows(doc, "ordered", buf, sizeof(buf));
	CHECK_STR(buf, "9@5 6@7 5@4 5@8");
	/* Unordered: the first four as written. */
	rows(doc, "written", buf, sizeof(buf));
	CHECK_STR(buf, "3@0 1@1 4@2 1@3");
	/* A list not cut: whole, as written. */
	rows(doc, "whole", buf, sizeof(buf));
	CHECK_STR(buf, "3@0 1@1 4@2 1@3 5@4 9@5 2@6 6@7 5@8 3@9");
	CHECK(s.total[0] == 10 && s.total[1] == 10);
	json_object_put(doc);

	/* Ties at the cut: 3@0 and 3@9, only the first is kept. */
	doc = make(&s, 7, 0);
	rows(doc, "ordered", buf, sizeof(buf));
	CHECK_STR(buf, "9@5 6@7 5@4 5@8 4@2 3@0 3@9");
	json_object_put(doc);
	doc = make(&s, 6, 0);
	rows(doc, "ordered", buf, sizeof(buf));
	CHECK_STR(buf, "9@5 6@7 5@4 5@8 4@2 3@0");
	json_object_put(doc);

	/* A limit above the length keeps every item, sorted. */
	doc = make(&s, 1000, 0);
	rows(doc, "ordered", buf, sizeof(buf));
	CHECK_STR(buf, "9@5 6@7 5@4 5@8 4@2 3@0 3@9 2@6 1@1 1@3");
	json_object_put(doc);
}

UNIT_TEST(cut_leaves_out_what_is_not_kept)
{
	struct cut_seen s;
	json_object *doc = make(&s, 3, 1);
	char buf[256];

	/* Odd values only: 3 1 1 5 9 5 3, counted 7; "at" is the place as written. */
	rows(doc, "ordered", buf, sizeof(buf));
	CHECK_STR(buf, "9@5 5@4 5@8");
	rows(doc, "written", buf, sizeof(buf));
	CHECK_STR(buf, "3@0 1@1 1@3");
	CHECK(s.total[0] == 7 && s.total[1] == 7);
	json_object_put(doc);
}

UNIT_TEST(number_at_dotted_paths)
{
	json_object *o = json_tokener_parse("{\"a\":{\"b\":{\"c\":12.5}},\"d\":3}");

	CHECK(json_doc_number_at(o, "a.b.c") == 12.5);
	CHECK(json_doc_number_at(o, "d") == 3);
	CHECK(json_doc_number_at(o, "a.x") == 0);
	CHECK(json_doc_number_at(o, "d.e") == 0);
	json_object_put(o);
}

UNIT_MAIN()
