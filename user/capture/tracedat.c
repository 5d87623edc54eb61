// SPDX-License-Identifier: GPL-2.0
/*
 * A trace.dat, translated in a child process (capture/tracedat.h). The
 * child writes its results to a pipe as one message:
 *
 *   u32 TD_MSG_MAGIC, s32 status
 *   status < 0: u32 length, the error message
 *   status 0:   struct meta, u64 stop time, u32 streams,
 *               each: u32 cpu, u64 length, the bytes;
 *               u64 length (UINT64_MAX: none), the kallsyms text;
 *               u64 length, the lacks text
 *
 * and the parent keeps the message whole: the streams point into it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/ftrace-translate.h"
#include "capture/tracedat.h"
#include "util/array.h"
#include "util/infile.h"

#define TD_MAGIC "\027\010\104tracing"
#define TD_MAGIC_LEN 10
#define TD_MSG_MAGIC 0x3144544bu	/* "KTD1" */
#define TD_NO_TEXT UINT64_MAX

struct tracedat_stream {
	uint32_t cpu;
	const uint8_t *buf;
	size_t len;
};

struct tracedat {
	uint8_t *msg;		/* the child's message */
	size_t len;
	struct meta meta;
	uint64_t stop_ns;
	struct tracedat_stream *streams;
	unsigned int nr_streams;
	char *kallsyms, *lacks;	/* NUL-terminated copies */
};

int tracedat_probe(const char *path)
{
	char magic[TD_MAGIC_LEN];
	ssize_t n;
	int fd = infile_open(AT_FDCWD, path, 0);

	if (fd < 0)
		return fd;
	n = pread(fd, magic, sizeof(magic), 0);
	close(fd);
	if (n < 0)
		return -errno;
	return n == TD_MAGIC_LEN && !memcmp(magic, TD_MAGIC, TD_MAGIC_LEN);
}

/* --- The child --- */

static int put(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	ssize_t w;

	while (n) {
		w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= w;
	}
	return 0;
}

static int put_text(int fd, const char *text)
{
	uint64_t len = text ? strlen(text) : TD_NO_TEXT;

	return put(fd, &len, sizeof(len)) || (text && put(fd, text, len));
}

static int send_result(int fd, struct ftrace_translate *t, const struct error *e)
{
	uint32_t magic = TD_MSG_MAGIC, n, i, cpu, len32;
	int32_t status = t ? 0 : e->code ? e->code : -EINVAL;
	const uint8_t *buf;
	uint64_t stop, len;
	size_t slen;

	if (put(fd, &magic, sizeof(magic)) || put(fd, &status, sizeof(status)))
		return -1;
	if (!t) {
		len32 = strlen(error_msg(e));
		return put(fd, &len32, sizeof(len32)) || put(fd, error_msg(e), len32);
	}
	stop = ftrace_translate_stop_ns(t);
	n = ftrace_translate_nr_streams(t);
	if (put(fd, ftrace_translate_meta(t), sizeof(struct meta)) ||
	    put(fd, &stop, sizeof(stop)) || put(fd, &n, sizeof(n)))
		return -1;
	for (i = 0; i < n; i++) {
		ftrace_translate_stream(t, i, &cpu, &buf, &slen);
		len = slen;
		if (put(fd, &cpu, sizeof(cpu)) || put(fd, &len, sizeof(len)) ||
		    put(fd, buf, slen))
			return -1;
	}
	return put_text(fd, ftrace_translate_kallsyms(t)) ||
	       put_text(fd, ftrace_translate_lacks(t));
}

