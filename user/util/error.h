/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors of the library. Every fallible function returns 0 or a negative
 * error number: an errno, or a ktprof code from the table below (above the
 * errno range). error_str() names either. What the number alone cannot say
 * ("capture format 3.0; this ktprof reads 1.0 to 1.1") goes into a struct
 * error: an object keeps one for its own failures, and a constructor,
 * which has no object yet, fills the one its caller passes. Only commands
 * print.
 */
#ifndef KTPROF_ERROR_H
#define KTPROF_ERROR_H

#include <stddef.h>

/* X(NAME, text) for each ktprof error code. */
#define ERROR_TABLE(X)							\
	X(NOT_CAPTURE, "not a ktprof capture file")			\
	X(FORMAT, "capture format this ktprof does not read")		\
	X(ABI, "record ABI this ktprof does not read")			\
	X(DAMAGED, "damaged data")					\
	X(TRUNCATED, "the file ends early")				\
	X(NO_STREAMS, "no cpuN files (a raw dump directory is expected)") \
	X(NO_META, "no session metadata")				\
	X(BAD_META, "malformed session metadata")			\
	X(NOT_REGULAR, "not a regular file")				\
	X(TOO_LARGE, "larger than ktprof accepts")			\
	X(MODULE, "the ktprof module refused")

#define ERROR_BASE 4096		/* errno values stay below */

enum error_code {
	ERROR_FIRST = ERROR_BASE - 1,
#define ERROR_ENUM(name, text) ERROR_##name,
	ERROR_TABLE(ERROR_ENUM)
#undef ERROR_ENUM
	ERROR_LAST
};

#define ERROR_MSG_MAX 512

/* The failure's code and, when there is more to say, a message. */
struct error {
	int code;		/* negative, 0: none */
	char msg[ERROR_MSG_MAX];	/* "" when error_str(code) says it all */
};

/* "No such file or directory", "not a ktprof capture file", ...; for @err < 0 or > 0. */
const char *error_str(int err);

/*
 * Record a failure in @e (may be NULL): @code (negative) and a message
 * formatted from @fmt (may be NULL: the code's own text). Returns @code,
 * so that `return error_set(e, -EINVAL, "...")` reads naturally.
 */
int error_set(struct error *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What went wrong: the message, else the code's text. */
const char *error_msg(const struct error *e);

static inline void error_clear(struct error *e)
{
	e->code = 0;
	e->msg[0] = '\0';
}

#endif
