/* SPDX-License-Identifier: MIT */
/* The isolation's child processes and their fork server (run/zygote.h).
 *
 * A fork copies the page tables of every page the forking process holds,
 * and each side then faults in its own copy of every page it writes: from
 * a program of tens of megabytes (hundreds under a sanitizer), a child per
 * vector or combination costs more than the work it does. The server is
 * forked once, after the backend under test is opened and before the
 * program grows; it forks each child from itself, so each child starts
 * from the program as it was then, with the implementation's state right
 * after open, as a child forked from the program itself would.
 *
 * The program and the server talk over a socket pair: the program sends a
 * job (a function and its argument in the arena, both at the same address
 * in the server); the server forks the child, answers its pid, and then
 * how it ended. The server reaps a child only when the next job comes (or
 * the program goes), after the program has read its end, so that the pid
 * the program may kill is never another process's. */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "run/zygote.h"

#ifdef _WIN32

bool np_zygote_start(np_backend *b, np_backend *ref)
{
	(void)b;
	(void)ref;
	return false;
}

void np_zygote_stop(void)
{
}

#else

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <unistd.h>

/* Room for the largest job: explore's records on every target (under
 * 3 MB) or a vector's rows on every target; untouched pages cost nothing. */
#define ARENA_BYTES ((size_t)8 << 20)

typedef struct request {
	void (*job)(void *arg);
	void *arg;
} request;

typedef struct reply {
	int pid;       /* the child's, or -1 when it could not be forked */
	int signal;    /* in the second reply: how it ended */
	int status;
} reply;

static void *arena;
static struct {
	int pid;       /* 0: no server */
	int fd;        /* the program's end of the socket pair */
	const np_backend *b, *ref;
} server;

void *np_zygote_arena(size_t *bytes)
{
	*bytes = ARENA_BYTES;
	if (!arena) {
		void *m = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
		if (m == MAP_FAILED)
			return NULL;
		arena = m;
	}
	return arena;
}

static void *take(char **at, size_t *left, size_t n)
{
	size_t pad = (16 - (uintptr_t)*at % 16) % 16;
	if (pad > *left || n > *left - pad)
		return NULL;
	void *p = *at + pad;
	*at += pad + n;
	*left -= pad + n;
	return p;
}

np_vector *np_vector_copy_to(char **at, size_t *left, const np_vector *v)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pad = (page - (uintptr_t)*at % page) % page;
	if (pad > *left)
		return NULL;
	*at += pad;   /* a page of its own: np_arena_readonly_from */
	*left -= pad;
	np_vector *c = take(at, left, sizeof *c);
	np_step *steps = c ? take(at, left, v->nstep * sizeof *steps) : NULL;
	size_t name = v->file ? strlen(v->file) + 1 : 0;
	char *file = steps && name ? take(at, left, name) : NULL;
	if (!steps || (name && !file))
		return NULL;
	*c = *v;
	c->step = steps;
	c->file = file ? memcpy(file, v->file, name) : NULL;
	for (unsigned s = 0; s < v->nstep; s++) {
		steps[s] = v->step[s];
		if (!v->step[s].nexpect)
			continue;
		size_t size = v->step[s].nexpect * sizeof *v->step[s].expect;
		if (!(steps[s].expect = take(at, left, size)))
			return NULL;
		memcpy(steps[s].expect, v->step[s].expect, size);
	}
	return c;
}

void np_arena_readonly_from(const void *p)
{
	char *end = (char *)arena + ARENA_BYTES;
	if (arena && (const char *)p >= (char *)arena && (const char *)p < end)
		mprotect((void *)p, (size_t)(end - (const char *)p), PROT_READ);
}

