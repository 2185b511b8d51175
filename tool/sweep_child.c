/* sweep_child.c - run one command for probe-sweep: in its own process
 * group (a Ctrl-C reaches probe-sweep, which forwards it, restores the
 * sources and only then exits), with signals caught and forwarded. */
#include "pk.h"
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a command may take to end after a forwarded signal before its
 * process group is killed; and after the SIGTERM of its time limit. */
#define GRACE_MS   10000
#define TIMEOUT_MS 2000

static volatile sig_atomic_t caught;  /* first signal */
static volatile sig_atomic_t ncaught; /* how many */
static volatile pid_t child_pgid;     /* running command's group, or 0 */

static void on_signal(int sig)
{
	int saved = errno;
	if (!caught)
		caught = sig;
	ncaught++;
	pid_t g = child_pgid;
	if (g > 0)
		kill(-g, ncaught > 1 ? SIGKILL : sig);
	errno = saved;
}

void sw_signals_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* nohup: stay deaf to hangups */
		sigaction(sigs[i], &sa, NULL);
	}
}

int sw_caught(void)
{
	return caught;
}

static void child_exec(char *const argv[], char *const env[], int out_fd, int err_fd, const sigset_t *mask)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	setpgid(0, 0);
	sigprocmask(SIG_SETMASK, mask, NULL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0 && null != STDIN_FILENO) {
		dup2(null, STDIN_FILENO);
		close(null);
	}
	if (out_fd >= 0)
		dup2(out_fd, STDOUT_FILENO);
	if (err_fd >= 0)
		dup2(err_fd, STDERR_FILENO);
	for (size_t i = 0; env && env[i]; i++)
		putenv(env[i]);
	execv(argv[0], argv);
	pk_error("cannot run %s: %s", argv[0], strerror(errno));
	_exit(127);
}

static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Wait for PID; once a signal was caught and forwarded, give it GRACE_MS.
 * At LIMIT (a now_ms() time; 0: none) its process group gets SIGTERM, and
 * SIGKILL TIMEOUT_MS later; *TIMED_OUT says so. */
static int wait_child(pid_t pid, long limit, int *timed_out)
{
	long deadline = 0;
	int st = 0;
	for (;;) {
		if (limit && !*timed_out && now_ms() >= limit) {
			*timed_out = 1;
			kill(-pid, SIGTERM);
			kill(-pid, SIGCONT); /* a stopped command hears it too */
			if (!deadline)
				deadline = now_ms() + TIMEOUT_MS;
		}
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			pk_error("waitpid: %s", strerror(errno));
			return 127;
		}
		if (caught && !deadline)
			deadline = now_ms() + GRACE_MS;
		if (deadline && now_ms() > deadline) {
			kill(-pid, SIGKILL);
			deadline = now_ms() + 1000000;
		}
		struct timespec nap = {0, 5 * 1000000};
		nanosleep(&nap, NULL);
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 127;
}

int sw_spawn(char *const argv[], char *const env[], int out_fd, int err_fd, long timeout_ms, int *status)
{
	long limit = timeout_ms > 0 ? now_ms() + timeout_ms : 0;
	int timed_out = 0;
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		return pk_error("cannot start %s: %s", argv[0], strerror(e));
	}
	if (pid == 0)
		child_exec(argv, env, out_fd, err_fd, &old);
	setpgid(pid, pid); /* as the child does: whichever runs first */
	child_pgid = pid;
	if (caught) /* caught before the fork: the command must not run on */
		kill(-pid, SIGTERM);
	sigprocmask(SIG_SETMASK, &old, NULL); /* a signal pending meanwhile is forwarded now */
	*status = wait_child(pid, limit, &timed_out);
	if (timed_out)
		kill(-pid, SIGKILL); /* what of its group outlived its leader */
	child_pgid = 0;
	return timed_out;
}
