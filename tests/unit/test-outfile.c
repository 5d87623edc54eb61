// SPDX-License-Identifier: GPL-2.0
/*
 * Output files (util/outfile.h) and input files (util/infile.h) in a
 * directory where an attacker planted symlinks and FIFOs: nothing is
 * followed, opened or left behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util/error.h"
#include "util/infile.h"
#include "util/outfile.h"

static char dir[] = "/tmp/ktprof-unit-outfile.XXXXXX";

static const char *in_dir(const char *name)
{
	static char path[4][256];
	static unsigned int i;
	char *p = path[i++ % 4];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(name), "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void clean(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			unlink(in_dir(de->d_name));
	if (d)
		closedir(d);
}

static int write_file(const char *name, const char *text, int flags)
{
	struct outfile *of = outfile_open(in_dir(name), 0640, flags);

	if (!of)
		return -errno;
	CHECK(write(outfile_fd(of), text, strlen(text)) == (ssize_t)strlen(text));
	return outfile_close(of);
}

static void read_back(const char *name, const char *want)
{
	char buf[64] = "";
	FILE *f = fopen(in_dir(name), "r");

	CHECK(f && fgets(buf, sizeof(buf), f));
	CHECK_STR(buf, want);
	if (f)
		fclose(f);
}

UNIT_TEST(replaces_a_file_whole)
{
	static const int modes[] = { 0, OUTFILE_NAMED, OUTFILE_IN_PLACE };
	unsigned int i;

	umask(022);	/* the modes checked below */
	CHECK(mkdtemp(dir) != NULL);
	for (i = 0; i < 3; i++) {
		put("out", "old");
		CHECK_EQ(write_file("out", "new", modes[i]), 0);
		read_back("out", "new");
		CHECK_EQ(entries(), 1);		/* no temporary file left */
		clean();
	}
}

/* The attack of issue 14: a symlink where the temporary file used to go. */
UNIT_TEST(planted_symlinks_not_followed)
{
	static const int modes[] = { 0, OUTFILE_NAMED, OUTFILE_IN_PLACE };
	unsigned int i;
	struct stat st;

	for (i = 0; i < 3; i++) {
		put("victim", "precious");
		CHECK(symlink(in_dir("victim"), in_dir("out.part")) == 0);
		CHECK_EQ(write_file("out", "data", modes[i]), 0);
		read_back("victim", "precious");
		CHECK(lstat(in_dir("out"), &st) == 0 && S_ISREG(st.st_mode));
		CHECK_EQ(st.st_mode & 0777, 0640 & ~(mode_t)0022 & 0777);
		/* At the target itself: refused, the link left as it is. */
		CHECK(symlink(in_dir("victim"), in_dir("link")) == 0);
		CHECK_EQ(write_file("link", "data", modes[i]), -ERROR_NOT_REGULAR);
		CHECK(lstat(in_dir("link"), &st) == 0 && S_ISLNK(st.st_mode));
		read_back("victim", "precious");
		clean();
	}
}

UNIT_TEST(fifo_target_refused)
{
	CHECK(mkfifo(in_dir("fifo"), 0600) == 0);
	CHECK_EQ(write_file("fifo", "data", 0), -ERROR_NOT_REGULAR);
	CHECK_EQ(write_file("fifo", "data", OUTFILE_IN_PLACE), -ERROR_NOT_REGULAR);
	CHECK_EQ(entries(), 1);
	clean();
}

UNIT_TEST(discard_leaves_nothing)
{
	static const int modes[] = { 0, OUTFILE_NAMED, OUTFILE_IN_PLACE };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct outfile *of = outfile_open(in_dir("out"), 0600, modes[i]);

		CHECK(of != NULL);
		if (of)
			outfile_discard(of);
		CHECK_EQ(entries(), 0);
	}
	/* The unnamed file has no name until it is complete. */
	{
		struct outfile *of = outfile_open(in_dir("out"), 0600, 0);

		CHECK_EQ(entries(), 0);
		if (of)
			outfile_discard(of);
	}
}

UNIT_TEST(infile_opens_regular_files_only)
{
	char *text = NULL;
	size_t len = 0;
	int fd;

	put("meta", "abi=1.0\n");
	CHECK(mkfifo(in_dir("fifo"), 0600) == 0);
	CHECK(symlink(in_dir("meta"), in_dir("link")) == 0);
	/* A FIFO nobody writes to: refused without blocking. */
	CHECK_EQ(infile_open(AT_FDCWD, in_dir("fifo"), 0), -ERROR_NOT_REGULAR);
	CHECK_EQ(infile_open(AT_FDCWD, in_dir("link"), INFILE_NOFOLLOW), -ERROR_NOT_REGULAR);
	CHECK_EQ(infile_open(AT_FDCWD, dir, 0), -ERROR_NOT_REGULAR);
	CHECK_EQ(infile_open(AT_FDCWD, "/proc/self/status", INFILE_DISK_ONLY),
		 -ERROR_NOT_REGULAR);
	CHECK_EQ(infile_open(AT_FDCWD, in_dir("none"), 0), -ENOENT);
	fd = infile_open(AT_FDCWD, in_dir("link"), 0);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_EQ(infile_read_all(fd, 8, &text, &len), 0);
		CHECK_STR(text, "abi=1.0\n");
		CHECK_EQ(len, 8);
		free(text);
		/* One byte over the limit is too large. */
		CHECK(lseek(fd, 0, SEEK_SET) == 0);
		CHECK_EQ(infile_read_all(fd, 7, &text, &len), -ERROR_TOO_LARGE);
		close(fd);
	}
	clean();
	rmdir(dir);
}

UNIT_MAIN()
