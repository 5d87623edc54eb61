// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mcp/mcp-args.h"
#include "report/json-build.h"

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

static json_object *choices_array(struct json_build *b, const char *const *choices)
{
	json_object *a = json_object_new_array();

	for (; *choices; choices++)
		json_build_push(b, a, str(*choices));
	return a;
}

static json_object *arg_schema(struct json_build *b, const struct mcp_arg *a)
{
	static const char *const types[] = {
		[MCP_ARG_STRING] = "string", [MCP_ARG_INT] = "integer",
		[MCP_ARG_BOOL] = "boolean", [MCP_ARG_STRINGS] = "array",
		[MCP_ARG_NUMBERS] = "object",
	};
	json_object *o = json_object_new_object(), *x;

	json_build_put(b, o, "type", str(types[a->type]));
	json_build_put(b, o, "description", str(a->description));
	switch (a->type) {
	case MCP_ARG_STRING:
		if (a->choices)
			json_build_put(b, o, "enum", choices_array(b, a->choices));
		json_build_put(b, o, "maxLength", json_object_new_int(a->max_len ? a->max_len :
								      MCP_ARG_STRING_MAX));
		break;
	case MCP_ARG_INT:
		json_build_put(b, o, "minimum", json_object_new_int64(a->min));
		json_build_put(b, o, "maximum", json_object_new_int64(a->max));
		break;
	case MCP_ARG_STRINGS:
		x = json_object_new_object();
		json_build_put(b, x, "type", str("string"));
		if (a->choices)
			json_build_put(b, x, "enum", choices_array(b, a->choices));
		json_build_put(b, o, "items", x);
		json_build_put(b, o, "maxItems", json_object_new_int(MCP_ARG_ITEMS_MAX));
		break;
	case MCP_ARG_NUMBERS:
		x = json_object_new_object();
		json_build_put(b, x, "type", str("number"));
		json_build_put(b, o, "additionalProperties", x);
		if (a->choices) {
			x = json_object_new_object();
			json_build_put(b, x, "enum", choices_array(b, a->choices));
			json_build_put(b, o, "propertyNames", x);
		}
		break;
	case MCP_ARG_BOOL:
		break;
	}
	return o;
}

