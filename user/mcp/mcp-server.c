// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktprof_abi.h"
#include "mcp/jsonrpc.h"
#include "mcp/mcp-server.h"
#include "mcp/mcp-tools.h"
#include "report/json-build.h"

/* The protocol versions spoken, newest first: the two with structured tool results. */
static const char *const versions[] = { "2025-11-25", "2025-06-18", NULL };

static const char instructions[] =
	"ktprof analyses scheduler traces recorded by ktprof (kernels without BPF too). "
	"Call load_capture with a capture's path first (it answers with a trace_id), then "
	"get_trace_summary, run_all_analyzers or one analyze_* tool. Times in results are "
	"nanoseconds (fields end in _ns); from/to arguments are times from the capture's "
	"start with a unit (500ms, 2s). Long lists are cut at limit, largest first; "
	"list_totals gives their full lengths. compare_traces compares two loaded traces; "
	"query_trace answers a read-only SQL query over the trace's tables.";

struct mcp_server {
	int initialized;		/* initialize answered */
	const char *version;		/* the protocol version agreed */
	struct mcp_traces traces;
};

/* What a request gets: a result, or an error code and message. */
struct answer {
	json_object *result;
	int code;
	char why[512];
};

struct mcp_server *mcp_server_new(void)
{
	return calloc(1, sizeof(struct mcp_server));
}

void mcp_server_free(struct mcp_server *s)
{
	if (!s)
		return;
	mcp_traces_fini(&s->traces);
	free(s);
}

static int refuse(struct answer *a, int code, const char *why)
{
	a->code = code;
	snprintf(a->why, sizeof(a->why), "%s", why);
	return code;
}

