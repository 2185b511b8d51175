/* block_fault_shim.c - LD_PRELOAD fault injection for tests/sh/block_*.sh. Built
 * by the test that needs it (cc -shared), never linked into probekit.
 *
 *   PK_SHIM_TOUCH=PATH  at the first fsync(), append a line to PATH: someone
 *                       else edits the file after probekit read it and
 *                       before it replaces it
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
#include <sys/types.h>
#include <unistd.h>

static int touched;

int fsync(int fd)
{
	static int (*real)(int);
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	const char *path = getenv("PK_SHIM_TOUCH");
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
