// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that block in known places, for the off-CPU stacks (-S offcpu,
 * -S waker) and report --offcpu:
 *   ktp-piperd  reads a pipe that ktp-pipewr writes a byte into each
 *               SLEEP_US (asleep in the pipe's read; woken by its write)
 *   ktp-sleeper nanosleep(SLEEP_US)
 *   ktp-futex   FUTEX_WAIT on a word that ktp-futexwk wakes each SLEEP_US
 *   ktp-fsync   write and fsync FILE (with -f: on a 9p share it waits for
 *               the host's reply in D)
 *   ktp-mutex   takes a pthread mutex that ktp-holder holds SLEEP_US at a
 *               time, its turn each round (a contended mutex, and the
 *               condition variable that hands turns: futex waits both)
 * Each blocks N times; ktp-pipewr and ktp-futexwk sleep between their
 * wakings, each nap begun once the other thread is about to wait (so it
 * waits, however late a loaded machine ran it). Prints "NAME TID" for
 * each thread once it has started.
 *
 * usage: blockers [-n N] [-s SLEEP_US] [-f FILE]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long n = 200, sleep_us = 1000;
static const char *fsync_path;
static int pipefd[2];
static atomic_long reads_begun;	/* the pipe reader's read() calls, so far */
static atomic_int futex_word;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t contended = PTHREAD_MUTEX_INITIALIZER;

static void name_self(const char *name)
{
	prctl(PR_SET_NAME, name, 0, 0, 0);
	pthread_mutex_lock(&print_lock);
	printf("%s %ld\n", name, (long)syscall(SYS_gettid));
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
}

static void nap(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	nanosleep(&ts, NULL);
}

static void *pipe_reader(void *arg)
{
	char c;
	long i;

	(void)arg;
	name_self("ktp-piperd");
	for (i = 0; i < n; i++) {
		atomic_store(&reads_begun, i + 1);
		if (read(pipefd[0], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void *pipe_writer(void *arg)
{
	long i;

	(void)arg;
	name_self("ktp-pipewr");
	for (i = 0; i < n; i++) {
		/*
		 * Not before the reader's read: a reader that comes late
		 * (started after its writer, or kept off its CPU) would
		 * find every byte written and never sleep in the pipe.
		 */
		while (atomic_load(&reads_begun) <= i)
			nap(sleep_us / 4 + 1);
		nap(sleep_us);
		if (write(pipefd[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	long i;

	(void)arg;
	name_self("ktp-sleeper");
	for (i = 0; i < n; i++)
		nap(sleep_us);
	return NULL;
}

static long futex(int op, int val)
{
	return syscall(SYS_futex, &futex_word, op, val, NULL, NULL, 0);
}

/* Each round: the waiter sets the word and waits until the waker clears it. */
static void *futex_waiter(void *arg)
{
	long i;

	(void)arg;
	name_self("ktp-futex");
	for (i = 0; i < n; i++) {
		atomic_store(&futex_word, 1);
		while (atomic_load(&futex_word) == 1)
			futex(FUTEX_WAIT_PRIVATE, 1);
	}
	return NULL;
}

static void *futex_waker(void *arg)
{
	long i;

	(void)arg;
	name_self("ktp-futexwk");
	for (i = 0; i < n; i++) {
		while (atomic_load(&futex_word) != 1)
			nap(sleep_us / 4 + 1);
		nap(sleep_us);
		atomic_store(&futex_word, 0);
		futex(FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

/*
 * Each round the holder takes the mutex, hands the taker its turn and
 * naps SLEEP_US holding it: the taker, woken by the turn, waits on the
 * mutex. The holder then waits (releasing it) until the taker took its
 * turn. The taker's every wait is a futex wait: the contended lock, or
 * the condition variable when it comes first.
 */
static pthread_cond_t taker_turn = PTHREAD_COND_INITIALIZER;
static pthread_cond_t holder_turn = PTHREAD_COND_INITIALIZER;
static int turn;	/* under contended: 1, the taker's */

static void *holder(void *arg)
{
	long i;

	(void)arg;
	name_self("ktp-holder");
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&contended);
		turn = 1;
		pthread_cond_signal(&taker_turn);
		nap(sleep_us);
		while (turn == 1)
			pthread_cond_wait(&holder_turn, &contended);
		pthread_mutex_unlock(&contended);
	}
	return NULL;
}

static void *mutex_taker(void *arg)
{
	long i;

	(void)arg;
	name_self("ktp-mutex");
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&contended);
		while (turn == 0)
			pthread_cond_wait(&taker_turn, &contended);
		turn = 0;
		pthread_cond_signal(&holder_turn);
		pthread_mutex_unlock(&contended);
	}
	return NULL;
}

static void *fsyncer(void *arg)
{
	int fd;
	long i;

	(void)arg;
	name_self("ktp-fsync");
	fd = open(fsync_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror(fsync_path);
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (write(fd, "block\n", 6) != 6 || fsync(fd)) {
			perror("fsync");
			exit(1);
		}
	}
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fns[8])(void *) = { pipe_reader, pipe_writer, sleeper, futex_waiter,
				    futex_waker, holder, mutex_taker, fsyncer };
	pthread_t t[8];
	int c, i, nr;

	while ((c = getopt(argc, argv, "n:s:f:")) != -1) {
		switch (c) {
		case 'n': n = atol(optarg); break;
		case 's': sleep_us = atol(optarg); break;
		case 'f': fsync_path = optarg; break;
		default:
			fprintf(stderr, "usage: blockers [-n N] [-s SLEEP_US] [-f FILE]\n");
			return 2;
		}
	}
	if (n < 1 || sleep_us < 1 || pipe(pipefd)) {
		fprintf(stderr, "blockers: bad arguments or no pipe\n");
		return 2;
	}
	nr = fsync_path ? 8 : 7;
	for (i = 0; i < nr; i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL)) {
			fprintf(stderr, "blockers: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < nr; i++)
		pthread_join(t[i], NULL);
	return 0;
}