static void __attribute__((noreturn)) child(const char *path, int fd, unsigned int secs)
{
	struct error e = { 0 };
	struct ftrace_translate *t;
	int null = open("/dev/null", O_WRONLY);

	/* libtracecmd prints warnings whatever its log level. */
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	signal(SIGPIPE, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	alarm(secs);
	t = ftrace_translate_open(path, &e);
	_exit(send_result(fd, t, &e) ? 2 : 0);
}

/* --- The parent --- */

static int take_all(int fd, uint8_t **buf, size_t *len)
{
	size_t cap = 0;
	ssize_t n;

	*buf = NULL;
	*len = 0;
	for (;;) {
		if (array_reserve_n((void **)buf, &cap, *len + 65536, 1, 1 << 20))
			return -ENOMEM;
		n = read(fd, *buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		*len += n;
	}
}

/* The next @n bytes of the message, or NULL when it is shorter. */
static const void *take(const struct tracedat *td, size_t *off, uint64_t n)
{
	const void *p = td->msg + *off;

	if (n > td->len - *off)
		return NULL;
	*off += n;
	return p;
}

/* Scalars of the message, which may be unaligned. */
static int take_u32(const struct tracedat *td, size_t *off, uint32_t *v)
{
	const void *p = take(td, off, sizeof(*v));

	return p ? (memcpy(v, p, sizeof(*v)), 0) : -EBADMSG;
}

static int take_u64(const struct tracedat *td, size_t *off, uint64_t *v)
{
	const void *p = take(td, off, sizeof(*v));

	return p ? (memcpy(v, p, sizeof(*v)), 0) : -EBADMSG;
}

static int take_text(struct tracedat *td, size_t *off, char **out)
{
	const char *p;
	uint64_t len;

	*out = NULL;
	if (take_u64(td, off, &len))
		return -EBADMSG;
	if (len == TD_NO_TEXT)
		return 0;
	p = take(td, off, len);
	if (!p)
		return -EBADMSG;
	*out = strndup(p, len);
	return *out ? 0 : -ENOMEM;
}

/* The child's message: its error into @err, or the results into @td. */
static int parse(struct tracedat *td, struct error *err)
{
	uint32_t magic, status, n, i, cpu, mlen;
	const void *m, *buf;
	uint64_t len;
	size_t off = 0;
	int ret;

	if (take_u32(td, &off, &magic) || magic != TD_MSG_MAGIC || take_u32(td, &off, &status))
		return -EBADMSG;
	if (status) {
		if (take_u32(td, &off, &mlen) || !(m = take(td, &off, mlen)))
			return -EBADMSG;
		ret = (int32_t)status < 0 ? (int32_t)status : -EINVAL;
		error_set(err, ret, "%.*s", (int)mlen, (const char *)m);
		return ret;
	}
	m = take(td, &off, sizeof(td->meta));
	if (!m || take_u64(td, &off, &td->stop_ns) || take_u32(td, &off, &n))
		return -EBADMSG;
	memcpy(&td->meta, m, sizeof(td->meta));
	td->streams = calloc(n ? n : 1, sizeof(*td->streams));
	if (!td->streams)
		return error_set(err, -ENOMEM, NULL);
	for (i = 0; i < n; i++) {
		if (take_u32(td, &off, &cpu) || take_u64(td, &off, &len) ||
		    !(buf = take(td, &off, len)))
			return -EBADMSG;
		td->streams[i] = (struct tracedat_stream){ cpu, buf, len };
		td->nr_streams++;
	}
	ret = take_text(td, &off, &td->kallsyms);
	return ret ? ret : take_text(td, &off, &td->lacks);
}

struct tracedat *tracedat_open(const char *path, struct error *err)
{
	struct tracedat *td;
	unsigned int secs;
	struct stat st;
	int fds[2], status, ret;
	pid_t pid;

	ret = tracedat_probe(path);
	if (ret <= 0) {
		if (ret)
			error_set(err, ret, "%s: %s", path, error_str(ret));
		else
			error_set(err, -ERROR_FORMAT, "%s: not a trace.dat", path);
		return NULL;
	}
	secs = 60 + (stat(path, &st) ? 0 : st.st_size >> 20);
	td = calloc(1, sizeof(*td));
	if (!td) {
		error_set(err, -ENOMEM, NULL);
		return NULL;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		error_set(err, -errno, "%s: %s", path, strerror(errno));
		free(td);
		return NULL;
	}
	fflush(NULL);	/* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		error_set(err, -errno, "%s: fork: %s", path, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(td);
		return NULL;
	}
	if (!pid) {
		close(fds[0]);
		child(path, fds[1], secs);
	}
	close(fds[1]);
	ret = take_all(fds[0], &td->msg, &td->len);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		if (WTERMSIG(status) == SIGALRM)
			error_set(err, -ETIMEDOUT,
				  "%s: libtracecmd did not finish reading it in %u s: damaged?",
				  path, secs);
		else
			error_set(err, -ERROR_DAMAGED,
				  "%s: libtracecmd crashed reading it (signal %d): damaged trace.dat?",
				  path, WTERMSIG(status));
		ret = err ? err->code : -ERROR_DAMAGED;
	} else if (!ret) {
		struct error e = { 0 };

		ret = parse(td, &e);
		/* (Under ASan a crash is an exit status, not a signal.) */
		if (ret && !e.code)
			error_set(&e, -ERROR_DAMAGED,
				  "%s: libtracecmd failed reading it (exit status %d): damaged trace.dat?",
				  path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		if (ret && err)
			*err = e;
	} else {
		error_set(err, ret, "%s: %s", path, error_str(ret));
	}
	if (ret) {
		tracedat_close(td);
		return NULL;
	}
	return td;
}

void tracedat_close(struct tracedat *td)
{
	if (!td)
		return;
	free(td->streams);
	free(td->kallsyms);
	free(td->lacks);
	free(td->msg);
	free(td);
}

const struct meta *tracedat_meta(const struct tracedat *td)
{
	return &td->meta;
}

uint64_t tracedat_stop_ns(const struct tracedat *td)
{
	return td->stop_ns;
}

unsigned int tracedat_nr_streams(const struct tracedat *td)
{
	return td->nr_streams;
}

void tracedat_stream(const struct tracedat *td, unsigned int i, uint32_t *cpu,
		     const uint8_t **buf, size_t *len)
{
	*cpu = td->streams[i].cpu;
	*buf = td->streams[i].buf;
	*len = td->streams[i].len;
}

const char *tracedat_kallsyms(const struct tracedat *td)
{
	return td->kallsyms;
}

const char *tracedat_lacks(const struct tracedat *td)
{
	return td->lacks ? td->lacks : "";
}
