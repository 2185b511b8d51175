/* block_fault_shim.c - LD_PRELOAD fault injection for tests/sh/block_*.sh. Built
 * by the test that needs it (cc -shared), never linked into probekit.
 *
 *   PK_SHIM_TOUCH=PATH  at the first fsync(), append a line to PATH: someone
 *                       else edits the file after probekit read it and
 *                       before it replaces it
 *   PK_SHIM_SAMESIZE=PATH  at the first fsync(), change PATH's first byte in
 *                       place (same size) and set its mtime back: an edit
 *                       that size and mtime alone do not show
 *   PK_SHIM_SIGNAL=N    at the first fsync(), raise signal N: the user
 *                       presses ^C (or the job is stopped) mid-write
 *   PK_SHIM_ENOSPC=1    write() to a probekit temporary file (.probekit.*)
 *                       fails with ENOSPC after its first 4 KiB: a disk
 *                       that fills up in the middle of the write
 *
 * The probekit binary is not changed: the faults come from the C library
 * calls it makes, as they would on a real machine. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int touched;

/* Overwrite PATH's first byte with another one, then give PATH back the
 * mtime it had: same size, same mtime, other content. */
static void same_size_edit(const char *path)
{
	struct stat st;
	int t = open(path, O_RDWR);
	if (t < 0 || fstat(t, &st) < 0) {
		perror("block_fault_shim: same-size edit");
		return;
	}
	char c;
	if (pread(t, &c, 1, 0) == 1) {
		c = c == '#' ? '/' : '#';
		if (pwrite(t, &c, 1, 0) != 1)
			perror("block_fault_shim: same-size edit");
	}
	struct timespec times[2] = {st.st_atim, st.st_mtim};
	if (futimens(t, times) < 0)
		perror("block_fault_shim: futimens");
	close(t);
}

int fsync(int fd)
{
	static int (*real)(int);
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	const char *path = getenv("PK_SHIM_TOUCH");
	const char *same = getenv("PK_SHIM_SAMESIZE"), *sig = getenv("PK_SHIM_SIGNAL");
	if (same && !touched) {
		touched = 1;
		same_size_edit(same);
	}
	if (sig && !touched) {
		touched = 1;
		raise(atoi(sig));
	}
	if (path && !touched) {
		touched = 1;
		int t = open(path, O_WRONLY | O_APPEND);
		if (t >= 0) {
			static const char line[] = "// edited by someone else meanwhile\n";
			if (write(t, line, sizeof(line) - 1) < 0)
				perror("block_fault_shim: append");
			close(t);
		}
	}
	return real(fd);
}

static int is_probekit_temp(int fd)
{
	char link[64], target[4096];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	return base && !strncmp(base + 1, ".probekit.", 10);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	static size_t written;
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd > 2 && getenv("PK_SHIM_ENOSPC") && is_probekit_temp(fd)) {
		if (written >= 4096) {
			errno = ENOSPC;
			return -1;
		}
		size_t room = 4096 - written;
		if (count > room)
			count = room;
		written += count;
	}
	return real(fd, buf, count);
}
