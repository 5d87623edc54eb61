// SPDX-License-Identifier: GPL-2.0
/*
 * A raw dump directory as one input of the fuzz-rawdir harness, in the
 * format of tests/fuzz/pack.h: regular files with their contents, FIFOs,
 * subdirectories (empty) and symlinks (their targets). Entries in name
 * order, so the same directory packs the same.
 *
 * usage: fuzz-pack DIR OUT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fuzz/pack.h"

static void put_entry(FILE *out, char kind, const char *name, const char *data, uint32_t len)
{
	uint8_t nlen = (uint8_t)strlen(name);

	fputc(kind, out);
	fputc(nlen, out);
	fwrite(name, 1, nlen, out);
	fwrite(&len, 4, 1, out);	/* little-endian: x86-64 */
	fwrite(data, 1, len, out);
}

static char *slurp(int dirfd, const char *name, uint32_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	if (fd < 0 || !buf) {
		perror(name);
		exit(1);
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap && !(buf = realloc(buf, cap *= 2))) {
			perror(name);
			exit(1);
		}
	}
	close(fd);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct dirent **list;
	FILE *out;
	int n, i, dirfd;

	if (argc != 3) {
		fprintf(stderr, "usage: fuzz-pack DIR OUT\n");
		return 2;
	}
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	n = scandir(argv[1], &list, NULL, alphasort);
	out = fopen(argv[2], "w");
	if (dirfd < 0 || n < 0 || !out) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char target[4096];
		struct stat st;
		uint32_t len;
		char *data;
		ssize_t tl;

		if (!strcmp(name, ".") || !strcmp(name, "..") || strlen(name) > PACK_NAME_MAX ||
		    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISREG(st.st_mode)) {
			data = slurp(dirfd, name, &len);
			put_entry(out, 'f', name, data, len);
			free(data);
		} else if (S_ISFIFO(st.st_mode)) {
			put_entry(out, 'p', name, "", 0);
		} else if (S_ISDIR(st.st_mode)) {
			put_entry(out, 'd', name, "", 0);
		} else if (S_ISLNK(st.st_mode) &&
			   (tl = readlinkat(dirfd, name, target, sizeof(target))) > 0) {
			put_entry(out, 'l', name, target, (uint32_t)tl);
		}
		free(list[i]);
	}
	free(list);
	close(dirfd);
	return fclose(out) ? 1 : 0;
}
