// SPDX-License-Identifier: GPL-2.0
/*
 * workload: slab-heavy workloads people run, for the benchmark guest.
 *
 *   workload [--unmeasured] files|fork|tcp THREADS ITERATIONS
 *
 * files  each thread creates, stats, renames and unlinks files, every
 *        other one in its own directory and the rest in one shared by all
 *        (dentries, inodes, struct file)
 * fork   each thread forks children that map, touch and unmap 16 pages
 *        and exit (task_struct, mm, vm_area_struct, maple nodes, anon_vma)
 * tcp    THREADS/2 pairs of threads over loopback TCP, request/response
 *        of 64 bytes; pair i runs on cpus i and i + ncpus/2, which the
 *        guest puts on different nodes (skbuffs freed on another cpu than
 *        the one that allocated them)
 *
 * Each thread does ITERATIONS operations; the run is bracketed by a model
 * clock window (model-clock/model-clock-marker.h, id 0xf00 + mode), a NOP
 * without the plugin; --unmeasured leaves the window out (the bench's
 * learning run, whose cycles must not add to the measured run's: the
 * plugin sums a window's closes). Prints "ops N seconds S" on success
 * (CLOCK_MONOTONIC: under -icount, instructions), or "workload: what
 * failed: why" on stderr and exits 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../../model-clock/model-clock-marker.h"

#define WORK_DIR "/tmp/workload"
#define FORK_PAGES 16
#define TCP_MSG 64
#define TCP_PORT 47000

static unsigned long iterations;
static int ncpus;
static pthread_barrier_t start;

static void die(const char *what)
{
	fprintf(stderr, "workload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % ncpus, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void *files_thread(void *arg)
{
	long id = (long)arg;
	char own[64], a[96], b[96];
	struct stat st;
	unsigned long i;
	int fd;

	snprintf(own, sizeof(own), WORK_DIR "/t%ld", id);
	if (mkdir(own, 0755) && errno != EEXIST)
		die("mkdir");
	pthread_barrier_wait(&start);
	for (i = 0; i < iterations; i++) {
		const char *dir = i % 2 ? WORK_DIR "/shared" : own;

		snprintf(a, sizeof(a), "%s/f%ld-%lu", dir, id, i);
		snprintf(b, sizeof(b), "%s/g%ld-%lu", dir, id, i);
		fd = open(a, O_CREAT | O_WRONLY | O_EXCL, 0644);
		if (fd < 0)
			die("open");
		if (write(fd, a, 64) != 64)
			die("write");
		close(fd);
		if (stat(a, &st))
			die("stat");
		if (rename(a, b))
			die("rename");
		if (unlink(b))
			die("unlink");
	}
	return NULL;
}

static void *fork_thread(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long i;
	int status;
	pid_t pid;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < iterations; i++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			char *m = mmap(NULL, FORK_PAGES * page, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (m == MAP_FAILED)
				_exit(2);
			for (int p = 0; p < FORK_PAGES; p++)
				m[p * page] = (char)p;
			munmap(m, FORK_PAGES * page);
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			die("child");
	}
	return NULL;
}

static void full(int fd, char *buf, int write_it)
{
	ssize_t done = 0, n;

	while (done < TCP_MSG) {
		n = write_it ? write(fd, buf + done, TCP_MSG - done) :
			       read(fd, buf + done, TCP_MSG - done);
		if (n <= 0)
			die(write_it ? "tcp write" : "tcp read");
		done += n;
	}
}

static void *tcp_server(void *arg)
{
	long pair = (long)arg;
	int fd = (int)(pair >> 16), c, one = 1;
	char buf[TCP_MSG];
	unsigned long i;

	pin((int)(pair & 0xffff) + ncpus / 2);
	c = accept(fd, NULL, NULL);
	if (c < 0)
		die("accept");
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < iterations; i++) {
		full(c, buf, 0);
		full(c, buf, 1);
	}
	close(c);
	return NULL;
}

static void *tcp_client(void *arg)
{
	long pair = (long)arg;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	char buf[TCP_MSG] = "request";
	unsigned long i;
	int fd, one = 1;

	pin((int)pair);
	sa.sin_port = htons(TCP_PORT + pair);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	pthread_barrier_wait(&start);
	for (i = 0; i < iterations; i++) {
		full(fd, buf, 1);
		full(fd, buf, 0);
	}
	close(fd);
	return NULL;
}

static int tcp_listener(long pair)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	sa.sin_port = htons(TCP_PORT + pair);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
		die("bind/listen");
	return fd;
}

/* The window of workload @mode: ids are compile-time constants. */
#define WINDOW(mode, op)					\
	do {							\
		if ((mode) == 0)				\
			MODEL_CLOCK_##op(0xf00);		\
		else if ((mode) == 1)				\
			MODEL_CLOCK_##op(0xf01);		\
		else						\
			MODEL_CLOCK_##op(0xf02);		\
	} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	pthread_t t[128];
	int nthreads, n = 0, mode, i, measured = 1;
	double t0, t1;

	if (argc > 1 && !strcmp(argv[1], "--unmeasured")) {
		measured = 0;
		argv++;
		argc--;
	}
	if (argc != 4 || (nthreads = atoi(argv[2])) < 1 || nthreads > 64 ||
	    (iterations = strtoul(argv[3], NULL, 10)) == 0) {
		fprintf(stderr, "usage: workload [--unmeasured] files|fork|tcp THREADS(1-64) ITERATIONS\n");
		return 2;
	}
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (!strcmp(argv[1], "files"))
		mode = 0;
	else if (!strcmp(argv[1], "fork"))
		mode = 1;
	else if (!strcmp(argv[1], "tcp"))
		mode = 2;
	else {
		fprintf(stderr, "workload: unknown workload '%s' (files, fork, tcp)\n", argv[1]);
		return 2;
	}
	if (mode == 2 && (nthreads < 2 || ncpus < 2)) {
		fprintf(stderr, "workload: tcp needs 2 threads and 2 cpus or more\n");
		return 2;
	}
	if (mode == 0 && ((mkdir(WORK_DIR, 0755) && errno != EEXIST) ||
			  (mkdir(WORK_DIR "/shared", 0755) && errno != EEXIST)))
		die("mkdir " WORK_DIR);
	/* The measuring thread waits at the barrier too. */
	pthread_barrier_init(&start, NULL, (mode == 2 ? nthreads / 2 : nthreads) + 1);
	for (i = 0; i < (mode == 2 ? nthreads / 2 : nthreads); i++) {
		if (mode == 0)
			pthread_create(&t[n++], NULL, files_thread, (void *)(long)i);
		else if (mode == 1)
			pthread_create(&t[n++], NULL, fork_thread, NULL);
		else {
			long fd = tcp_listener(i);

			pthread_create(&t[n++], NULL, tcp_server, (void *)((fd << 16) | i));
			pthread_create(&t[n++], NULL, tcp_client, (void *)(long)i);
		}
	}
	pthread_barrier_wait(&start);
	t0 = now();
	if (measured)
		WINDOW(mode, START);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (measured)
		WINDOW(mode, END);
	t1 = now();
	printf("ops %lu seconds %.6f\n",
	       iterations * (unsigned long)(mode == 2 ? nthreads / 2 : nthreads), t1 - t0);
	return 0;
}