json_object *mcp_args_schema(const struct mcp_arg *const *args)
{
	struct json_build b = { 0 };
	json_object *o = json_object_new_object(), *props = json_object_new_object();
	json_object *req = json_object_new_array();

	json_build_put(&b, o, "type", str("object"));
	for (; *args; args++) {
		json_build_put(&b, props, (*args)->name, arg_schema(&b, *args));
		if ((*args)->required)
			json_build_push(&b, req, str((*args)->name));
	}
	json_build_put(&b, o, "properties", props);
	json_build_put(&b, o, "required", req);
	json_build_put(&b, o, "additionalProperties", json_object_new_boolean(0));
	if (b.nomem) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int mcp_args_choice(const char *const *choices, const char *s)
{
	int i;

	for (i = 0; choices[i]; i++)
		if (!strcasecmp(choices[i], s))
			return i;
	return -1;
}

/* "a, b or c" into @buf. */
static const char *list_str(const char *const *choices, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; choices[i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? (choices[i + 1] ? ", " : " or ") : "",
				choices[i]);
	return buf;
}

static int bad_choice(const struct mcp_arg *a, const char *what, const char *v, struct error *err)
{
	char list[512];

	return error_set(err, -EINVAL, "%s: %s '%.64s' is not one of %s", a->name, what, v,
			 list_str(a->choices, list, sizeof(list)));
}

static int check_string(const struct mcp_arg *a, json_object *v, struct error *err)
{
	unsigned int max = a->max_len ? a->max_len : MCP_ARG_STRING_MAX;
	const char *s = json_object_get_string(v);
	size_t n = json_object_get_string_len(v);

	if (!json_object_is_type(v, json_type_string))
		return error_set(err, -EINVAL, "%s wants a string (%s)", a->name, a->description);
	if (strlen(s) != n)
		return error_set(err, -EINVAL, "%s: a string with a NUL character", a->name);
	if (n > max)
		return error_set(err, -EINVAL, "%s: at most %u characters, not %zu", a->name, max, n);
	if (a->choices && mcp_args_choice(a->choices, s) < 0)
		return bad_choice(a, "value", s, err);
	return 0;
}

/* An integer, or a number without a fraction (20.0). */
static int int_value(json_object *v, int64_t *out)
{
	double d;

	if (json_object_is_type(v, json_type_int)) {
		*out = json_object_get_int64(v);	/* clamped at INT64_MAX */
		return 0;
	}
	if (!json_object_is_type(v, json_type_double))
		return -EINVAL;
	d = json_object_get_double(v);
	if (d != floor(d) || d < -9e18 || d > 9e18)
		return -EINVAL;
	*out = (int64_t)d;
	return 0;
}

static int check_int(const struct mcp_arg *a, json_object *v, struct error *err)
{
	int64_t x;

	if (int_value(v, &x))
		return error_set(err, -EINVAL, "%s wants an integer (%s)", a->name, a->description);
	if (x < a->min || x > a->max)
		return error_set(err, -EINVAL, "%s: from %" PRId64 " to %" PRId64 ", not %" PRId64,
				 a->name, a->min, a->max, x);
	return 0;
}

static int check_strings(const struct mcp_arg *a, json_object *v, struct error *err)
{
	size_t i, n;

	if (!json_object_is_type(v, json_type_array))
		return error_set(err, -EINVAL, "%s wants an array of strings (%s)", a->name,
				 a->description);
	n = json_object_array_length(v);
	if (n > MCP_ARG_ITEMS_MAX)
		return error_set(err, -EINVAL, "%s: at most %d items, not %zu", a->name,
				 MCP_ARG_ITEMS_MAX, n);
	for (i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(v, i);

		if (!json_object_is_type(s, json_type_string))
			return error_set(err, -EINVAL, "%s[%zu] wants a string", a->name, i);
		if (a->choices && mcp_args_choice(a->choices, json_object_get_string(s)) < 0)
			return bad_choice(a, "item", json_object_get_string(s), err);
	}
	return 0;
}

static int check_numbers(const struct mcp_arg *a, json_object *v, struct error *err)
{
	if (!json_object_is_type(v, json_type_object))
		return error_set(err, -EINVAL, "%s wants an object of numbers (%s)", a->name,
				 a->description);
	if (json_object_object_length(v) > MCP_ARG_ITEMS_MAX)
		return error_set(err, -EINVAL, "%s: at most %d names", a->name, MCP_ARG_ITEMS_MAX);
	json_object_object_foreach(v, key, x) {
		if (a->choices && mcp_args_choice(a->choices, key) < 0)
			return bad_choice(a, "name", key, err);
		if (!json_object_is_type(x, json_type_int) && !json_object_is_type(x, json_type_double))
			return error_set(err, -EINVAL, "%s.%.64s wants a number", a->name, key);
	}
	return 0;
}

static int check_one(const struct mcp_arg *a, json_object *v, struct error *err)
{
	switch (a->type) {
	case MCP_ARG_STRING:
		return check_string(a, v, err);
	case MCP_ARG_INT:
		return check_int(a, v, err);
	case MCP_ARG_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return error_set(err, -EINVAL, "%s wants true or false (%s)", a->name,
					 a->description);
		return 0;
	case MCP_ARG_STRINGS:
		return check_strings(a, v, err);
	case MCP_ARG_NUMBERS:
		return check_numbers(a, v, err);
	}
	return -EINVAL;
}

static const struct mcp_arg *find(const struct mcp_arg *const *args, const char *name)
{
	for (; *args; args++)
		if (!strcmp((*args)->name, name))
			return *args;
	return NULL;
}

static int unknown(const struct mcp_arg *const *args, const char *name, struct error *err)
{
	char list[512];
	size_t off = 0;

	list[0] = '\0';
	for (; *args && off < sizeof(list); args++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s", off ? ", " : "", (*args)->name);
	return error_set(err, -EINVAL, "unknown argument '%.64s'; this tool takes %s", name,
			 off ? list : "none");
}

int mcp_args_check(const struct mcp_arg *const *args, json_object *given, struct error *err)
{
	const struct mcp_arg *const *a;
	int ret;

	if (given) {
		json_object_object_foreach(given, key, v) {
			const struct mcp_arg *spec = find(args, key);

			if (!spec)
				return unknown(args, key, err);
			if (v && (ret = check_one(spec, v, err)))	/* null: absent */
				return ret;
		}
	}
	for (a = args; *a; a++)
		if ((*a)->required && !mcp_args_get(given, (*a)->name))
			return error_set(err, -EINVAL, "%s is missing (%s)", (*a)->name,
					 (*a)->description);
	return 0;
}

json_object *mcp_args_get(json_object *given, const char *name)
{
	json_object *v;

	return given && json_object_object_get_ex(given, name, &v) ? v : NULL;
}

const char *mcp_args_str(json_object *given, const char *name)
{
	json_object *v = mcp_args_get(given, name);

	return v ? json_object_get_string(v) : NULL;
}

int64_t mcp_args_int(json_object *given, const char *name, int64_t def)
{
	json_object *v = mcp_args_get(given, name);
	int64_t x;

	return v && !int_value(v, &x) ? x : def;
}

int mcp_args_bool(json_object *given, const char *name, int def)
{
	json_object *v = mcp_args_get(given, name);

	return v ? json_object_get_boolean(v) : def;
}
