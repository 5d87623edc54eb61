/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arguments of MCP tools, declared once as tables: from a table come
 * both the tool's input schema (tools/list) and the checking of what a
 * call passes (types, bounds, choices, unknown names), whose failures are
 * the tool's errors (isError results the model can correct).
 */
#ifndef KTPROF_MCP_ARGS_H
#define KTPROF_MCP_ARGS_H

#include <stdint.h>

#include <json.h>

#include "util/error.h"

enum mcp_arg_type {
	MCP_ARG_STRING,
	MCP_ARG_INT,
	MCP_ARG_BOOL,
	MCP_ARG_STRINGS,	/* an array of strings */
	MCP_ARG_NUMBERS,	/* an object: name -> number */
};

#define MCP_ARG_STRING_MAX 4096	/* default longest string */
#define MCP_ARG_ITEMS_MAX 64	/* most items of an array or object */

struct mcp_arg {
	const char *name;
	enum mcp_arg_type type;
	const char *description;
	int64_t min, max;		/* MCP_ARG_INT */
	const char *const *choices;	/* STRING, STRINGS: values; NUMBERS: names
					 * (NULL-terminated; NULL: any) */
	unsigned int max_len;		/* STRING: longest; 0: MCP_ARG_STRING_MAX */
	int required;
};


/* The input schema of a tool taking @args; NULL on ENOMEM. */
json_object *mcp_args_schema(const struct mcp_arg *const *args);

/*
 * Check @given (the call's arguments object, NULL: none) against @args:
 * 0, or -EINVAL with what is wrong, and what was expected, in @err.
 */
int mcp_args_check(const struct mcp_arg *const *args, json_object *given, struct error *err);

/* Values of checked arguments; absent ones give NULL or @def. */
const char *mcp_args_str(json_object *given, const char *name);
int64_t mcp_args_int(json_object *given, const char *name, int64_t def);
int mcp_args_bool(json_object *given, const char *name, int def);
json_object *mcp_args_get(json_object *given, const char *name);

/* @s among @choices, ignoring case; its index or -1. */
int mcp_args_choice(const char *const *choices, const char *s);

#endif
