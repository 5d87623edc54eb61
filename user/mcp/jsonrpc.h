/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON-RPC 2.0 messages as MCP carries them (one JSON object per line on
 * stdio, no batches): parsing and checking one message, and making and
 * writing out results and errors. All JSON goes through json-c.
 */
#ifndef KTPROF_JSONRPC_H
#define KTPROF_JSONRPC_H

#include <stddef.h>

#include <json.h>

/* The error codes JSON-RPC 2.0 defines. */
enum jsonrpc_code {
	JSONRPC_PARSE_ERROR = -32700,
	JSONRPC_INVALID_REQUEST = -32600,
	JSONRPC_METHOD_NOT_FOUND = -32601,
	JSONRPC_INVALID_PARAMS = -32602,
	JSONRPC_INTERNAL_ERROR = -32603,
};

enum jsonrpc_kind {
	JSONRPC_REQUEST,	/* method and id: answer it */
	JSONRPC_NOTIFICATION,	/* method, no id: never answered */
	JSONRPC_RESPONSE,	/* result or error: an answer to a request of ours */
};

struct jsonrpc_msg {
	json_object *root;	/* the parsed message; owns what follows */
	enum jsonrpc_kind kind;
	json_object *id;	/* a string or an integer; NULL: none or unreadable */
	const char *method;
	json_object *params;	/* an object, or NULL when absent */
};

/*
 * Parse and check the message in @buf (@len bytes, UTF-8). Returns 0, or
 * the JSON-RPC error code to answer with, and why in @why; @msg->id is the
 * request's id whenever it could be read. Release @msg with
 * jsonrpc_msg_fini() either way.
 */
int jsonrpc_parse(const char *buf, size_t len, struct jsonrpc_msg *msg, char *why,
		  size_t why_len);
void jsonrpc_msg_fini(struct jsonrpc_msg *msg);

/* A response carrying @result (taken) to request @id (NULL: null); NULL on ENOMEM. */
json_object *jsonrpc_result(json_object *id, json_object *result);

/* An error response; @data (taken) may be NULL. NULL on ENOMEM. */
json_object *jsonrpc_error(json_object *id, int code, const char *message, json_object *data);

/*
 * @msg as one line of JSON: no newline inside, valid UTF-8 (a byte that
 * does not form a character, e.g. of a thread name, becomes U+FFFD).
 * malloc'ed, not newline-terminated; NULL on ENOMEM.
 */
char *jsonrpc_format(json_object *msg, size_t *len);

#endif
