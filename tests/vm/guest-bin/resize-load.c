// SPDX-License-Identifier: GPL-2.0
/*
 * resize-load PERIOD_MS CACHE...: the bench's resizes under live load
 * (tools/bench.sh's config "resize", issue 30).
 *
 * At start and every PERIOD_MS of guest time after, resize every CACHE through its
 * queue_sizes (the three sizes as one resize), alternating between the
 * sizes it had at start and double them: a grow, then a shrink, and so on.
 * Unlike resize-storm it writes only valid sizes and checks nothing: it
 * is the load a tuner would add, and what it costs is measured by the
 * workload running beside it.
 *
 * Until SIGTERM; then it puts every cache back to its sizes at start
 * (after the measured part, so not counted) and prints, per kind of resize
 * ("grow" for one that grows or keeps every size, "shrink" otherwise):
 *
 *   KIND RESIZES DRAINED CAPACITY
 *
 * DRAINED is the sum of the caches' resize_drained (queue_stats) over those
 * resizes, CAPACITY the sum of what the queues could hold right before each
 * (online cpus x queue + nodes x shared queue). The kernel shows no count of
 * the objects queued at a moment, so the capacity stands in for it: an
 * upper bound, and DRAINED / CAPACITY a lower bound of the share drained.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE 10000

struct sizes {
	long q, b, s;
};

struct cache {
	const char *name;
	struct sizes orig, big;
	long drained; /* resize_drained when last read */
};

struct tally {
	unsigned long resizes;
	long drained, capacity;
};

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* A sysfs file of CACHE into buf; false if it cannot be read. */
static int read_attr(const char *cache, const char *attr, char *buf, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s", cache, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return 1;
}

static long resize_drained(const char *cache)
{
	char buf[1024];
	const char *p;

	if (!read_attr(cache, "queue_stats", buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "resize_drained ");
	return p ? strtol(p + strlen("resize_drained "), NULL, 10) : -1;
}

/* One write(2) of "q b s" to CACHE's queue_sizes; 0 or the errno. */
static int write_sizes(const char *cache, struct sizes z)
{
	char path[256], line[64];
	int fd, e = 0;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/queue_sizes", cache);
	snprintf(line, sizeof(line), "%ld %ld %ld", z.q, z.b, z.s);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, line, strlen(line)) < 0)
		e = errno;
	close(fd);
	return e;
}

static long cap(long v)
{
	return v > MAX_SIZE ? MAX_SIZE : v;
}

static int nr_nodes(void)
{
	char path[64];
	int n = 0;

	while (n < 1024) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		if (access(path, F_OK) != 0)
			break;
		n++;
	}
	return n ? n : 1;
}

static void timespec_add_ms(struct timespec *t, long ms)
{
	t->tv_nsec += ms % 1000 * 1000000L;
	t->tv_sec += ms / 1000 + t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
}

int main(int argc, char **argv)
{
	struct tally grow = { 0 }, shrink = { 0 };
	struct sigaction sa = { .sa_handler = on_term };
	struct cache *c;
	struct timespec next;
	long period, cpus;
	int nc = argc - 2, nodes, big = 0;
	char buf[128];

	if (argc < 3 || (period = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: resize-load PERIOD_MS CACHE...\n");
		return 2;
	}
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	nodes = nr_nodes();
	c = calloc(nc, sizeof(*c));
	if (!c || cpus < 1) {
		fprintf(stderr, "resize-load: %s\n", c ? "no online cpus" : strerror(ENOMEM));
		return 2;
	}
	for (int i = 0; i < nc; i++) {
		struct sizes *o = &c[i].orig;

		c[i].name = argv[i + 2];
		if (!read_attr(c[i].name, "queue_sizes", buf, sizeof(buf)) ||
		    sscanf(buf, "%ld %ld %ld", &o->q, &o->b, &o->s) != 3 || o->q <= 0) {
			fprintf(stderr, "resize-load: %s: no queue_sizes, or its queues are off\n",
				c[i].name);
			free(c);
			return 2;
		}
		c[i].big = (struct sizes) { cap(2 * o->q), cap(2 * o->b), cap(2 * o->s) };
		c[i].drained = resize_drained(c[i].name);
		if (c[i].drained < 0) {
			fprintf(stderr, "resize-load: %s's queue_stats has no resize_drained\n", c[i].name);
			free(c);
			return 2;
		}
	}
	/* SIGTERM must cut the sleep short: the part it measures has ended. */
	sigaction(SIGTERM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &next);
	/*
	 * The first resize right away: a measured part shorter than the
	 * period (a quick run's) still sees one.
	 */
	for (;;) {
		big = !big;
		for (int i = 0; i < nc; i++) {
			struct sizes from = big ? c[i].orig : c[i].big, to = big ? c[i].big : c[i].orig;
			struct tally *t = to.q >= from.q && to.s >= from.s ? &grow : &shrink;
			long d;
			int e = write_sizes(c[i].name, to);

			if (e) {
				fprintf(stderr, "resize-load: %s: queue_sizes '%ld %ld %ld': %s\n", c[i].name,
					to.q, to.b, to.s, strerror(e));
				free(c);
				return 1;
			}
			d = resize_drained(c[i].name);
			t->resizes++;
			t->drained += d - c[i].drained;
			t->capacity += cpus * from.q + nodes * from.s;
			c[i].drained = d;
		}
		timespec_add_ms(&next, period);
		while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		if (stop)
			break;
	}
	/* Leave the caches as found, for the parts that run without resizes. */
	for (int i = 0; i < nc; i++) {
		int e = write_sizes(c[i].name, c[i].orig);

		if (e)
			fprintf(stderr, "resize-load: %s: could not restore its sizes: %s\n", c[i].name,
				strerror(e));
	}
	printf("grow %lu %ld %ld\nshrink %lu %ld %ld\n", grow.resizes, grow.drained, grow.capacity,
	       shrink.resizes, shrink.drained, shrink.capacity);
	free(c);
	return 0;
}
