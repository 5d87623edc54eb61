// SPDX-License-Identifier: GPL-2.0
/*
 * execat DIR PROG [ARG...]: run DIR/PROG with execveat() through a
 * directory file descriptor, as fexecve-style launchers do. The kernel then
 * names the program "/dev/fd/N/PROG" in a string allocated to fit, and the
 * task_rename tracepoint gets its last component ("PROG"), shorter than a
 * comm: the case a 16-byte copy of the new name reads out of bounds.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int dir;

	if (argc < 3) {
		fprintf(stderr, "usage: execat DIR PROG [ARG...]\n");
		return 2;
	}
	dir = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0) {
		perror(argv[1]);
		return 1;
	}
	/* O_CLOEXEC on the directory: no AT_EMPTY_PATH, a relative name. */
	syscall(SYS_execveat, dir, argv[2], argv + 2, environ, 0);
	perror("execveat");
	return 1;
}