static const char *param_str(json_object *params, const char *key)
{
	json_object *v;

	if (!params || !json_object_object_get_ex(params, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static void initialize(struct mcp_server *s, json_object *params, struct answer *a)
{
	const char *want = param_str(params, "protocolVersion");
	json_object *caps, *tools, *info;
	struct json_build b = { 0 };
	int i;

	if (s->initialized) {
		refuse(a, JSONRPC_INVALID_REQUEST, "initialize was already answered in this session");
		return;
	}
	if (!want) {
		refuse(a, JSONRPC_INVALID_PARAMS, "initialize wants params.protocolVersion, a string");
		return;
	}
	/* The version asked for when spoken, else the newest: the client decides. */
	s->version = versions[0];
	for (i = 0; versions[i]; i++)
		if (!strcmp(want, versions[i]))
			s->version = versions[i];
	a->result = json_object_new_object();
	caps = json_object_new_object();
	tools = json_object_new_object();
	info = json_object_new_object();
	json_build_put(&b, a->result, "protocolVersion", json_object_new_string(s->version));
	json_build_put(&b, tools, "listChanged", json_object_new_boolean(0));
	json_build_put(&b, caps, "tools", tools);
	json_build_put(&b, a->result, "capabilities", caps);
	json_build_put(&b, info, "name", json_object_new_string("ktprof"));
	json_build_put(&b, info, "title", json_object_new_string("ktprof scheduler trace analysis"));
	json_build_put(&b, info, "version", json_object_new_string(KTP_VERSION_STRING));
	json_build_put(&b, a->result, "serverInfo", info);
	json_build_put(&b, a->result, "instructions", json_object_new_string(instructions));
	if (b.nomem) {
		json_object_put(a->result);
		a->result = NULL;
		return;
	}
	s->initialized = 1;
}

static void tools_call(struct mcp_server *s, json_object *params, struct answer *a)
{
	const char *name = param_str(params, "name");
	const struct mcp_tool *t;
	json_object *args = NULL;

	if (!name) {
		refuse(a, JSONRPC_INVALID_PARAMS, "tools/call wants params.name, a string");
		return;
	}
	t = mcp_tools_find(name);
	if (!t) {
		a->code = JSONRPC_INVALID_PARAMS;
		snprintf(a->why, sizeof(a->why), "Unknown tool: %.128s (tools/list names them)", name);
		return;
	}
	if (json_object_object_get_ex(params, "arguments", &args) && args &&
	    !json_object_is_type(args, json_type_object)) {
		refuse(a, JSONRPC_INVALID_PARAMS, "tools/call wants params.arguments as an object");
		return;
	}
	a->result = mcp_tools_call(t, &s->traces, args);
}

static void request(struct mcp_server *s, const struct jsonrpc_msg *m, struct answer *a)
{
	if (!strcmp(m->method, "initialize")) {
		initialize(s, m->params, a);
	} else if (!strcmp(m->method, "ping")) {
		a->result = json_object_new_object();
	} else if (!s->initialized) {
		refuse(a, JSONRPC_INVALID_REQUEST,
		       "the session is not initialized: send initialize first");
	} else if (!strcmp(m->method, "tools/list")) {
		/* One page holds every tool: no cursor was ever given out. */
		if (param_str(m->params, "cursor"))
			refuse(a, JSONRPC_INVALID_PARAMS, "invalid cursor: the tool list has one page");
		else
			a->result = mcp_tools_list();
	} else if (!strcmp(m->method, "tools/call")) {
		if (!m->params)
			refuse(a, JSONRPC_INVALID_PARAMS, "tools/call wants params");
		else
			tools_call(s, m->params, a);
	} else {
		a->code = JSONRPC_METHOD_NOT_FOUND;
		snprintf(a->why, sizeof(a->why),
			 "Method not found: %.128s (this server has initialize, ping, tools/list and tools/call)",
			 m->method);
	}
}

static int format(json_object *msg, char **reply, size_t *reply_len)
{
	if (!msg)
		return -ENOMEM;
	*reply = jsonrpc_format(msg, reply_len);
	json_object_put(msg);
	return *reply ? 0 : -ENOMEM;
}

int mcp_server_handle(struct mcp_server *s, const char *msg, size_t len, char **reply,
		      size_t *reply_len)
{
	struct answer a = { 0 };
	struct jsonrpc_msg m;
	json_object *out;
	int code;

	*reply = NULL;
	*reply_len = 0;
	code = jsonrpc_parse(msg, len, &m, a.why, sizeof(a.why));
	/* Notifications are never answered, not even when malformed. */
	if ((code && m.method && !m.id) || (!code && m.kind != JSONRPC_REQUEST)) {
		jsonrpc_msg_fini(&m);
		return 0;
	}
	if (!code)
		request(s, &m, &a);
	else
		a.code = code;
	if (a.result)
		out = jsonrpc_result(m.id, a.result);
	else if (a.code)
		out = jsonrpc_error(m.id, a.code, a.why, NULL);
	else
		out = jsonrpc_error(m.id, JSONRPC_INTERNAL_ERROR, "out of memory", NULL);
	jsonrpc_msg_fini(&m);
	return format(out, reply, reply_len);
}

/*
 * The next line of @in into *@buf, at most MCP_LINE_MAX bytes (a longer
 * one is read to its end and flagged). 1, 0 at the end, or -errno.
 */
static int read_line(FILE *in, char **buf, size_t *cap, size_t *len, int *too_long)
{
	int c;

	*len = 0;
	*too_long = 0;
	while ((c = getc(in)) != EOF && c != '\n') {
		if (*len == MCP_LINE_MAX) {
			*too_long = 1;
			continue;
		}
		if (*len + 1 >= *cap) {
			size_t n = *cap ? 2 * *cap : 4096;
			char *p = realloc(*buf, n > MCP_LINE_MAX + 1 ? MCP_LINE_MAX + 1 : n);

			if (!p)
				return -ENOMEM;
			*buf = p;
			*cap = n > MCP_LINE_MAX + 1 ? MCP_LINE_MAX + 1 : n;
		}
		(*buf)[(*len)++] = c;
	}
	if (c == EOF && ferror(in))
		return -EIO;
	if (c == EOF && !*len && !*too_long)
		return 0;
	if (*len && (*buf)[*len - 1] == '\r')
		(*len)--;
	return 1;
}

static int blank(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	return !n;
}

static int send_line(FILE *out, const char *line, size_t len)
{
	if (fwrite(line, 1, len, out) != len || putc('\n', out) == EOF || fflush(out))
		return errno ? -errno : -EIO;
	return 0;
}

int mcp_server_serve(struct mcp_server *s, FILE *in, FILE *out)
{
	size_t cap = 0, len, reply_len;
	char *buf = NULL, *reply;
	int too_long, ret;

	while ((ret = read_line(in, &buf, &cap, &len, &too_long)) > 0) {
		reply = NULL;
		if (too_long) {
			json_object *e = jsonrpc_error(NULL, JSONRPC_PARSE_ERROR,
						       "message longer than 1 MiB", NULL);

			ret = format(e, &reply, &reply_len);
		} else if (blank(buf, len)) {
			continue;
		} else {
			ret = mcp_server_handle(s, buf, len, &reply, &reply_len);
		}
		if (!ret && reply)
			ret = send_line(out, reply, reply_len);
		free(reply);
		if (ret)
			break;
	}
	free(buf);
	return ret < 0 ? ret : 0;
}
