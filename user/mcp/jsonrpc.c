// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "report/json-build.h"
#include "util/text.h"

__attribute__((format(printf, 4, 5)))
static int fail(int code, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return code;
}

static int hex4(const char *s, size_t n, unsigned int *v)
{
	unsigned int i, d;

	*v = 0;
	for (i = 0; i < 4; i++) {
		if (i >= n || !isxdigit((unsigned char)s[i]))
			return 0;
		d = isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10);
		*v = *v << 4 | d;
	}
	return 1;
}

/*
 * What json-c would take but change, so that the server and a client would
 * read different messages: an escaped NUL (json-c keys and the server's
 * names are C strings, cut there), half a surrogate pair (made U+FFFD),
 * NaN and Infinity (not JSON). 0, or the error with @why set.
 */
static int check_text(const char *buf, size_t len, char *why, size_t why_len)
{
	unsigned int u, lo;
	int in = 0;
	size_t i, w;

	for (i = 0; i < len; i++) {
		if (!in) {
			if (buf[i] == '"') {
				in = 1;
			} else if (isalpha((unsigned char)buf[i])) {
				for (w = i; w < len && isalpha((unsigned char)buf[w]); w++)
					;
				if (!(w - i == 4 && (!memcmp(buf + i, "true", 4) ||
						     !memcmp(buf + i, "null", 4))) &&
				    !(w - i == 5 && !memcmp(buf + i, "false", 5)))
					return fail(JSONRPC_PARSE_ERROR, why, why_len,
						    "not JSON: '%.*s' at byte %zu", (int)(w - i > 16 ? 16 : w - i),
						    buf + i, i);
				i = w - 1;
			}
			continue;
		}
		if (buf[i] == '"') {
			in = 0;
			continue;
		}
		if (buf[i] != '\\' || ++i >= len || buf[i] != 'u')
			continue;
		if (!hex4(buf + i + 1, len - i - 1, &u))
			continue;	/* json-c says what is wrong */
		i += 4;
		if (!u)
			return fail(JSONRPC_PARSE_ERROR, why, why_len,
				    "a string holds \\u0000 at byte %zu: refused", i - 5);
		if (u >= 0xdc00 && u <= 0xdfff)
			return fail(JSONRPC_PARSE_ERROR, why, why_len,
				    "a lone low surrogate at byte %zu", i - 5);
		if (u >= 0xd800 && u <= 0xdbff) {
			if (i + 2 >= len || buf[i + 1] != '\\' || buf[i + 2] != 'u' ||
			    !hex4(buf + i + 3, len - i - 3, &lo) || lo < 0xdc00 || lo > 0xdfff)
				return fail(JSONRPC_PARSE_ERROR, why, why_len,
					    "a lone high surrogate at byte %zu", i - 5);
			i += 6;
		}
	}
	return 0;
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
	if (check_text(buf, len, why, why_len))
		return JSONRPC_PARSE_ERROR;
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

#define ID_MAX 9007199254740991LL	/* 2^53 - 1: an integer every JSON reader keeps */

/*
 * MCP: a string or an integer, never null. An integer beyond 2^53 - 1
 * would be echoed changed (json-c saturates at 2^64 - 1; many readers
 * round at 2^53): refused.
 */
static int id_ok(json_object *id)
{
	int64_t v;

	if (json_object_is_type(id, json_type_string))
		return 1;
	if (!json_object_is_type(id, json_type_int))
		return 0;
	if (json_object_get_uint64(id) > (uint64_t)ID_MAX && json_object_get_int64(id) >= 0)
		return 0;
	v = json_object_get_int64(id);
	return v >= -ID_MAX && v <= ID_MAX;
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
				    "id must be a string or an integer within +-(2^53 - 1)");
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

char *jsonrpc_format(json_object *msg, size_t *len)
{
	const char *s = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	size_t n;
	char *out;

	if (!s)
		return NULL;
	n = strlen(s);
	out = malloc(2 * n + 1);	/* every byte might take two (util/text.h) */
	if (!out)
		return NULL;
	*len = text_utf8_fix(s, n, out);
	return out;
}
