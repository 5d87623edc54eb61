// SPDX-License-Identifier: GPL-2.0
/*
 * JSON-RPC messages as MCP carries them: which messages are requests,
 * notifications or responses, which are refused and with which error
 * code; and the lines written: one line each, valid UTF-8 whatever bytes
 * a capture's names hold.
 */
#include "mcp/jsonrpc.h"
#include "unit.h"

static const struct parse_case {
	const char *msg;
	int code;			/* 0: parsed */
	enum jsonrpc_kind kind;		/* when parsed */
	int has_id;			/* the id could be read */
} parse_cases[] = {
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", 0, JSONRPC_REQUEST, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"x-1\",\"method\":\"tools/list\",\"params\":{}}", 0,
	  JSONRPC_REQUEST, 1 },
	{ " {\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"} \t", 0,
	  JSONRPC_NOTIFICATION, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", 0, JSONRPC_RESPONSE, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":1,\"message\":\"m\"}}", 0,
	  JSONRPC_RESPONSE, 1 },
	/* Not JSON, or more than one value. */
	{ "", JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,", JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{'jsonrpc':'2.0'}", JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}", JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffng\"}", JSONRPC_PARSE_ERROR, 0, 0 },
	/* JSON, but not a message MCP allows. */
	{ "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "42", JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "null", JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "{\"id\":1,\"method\":\"ping\"}", JSONRPC_INVALID_REQUEST, 0, 1 },
	{ "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", JSONRPC_INVALID_REQUEST, 0, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":7}", JSONRPC_INVALID_REQUEST, 0, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":3}", JSONRPC_INVALID_REQUEST, 0, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"x\",\"params\":[1]}", JSONRPC_INVALID_PARAMS,
	  0, 1 },
	/*
	 * What json-c would take but change (surface-05, surface-07): an
	 * escaped NUL in a method, a key or a value; half a surrogate pair;
	 * NaN; an id it would echo saturated.
	 */
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\\u0000evil\"}",
	  JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"path\\u0000y\":\"b\"}}",
	  JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\",\"method\":\"ping\"}", JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"\\udc00x\",\"method\":\"ping\"}", JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":NaN}}",
	  JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":-Infinity}}",
	  JSONRPC_PARSE_ERROR, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":99999999999999999999999,\"method\":\"ping\"}",
	  JSONRPC_INVALID_REQUEST, 0, 0 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":9007199254740992,\"method\":\"ping\"}",
	  JSONRPC_INVALID_REQUEST, 0, 0 },
	/* Not NUL: an escaped backslash, then text; a whole surrogate pair. */
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\\u0000\",\"method\":\"ping\"}", 0, JSONRPC_REQUEST, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":\"\\ud83d\\ude00\",\"method\":\"ping\"}", 0, JSONRPC_REQUEST, 1 },
	{ "{\"jsonrpc\":\"2.0\",\"id\":-9007199254740991,\"method\":\"ping\"}", 0, JSONRPC_REQUEST, 1 },
};

UNIT_TEST(parse)
{
	unsigned int i;

	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const struct parse_case *c = &parse_cases[i];
		struct jsonrpc_msg m;
		char why[256] = "";
		int code = jsonrpc_parse(c->msg, strlen(c->msg), &m, why, sizeof(why));

		if (code != c->code)
			UNIT_FAIL("%s: code %d, expected %d (%s)", c->msg, code, c->code, why);
		if (!code && m.kind != c->kind)
			UNIT_FAIL("%s: kind %d, expected %d", c->msg, m.kind, c->kind);
		if (!!m.id != c->has_id)
			UNIT_FAIL("%s: id %s", c->msg, m.id ? "read" : "not read");
		if (code && !why[0])
			UNIT_FAIL("%s: no reason given", c->msg);
		jsonrpc_msg_fini(&m);
	}
}

UNIT_TEST(request_fields)
{
	const char *msg = "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\","
			  "\"params\":{\"name\":\"x\"}}";
	struct jsonrpc_msg m;
	char why[256];

	CHECK_EQ(jsonrpc_parse(msg, strlen(msg), &m, why, sizeof(why)), 0);
	CHECK_STR(m.method, "tools/call");
	CHECK_STR(json_object_get_string(m.id), "a");
	CHECK(json_object_is_type(m.params, json_type_object));
	jsonrpc_msg_fini(&m);
}

/* The line @msg becomes, and its length. */
static char *line_of(json_object *msg, size_t *len)
{
	char *s = jsonrpc_format(msg, len);

	json_object_put(msg);
	return s;
}

UNIT_TEST(responses)
{
	json_object *id = json_object_new_int(9), *res = json_object_new_object();
	size_t len;
	char *s;

	json_object_object_add(res, "text", json_object_new_string("two\nlines"));
	s = line_of(jsonrpc_result(id, res), &len);
	CHECK_STR(s, "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"text\":\"two\\nlines\"}}");
	CHECK_EQ(len, strlen(s));
	free(s);
	s = line_of(jsonrpc_error(NULL, JSONRPC_PARSE_ERROR, "bad", NULL), &len);
	CHECK_STR(s, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\"}}");
	free(s);
	json_object_put(id);
}

/* Bytes of a name as they come, and the text the line must hold. */
static const struct utf8_case {
	const char *in, *out;
} utf8_cases[] = {
	{ "plain", "plain" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
	/* Each byte outside UTF-8 is the character of its value (util/text.h). */
	{ "a\xff" "b", "a\xc3\xbf" "b" },				/* not a lead byte */
	{ "\xc3", "\xc3\x83" },					/* cut short */
	{ "\xc0\xaf", "\xc3\x80\xc2\xaf" },			/* overlong */
	{ "\xed\xa0\x80", "\xc3\xad\xc2\xa0\xc2\x80" },	/* a surrogate */
	{ "\xf4\x90\x80\x80", "\xc3\xb4\xc2\x90\xc2\x80\xc2\x80" },	/* > U+10FFFF */
};

UNIT_TEST(utf8)
{
	unsigned int i;

	for (i = 0; i < sizeof(utf8_cases) / sizeof(utf8_cases[0]); i++) {
		json_object *res = json_object_new_object();
		char want[128];
		size_t len;
		char *s;

		json_object_object_add(res, "c", json_object_new_string(utf8_cases[i].in));
		s = line_of(jsonrpc_result(NULL, res), &len);
		snprintf(want, sizeof(want), "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{\"c\":\"%s\"}}",
			 utf8_cases[i].out);
		if (!s || strcmp(s, want))
			UNIT_FAIL("case %u: %s", i, s ? s : "(null)");
		free(s);
	}
}

UNIT_MAIN()
