// SPDX-License-Identifier: GPL-2.0
/*
 * Test workload: what an unprivileged process can make the module describe.
 * It maps N memfds, each a file of its own, then spins with a frame-pointer
 * chain it made up: up to 126 return addresses, each in another memfd, a
 * different set each round. Every sample of the spin asks the module for
 * FILE records of files it has not described yet.
 *
 * It prints "ready" once the files are mapped, then waits for a byte on
 * standard input before it spins: the caller measures in between. It
 * prints "spun" after each spin and spins again while the next byte read
 * is 'g' ("g" twice: two spins over the same files; "go": one).
 *
 * usage: memfd-frames -n FILES -r ROUNDS -s SPINS [-z]
 *   FILES   memfds to map (default 1000)
 *   ROUNDS  chains to spin on, FRAMES files further each time (default 100)
 *   SPINS   loop iterations per round (default 500000): a count, not a time
 *   -z      each memfd a page long, never written: a hole, so no page of
 *           it is in the page cache (default: empty files)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define FRAMES 126	/* the module walks 127 user frames, the IP first */

struct frame {
	unsigned long next_fp;
	unsigned long ret;
};

/* Spin @n times with @chain as the frame pointer, as a sample sees it. */
static void spin(struct frame *chain, unsigned long n)
{
	__asm__ volatile("mov %%rbp, %%rdx\n\t"
			 "mov %1, %%rbp\n"
			 "1:\tdec %0\n\t"
			 "jnz 1b\n\t"
			 "mov %%rdx, %%rbp"
			 : "+c"(n)
			 : "r"(chain)
			 : "rdx", "cc", "memory");
}

int main(int argc, char **argv)
{
	unsigned long files = 1000, rounds = 100, spins = 500000, i, r;
	struct frame *chain;
	char **maps, go;
	int opt, sized = 0;

	while ((opt = getopt(argc, argv, "n:r:s:z")) != -1) {
		switch (opt) {
		case 'n': files = strtoul(optarg, NULL, 0); break;
		case 'r': rounds = strtoul(optarg, NULL, 0); break;
		case 's': spins = strtoul(optarg, NULL, 0); break;
		case 'z': sized = 1; break;
		default:
			fprintf(stderr, "usage: memfd-frames -n FILES -r ROUNDS -s SPINS [-z]\n");
			return 2;
		}
	}
	if (!files || !spins) {
		fprintf(stderr, "memfd-frames: FILES and SPINS must not be 0\n");
		return 2;
	}
	maps = calloc(files, sizeof(*maps));
	chain = calloc(FRAMES, sizeof(*chain));
	if (!maps || !chain) {
		perror("memfd-frames: calloc");
		return 1;
	}
	for (i = 0; i < files; i++) {
		int fd = memfd_create("ktprof-frames", 0);

		if (fd < 0) {
			perror("memfd-frames: memfd_create");
			return 1;
		}
		if (sized && ftruncate(fd, 4096)) {
			perror("memfd-frames: ftruncate");
			return 1;
		}
		/* Never touched: the file maps without a page. */
		maps[i] = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		if (maps[i] == MAP_FAILED) {
			perror("memfd-frames: mmap");
			return 1;
		}
		close(fd);
	}
	printf("ready\n");
	fflush(stdout);
	/* Frames at rising addresses, as the walk wants them. */
	for (i = 0; i < FRAMES; i++)
		chain[i].next_fp = i + 1 < FRAMES ? (unsigned long)&chain[i + 1] : 0;
	if (read(0, &go, 1) != 1) {
		fprintf(stderr, "memfd-frames: no go on standard input\n");
		return 1;
	}
	/* Each 'g' read spins over the files again: a baseline, then more. */
	do {
		for (r = 0; r < rounds; r++) {
			for (i = 0; i < FRAMES; i++)
				chain[i].ret = (unsigned long)maps[(r * FRAMES + i) % files] + 64;
			spin(chain, spins);
		}
		printf("spun %lu rounds over %lu files\n", rounds, files);
		fflush(stdout);
	} while (read(0, &go, 1) == 1 && go == 'g');
	return 0;
}
