// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "report/json-build.h"

__attribute__((format(printf, 4, 5)))
static int fail(int code, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return code;
}

/* One JSON value and nothing after it but white space. */
static int parse_json(const char *buf, size_t len, json_object **out, char *why, size_t why_len)
{
	struct json_tokener *tok;
	enum json_tokener_error e;
	size_t end;

	*out = NULL;
	if (len > INT_MAX)
		return fail(JSONRPC_PARSE_ERROR, why, why_len, "message too long");
	tok = json_tokener_new();
	if (!tok)
		return fail(JSONRPC_INTERNAL_ERROR, why, why_len, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	*out = json_tokener_parse_ex(tok, buf, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (e == json_tokener_continue) {
		/* All was read: a NUL ends a value that can run on (a number, null). */
		*out = json_tokener_parse_ex(tok, "", 1);
		e = json_tokener_get_error(tok);
		end = len;
	}
	json_tokener_free(tok);
	if (e == json_tokener_continue || (e != json_tokener_success && end == len && !*out &&
					   e == json_tokener_error_parse_eof))
		return fail(JSONRPC_PARSE_ERROR, why, why_len, "the message ends inside a JSON value");
	if (e != json_tokener_success)
		return fail(JSONRPC_PARSE_ERROR, why, why_len, "not JSON: %s at byte %zu",
			    json_tokener_error_desc(e), end);
	while (end < len && isspace((unsigned char)buf[end]))
		end++;
	if (end < len)
		return fail(JSONRPC_PARSE_ERROR, why, why_len,
			    "more than one JSON value in a message (byte %zu)", end);
	return 0;
}

/* MCP: a string or an integer, never null. */
static int id_ok(json_object *id)
{
	return json_object_is_type(id, json_type_string) || json_object_is_type(id, json_type_int);
}

int jsonrpc_parse(const char *buf, size_t len, struct jsonrpc_msg *m, char *why, size_t why_len)
{
	json_object *v, *id;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = parse_json(buf, len, &m->root, why, why_len);
	if (ret)
		return ret;
	if (json_object_is_type(m->root, json_type_array))
		return fail(JSONRPC_INVALID_REQUEST, why, why_len,
			    "batches are not supported: send one message per line");
	if (!json_object_is_type(m->root, json_type_object))
		return fail(JSONRPC_INVALID_REQUEST, why, why_len, "a message is a JSON object");
	if (json_object_object_get_ex(m->root, "id", &id)) {
		if (!id_ok(id))
			return fail(JSONRPC_INVALID_REQUEST, why, why_len,
				    "id must be a string or an integer");
		m->id = id;
	}
	if (!json_object_object_get_ex(m->root, "jsonrpc", &v) ||
	    !json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), "2.0"))
		return fail(JSONRPC_INVALID_REQUEST, why, why_len, "\"jsonrpc\": \"2.0\" is missing");
	if (!json_object_object_get_ex(m->root, "method", &v)) {
		if (m->id && (json_object_object_get_ex(m->root, "result", NULL) ||
			      json_object_object_get_ex(m->root, "error", NULL))) {
			m->kind = JSONRPC_RESPONSE;
			return 0;
		}
		return fail(JSONRPC_INVALID_REQUEST, why, why_len, "no method");
	}
	if (!json_object_is_type(v, json_type_string))
		return fail(JSONRPC_INVALID_REQUEST, why, why_len, "method must be a string");
	m->method = json_object_get_string(v);
	m->kind = m->id ? JSONRPC_REQUEST : JSONRPC_NOTIFICATION;
	if (json_object_object_get_ex(m->root, "params", &v) && v) {
		if (!json_object_is_type(v, json_type_object))
			return fail(JSONRPC_INVALID_PARAMS, why, why_len, "params must be an object");
		m->params = v;
	}
	return 0;
}

void jsonrpc_msg_fini(struct jsonrpc_msg *m)
{
	json_object_put(m->root);
	memset(m, 0, sizeof(*m));
}

/* {"jsonrpc": "2.0", "id": @id} */
static json_object *envelope(struct json_build *b, json_object *id)
{
	json_object *o = json_object_new_object();

	json_build_put(b, o, "jsonrpc", json_object_new_string("2.0"));
	if (o && json_object_object_add(o, "id", json_object_get(id)))	/* NULL: null */
		b->nomem = 1;
	return o;
}

static json_object *done(struct json_build *b, json_object *o)
{
	if (!b->nomem)
		return o;
	json_object_put(o);
	return NULL;
}

json_object *jsonrpc_result(json_object *id, json_object *result)
{
	struct json_build b = { 0 };
	json_object *o = envelope(&b, id);

	json_build_put(&b, o, "result", result);
	return done(&b, o);
}

json_object *jsonrpc_error(json_object *id, int code, const char *message, json_object *data)
{
	struct json_build b = { 0 };
	json_object *o = envelope(&b, id), *e = json_object_new_object();

	json_build_put(&b, e, "code", json_object_new_int(code));
	json_build_put(&b, e, "message", json_object_new_string(message));
	if (data)
		json_build_put(&b, e, "data", data);
	json_build_put(&b, o, "error", e);
	return done(&b, o);
}

/* The length of the UTF-8 character at @s (@n bytes left), 0 if it is not one. */
static size_t utf8_char(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		lo = s[0] == 0xe0 ? 0xa0 : lo;		/* overlong */
		hi = s[0] == 0xed ? 0x9f : hi;		/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		lo = s[0] == 0xf0 ? 0x90 : lo;		/* overlong */
		hi = s[0] == 0xf4 ? 0x8f : hi;		/* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

char *jsonrpc_format(json_object *msg, size_t *len)
{
	const unsigned char *s = (const unsigned char *)json_object_to_json_string_ext(
		msg, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n, i = 0, o = 0, c;
	char *out;

	if (!s)
		return NULL;
	n = strlen((const char *)s);
	out = malloc(3 * n + 1);	/* every byte might become U+FFFD */
	if (!out)
		return NULL;
	while (i < n) {
		c = utf8_char(s + i, n - i);
		if (c) {
			memcpy(out + o, s + i, c);
			o += c;
			i += c;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	*len = o;
	return out;
}
