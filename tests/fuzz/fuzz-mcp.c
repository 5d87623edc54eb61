// SPDX-License-Identifier: GPL-2.0
/*
 * The MCP server on the lines of a session after its start: a server is
 * initialized and loads $KTPROF_FUZZ_CAPTURE as trace "a", then each line
 * of the input is one message. Every reply must be one JSON-RPC 2.0
 * response in valid, strict JSON: an object with "jsonrpc": "2.0", an
 * "id", and a "result" or an "error" but not both. A line that would load
 * another file is left out, so that the fuzzer cannot make the server
 * read the machine's files (a FIFO, /dev/zero).
 */
#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mcp/mcp-server.h"

static const char *const start[] = {
	"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
	"\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
	"\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}",
	"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
};

static void check_reply(const char *reply, size_t len)
{
	json_object *o, *v;
	int result, error;

	if (!fuzz_json_valid(reply, len)) {
		fprintf(stderr, "fuzz: reply not valid JSON: %.*s\n", (int)len, reply);
		abort();
	}
	o = json_tokener_parse(reply);
	result = json_object_object_get_ex(o, "result", NULL);
	error = json_object_object_get_ex(o, "error", NULL);
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "jsonrpc", &v) || strcmp(json_object_get_string(v), "2.0") ||
	    !json_object_object_get_ex(o, "id", NULL) || result == error) {
		fprintf(stderr, "fuzz: reply not a JSON-RPC response: %.*s\n", (int)len, reply);
		abort();
	}
	json_object_put(o);
}

static void handle(struct mcp_server *s, const char *line, size_t len)
{
	char *reply = NULL;
	size_t reply_len = 0;

	if (mcp_server_handle(s, line, len, &reply, &reply_len))
		abort();	/* ENOMEM: not with these sizes */
	if (reply)
		check_reply(reply, reply_len);
	free(reply);
}

/* Whether @line, as the server reads it, is a tools/call of load_capture. */
static int loads(const char *line, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o, *params, *name;
	int ret;

	if (!tok)
		abort();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, line, (int)len);
	ret = json_object_object_get_ex(o, "params", &params) &&
	      json_object_object_get_ex(params, "name", &name) &&
	      json_object_is_type(name, json_type_string) &&
	      strstr(json_object_get_string(name), "load_capture");
	json_object_put(o);
	json_tokener_free(tok);
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *cap = getenv("KTPROF_FUZZ_CAPTURE");
	struct mcp_server *s = mcp_server_new();
	const char *p = (const char *)data, *end = p + size, *nl;
	char load[4096];
	size_t i;

	if (!s)
		abort();
	for (i = 0; i < sizeof(start) / sizeof(start[0]); i++)
		handle(s, start[i], strlen(start[i]));
	if (cap) {
		snprintf(load, sizeof(load), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
			 "\"params\":{\"name\":\"load_capture\",\"arguments\":{\"path\":\"%s\","
			 "\"trace_id\":\"a\"}}}", cap);
		handle(s, load, strlen(load));
	}
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (!loads(p, (size_t)(nl - p)))
			handle(s, p, (size_t)(nl - p));
	}
	mcp_server_free(s);
	return 0;
}