static bool read_all(int fd, void *data, size_t n)
{
	for (char *p = data; n;) {
		ssize_t k = read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* On a socket: a peer gone is an error, not SIGPIPE. */
static bool send_all(int fd, const void *data, size_t n)
{
	for (const char *p = data; n;) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* What a child (and the server) does first: end with the process that
 * made it, even one stuck in the implementation; a fault ends it by its
 * signal, which the program names, not by a handler it inherited (a
 * sanitizer's, a test framework's); the program cleans up after SIGINT
 * and SIGTERM, a child only ends. */
static void become_child(pid_t maker)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	if (getppid() != maker)
		_exit(1);
	/* A crash is an outcome the program reports (signal and step), not a core
	 * file: where cores go to the working directory and their size is not
	 * limited (as Kyua sets it for its tests), a sweep would write one per
	 * crashing combination, each the size of the program. `ntprof call` (one
	 * child) leaves the setting as it is, to debug a crash. */
	struct rlimit core;
	if (getrlimit(RLIMIT_CORE, &core) == 0) {
		core.rlim_cur = 0;
		setrlimit(RLIMIT_CORE, &core);
	}
	static const int ends[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGINT, SIGTERM };
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
		signal(ends[i], SIG_DFL);
}

static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The server's child: job(arg), in a fresh fork. */
static _Noreturn void serve_one(int fd, const request *rq, pid_t self)
{
	close(fd);
	become_child(self);
	rq->job(rq->arg);
	_exit(0);
}

/* How pid ended, left unreaped (waitid WNOWAIT). */
static void ended(pid_t pid, reply *r)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	bool exited = si.si_code == CLD_EXITED;
	r->signal = exited ? 0 : si.si_status;
	r->status = exited ? si.si_status : 0;
}

static _Noreturn void serve(int fd, pid_t program)
{
	become_child(program);
	pid_t last = 0, self = getpid();
	request rq;
	while (read_all(fd, &rq, sizeof rq)) {
		if (last)
			reap(last);
		last = 0;
		pid_t pid = fork();
		if (pid == 0)
			serve_one(fd, &rq, self);
		reply r = { pid < 0 ? -1 : (int)pid, 0, 0 };
		if (!send_all(fd, &r, sizeof r))
			break;
		if (pid < 0)
			continue;
		ended(pid, &r);
		last = pid;
		if (!send_all(fd, &r, sizeof r))
			break;
	}
	if (last)
		reap(last);
	_exit(0);
}

bool np_zygote_start(np_backend *b, np_backend *ref)
{
	np_zygote_stop();
	int fds[2];
	size_t bytes;
	if (!np_zygote_arena(&bytes) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
		return false;
	fflush(NULL);   /* nothing buffered here is written twice by the server */
	pid_t program = getpid(), pid = fork();
	if (pid == 0) {
		close(fds[0]);
		serve(fds[1], program);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return false;
	}
	server.pid = (int)pid;
	server.fd = fds[0];
	server.b = b;
	server.ref = ref;
	return true;
}

void np_zygote_stop(void)
{
	if (!server.pid)
		return;
	close(server.fd);   /* the server reaps its last child and ends */
	reap(server.pid);
	server.pid = 0;
}

/* A child forked here, with a pipe whose end says it has ended. */
static bool fork_here(np_child *c, void (*job)(void *arg), void *arg)
{
	int fds[2];
	if (pipe(fds) != 0)
		return false;
	fflush(NULL);   /* nothing buffered here is written twice by the child */
	pid_t program = getpid(), pid = fork();
	if (pid == 0) {
		close(fds[0]);   /* fds[1] stays open until the child ends */
		become_child(program);
		job(arg);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return false;
	}
	*c = (np_child){ .pid = (int)pid, .fd = fds[0], .served = false };
	return true;
}

bool np_child_start(np_child *c, const np_backend *b, const np_backend *ref, void (*job)(void *arg),
		    void *arg)
{
	if (server.pid && server.b == b && server.ref == ref) {
		request rq = { job, arg };
		reply r;
		if (send_all(server.fd, &rq, sizeof rq) && read_all(server.fd, &r, sizeof r) && r.pid > 0) {
			*c = (np_child){ .pid = r.pid, .fd = server.fd, .served = true };
			return true;
		}
	}
	return fork_here(c, job, arg);
}

/* Waits at most ms (-1: for as long as it takes) for the child to end:
 * true, with *end, when it has. */
static bool child_wait(np_child *c, int ms, np_child_end *end)
{
	struct pollfd pfd = { c->fd, POLLIN, 0 };
	int ready = poll(&pfd, 1, ms);
	if (ready <= 0)
		return false;
	if (c->served) {
		reply r;
		if (!read_all(c->fd, &r, sizeof r)) {   /* the server is gone, and its child with it */
			np_zygote_stop();
			r = (reply){ c->pid, SIGKILL, 0 };
		}
		*end = (np_child_end){ r.signal, r.status };
		return true;
	}
	char byte;
	ssize_t k = read(c->fd, &byte, 1);
	if (k > 0 || (k < 0 && errno == EINTR))
		return false;   /* not its end: nothing is written down that pipe */
	int status = 0;
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(c->fd);
	*end = (np_child_end){ WIFSIGNALED(status) ? WTERMSIG(status) : 0,
			       WIFEXITED(status) ? WEXITSTATUS(status) : 0 };
	return true;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool np_child_watch(np_child *c, const volatile unsigned *seq, unsigned timeout_ms, np_child_end *end)
{
	unsigned seen = *seq;
	long long since = now_ms(), limit = timeout_ms;
	while (!child_wait(c, limit < 100 ? (int)limit : 100, end)) {
		if (*seq != seen) {
			seen = *seq;
			since = now_ms();
		} else if (now_ms() - since >= limit) {
			kill(c->pid, SIGKILL);
			while (!child_wait(c, -1, end))
				;
			return true;
		}
	}
	return false;
}

#endif
