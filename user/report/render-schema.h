/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON Schemas of the documents render_json_object() and
 * render_diff_json_object() build, for readers that validate them: `ktprof
 * mcp` gives them to its clients as its tools' output schemas. They use
 * only keywords that JSON Schema draft 2020-12 (MCP's default) and draft-07
 * read alike. Each object's schema names every field it may hold
 * (additionalProperties: false), so that a field a renderer adds and this
 * file does not know fails validation instead of drifting unnoticed.
 *
 * The schemas are written as tables of fields, from which the schema
 * objects are built; other documents (the MCP tools' own) use the same.
 */
#ifndef KTPROF_RENDER_SCHEMA_H
#define KTPROF_RENDER_SCHEMA_H

enum render_schema_type {
	SCHEMA_INT,		/* an integer */
	SCHEMA_NUM,		/* a number, or null (NaN, infinite) */
	SCHEMA_STR,
	SCHEMA_BOOL,
	SCHEMA_OBJ,		/* an object of the fields @sub */
	SCHEMA_ARR,		/* an array of objects of the fields @sub */
	SCHEMA_COUNTS,		/* an object of integers, any names */
	SCHEMA_STRS,		/* an array of strings */
	SCHEMA_ANY,		/* anything */
};

enum {
	SCHEMA_OPTIONAL = 1 << 0,	/* the field may be absent */
	SCHEMA_OPEN = 1 << 1,		/* SCHEMA_OBJ, SCHEMA_ARR: no field required
					 * (a distribution of nothing is {}) */
	SCHEMA_EXTRA = 1 << 2,		/* SCHEMA_OBJ, SCHEMA_ARR: other fields allowed */
};

struct render_schema_field {
	const char *name;		/* NULL ends a table */
	enum render_schema_type type;
	const struct render_schema_field *sub;
	unsigned int flags;
	const char *description;	/* NULL: none */
	unsigned int sections;		/* report document: present with these
					 * report_section bits; 0: always */
};

struct json_object;

/*
 * The schema of an object of @fields: those whose sections meet @sections
 * (fields with no sections always), required unless SCHEMA_OPTIONAL.
 * NULL on ENOMEM.
 */
struct json_object *render_schema_object(const struct render_schema_field *fields,
					 unsigned int sections, unsigned int flags);

/* The report document holding @sections (enum report_section bits); NULL on ENOMEM. */
struct json_object *render_schema_report(unsigned int sections);

/* The diff document; NULL on ENOMEM. */
struct json_object *render_schema_diff(void);

#endif
