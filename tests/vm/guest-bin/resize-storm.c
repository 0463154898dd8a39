// SPDX-License-Identifier: GPL-2.0
/*
 * resize-storm STOPFILE CACHE...: the resize stress of the vm-stress suite.
 *
 * Until STOPFILE exists, write a random value about every millisecond to a
 * random tunable of a random CACHE: one of the three sysfs attributes, a
 * "queue batch shared" line to queue_sizes (all three as one resize) or a
 * "name limit batchcount sharedfactor" line to /proc/slabinfo (SLAB's
 * meaning: a shared queue of sharedfactor batches). Values are a mix of
 * valid sizes, boundaries and garbage. Runs while sleeb_stress allocates
 * and frees from those caches on every cpu and cpus go offline and back, so
 * every resize races with the fast paths and with hotplug.
 *
 * After every write it checks what a single writer must see:
 *   - an accepted write reads back as written (queue 0: all three 0; an
 *     empty write is a no-op: write(2) of 0 bytes never reaches sysfs);
 *   - a rejected write fails with EINVAL and changes nothing;
 *   - the triple is always coherent: queue 0 means batch and shared 0,
 *     otherwise 1 <= batch <= queue <= 10000 and shared is 0 or within
 *     [batch, 10000];
 *   - every 64 writes, /proc/slabinfo's tunables columns equal sysfs (the
 *     shared queue in batches, rounded up).
 * A cache that disappears (sleeb_stress destroys its own when it ends) is
 * left alone from then on. Prints TAP lines (one per check kind, plus up to 10 violations as
 * comments) and exits 0 when all held.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZE 10000

struct triple {
	long q, b, s;
};

static const char *const attrs[] = { "cpu_queue_size", "cpu_batch_size", "shared_queue_size" };
static unsigned long n_writes, n_ok, n_rejected, n_slabinfo_checks, n_violations;

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void violation(const char *fmt, ...)
{
	va_list ap;

	if (++n_violations > 10)
		return;
	printf("#   violation: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static long read_long(const char *path)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static struct triple read_triple(const char *cache)
{
	char path[256];
	long v[3];

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s", cache, attrs[i]);
		v[i] = read_long(path);
		/* Any attribute gone is the cache gone, even if an earlier
		 * one was still read: its directory may go between two. */
		if (v[i] < 0)
			return (struct triple) { -1, -1, -1 };
	}
	return (struct triple) { v[0], v[1], v[2] };
}

/* One write(2) of s; 0 or the errno. */
static int write_str(const char *path, const char *s)
{
	ssize_t n;
	int fd, e = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		e = errno;
	close(fd);
	return e;
}

static bool coherent(struct triple t)
{
	if (t.q == 0)
		return t.b == 0 && t.s == 0;
	return t.b >= 1 && t.b <= t.q && t.q <= MAX_SIZE && (t.s == 0 || (t.s >= t.b && t.s <= MAX_SIZE));
}

static bool equal(struct triple a, struct triple b)
{
	return a.q == b.q && a.b == b.b && a.s == b.s;
}

/* A value to write: mostly plausible sizes, some boundaries, some junk. */
static void random_value(char *buf, size_t len, long *num)
{
	static const char *const junk[] = { "abc", "-1", "", " ", "99999999999", "5 6", "0x10", "12abc", "+" };
	int r = rand() % 100;

	*num = -1;
	if (r < 70)
		*num = 1 + rand() % 600;
	else if (r < 80)
		*num = (long[]) { 0, 1, 2, MAX_SIZE, MAX_SIZE + 1 }[rand() % 5];
	else if (r < 90)
		*num = rand() % (MAX_SIZE + 2);
	if (*num >= 0)
		snprintf(buf, len, "%ld", *num);
	else
		snprintf(buf, len, "%s", junk[rand() % (sizeof(junk) / sizeof(junk[0]))]);
}

/* /proc/slabinfo's "limit batchcount sharedfactor" of one cache, or false. */
static bool slabinfo_triple(const char *cache, struct triple *t)
{
	char line[512], name[128];
	bool found = false;
	FILE *f;

	f = fopen("/proc/slabinfo", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		const char *p;

		if (sscanf(line, "%127s", name) != 1 || strcmp(name, cache) != 0)
			continue;
		p = strstr(line, ": tunables");
		if (p && sscanf(p, ": tunables %ld %ld %ld", &t->q, &t->b, &t->s) == 3)
			found = true;
		break;
	}
	fclose(f);
	return found;
}

/* What write @which went to, for the messages. */
static const char *target_name(int which)
{
	return which < 3 ? attrs[which] : which == 3 ? "/proc/slabinfo" : "queue_sizes";
}

static void one_write(const char *cache)
{
	struct triple before, after;
	char path[256], val[64], line[256];
	int which = rand() % 5, e;
	long num;

	before = read_triple(cache);
	if (before.q < 0)
		return; /* gone: sleeb_stress destroys its cache when it ends */
	if (which < 3) {
		random_value(val, sizeof(val), &num);
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s", cache, attrs[which]);
		e = write_str(path, val);
	} else if (which == 3) {
		long q = rand() % 600, b = 1 + rand() % 120, f = rand() % 3 ? rand() % 20 : 0;

		snprintf(line, sizeof(line), "%s %ld %ld %ld", cache, q, b, f);
		e = write_str("/proc/slabinfo", line);
		snprintf(val, sizeof(val), "%ld %ld %ld", q, b, f * b);
		num = q;
	} else {
		long q = rand() % 600, b = 1 + rand() % 120, s = rand() % 3 ? rand() % 1200 : 0;

		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/queue_sizes", cache);
		snprintf(val, sizeof(val), "%ld %ld %ld", q, b, s);
		e = write_str(path, val);
		num = q;
	}
	after = read_triple(cache);
	if (after.q < 0)
		return;
	n_writes++;

	if (!coherent(after))
		violation("%s: incoherent %ld/%ld/%ld after writing '%s' to %s", cache, after.q, after.b, after.s,
			  val, target_name(which));
	if (e == 0 && val[0] == '\0') {
		/* write(2) of 0 bytes never reaches the kernel's store. */
		if (!equal(before, after))
			violation("%s: empty write changed %ld/%ld/%ld -> %ld/%ld/%ld", cache, before.q, before.b,
				  before.s, after.q, after.b, after.s);
	} else if (e == 0) {
		n_ok++;
		if (which < 3) {
			long got = which == 0 ? after.q : which == 1 ? after.b : after.s;

			if (num < 0 || got != num)
				violation("%s/%s: accepted '%s' but reads %ld", cache, attrs[which], val, got);
		} else {
			struct triple want;

			sscanf(val, "%ld %ld %ld", &want.q, &want.b, &want.s);
			if (want.q == 0)
				want = (struct triple) { 0, 0, 0 };
			if (!equal(after, want))
				violation("%s: %s accepted '%s' but sysfs reads %ld/%ld/%ld", cache,
					  target_name(which), val, after.q, after.b, after.s);
		}
	} else if (e == EINVAL) {
		n_rejected++;
		if (!equal(before, after))
			violation("%s: rejected '%s' (%s) but changed %ld/%ld/%ld -> %ld/%ld/%ld", cache, val,
				  target_name(which), before.q, before.b, before.s, after.q,
				  after.b, after.s);
	} else {
		violation("%s: writing '%s' to %s failed with %s, not EINVAL", cache, val,
			  target_name(which), strerror(e));
	}

	if (n_writes % 64 == 0) {
		struct triple si;

		n_slabinfo_checks++;
		after = read_triple(cache);
		if (!slabinfo_triple(cache, &si))
			violation("%s: not found in /proc/slabinfo", cache);
		else if (si.q != after.q || si.b != after.b ||
			 si.s != (after.b ? (after.s + after.b - 1) / after.b : 0))
			violation("%s: /proc/slabinfo says %ld/%ld/%ld (sharedfactor), sysfs %ld/%ld/%ld",
				  cache, si.q, si.b, si.s, after.q, after.b, after.s);
	}
}

int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000 * 1000 };
	struct triple *orig;
	char line[256];
	int ncaches = argc - 2;

	if (argc < 3) {
		fprintf(stderr, "usage: resize-storm STOPFILE CACHE...\n");
		return 2;
	}
	srand((unsigned) time(NULL) ^ (unsigned) getpid());
	orig = calloc(ncaches, sizeof(*orig));
	if (!orig)
		return 2;
	for (int i = 0; i < ncaches; i++) {
		/* A cache's directory appears before its attributes: wait 5 s. */
		for (int tries = 0; tries < 50; tries++) {
			orig[i] = read_triple(argv[i + 2]);
			if (orig[i].q >= 0)
				break;
			nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
		}
		if (orig[i].q < 0) {
			printf("not ok - resize storm: cache %s has no tunables\n", argv[i + 2]);
			free(orig);
			return 1;
		}
	}

	while (access(argv[1], F_OK) != 0) {
		one_write(argv[2 + rand() % ncaches]);
		nanosleep(&ms, NULL);
	}

	/* Leave the caches as found, for whatever runs next: one resize. */
	for (int i = 0; i < ncaches; i++) {
		struct triple now = read_triple(argv[i + 2]);
		char path[256];
		int e;

		if (now.q < 0)
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/queue_sizes", argv[i + 2]);
		snprintf(line, sizeof(line), "%ld %ld %ld", orig[i].q, orig[i].b, orig[i].s);
		e = write_str(path, line);

		if (e != 0)
			violation("%s: could not restore %ld/%ld/%ld from %ld/%ld/%ld: %s", argv[i + 2], orig[i].q,
				  orig[i].b, orig[i].s, now.q, now.b, now.s, strerror(e));
	}
	printf("# resize storm: %lu writes on %d caches, %lu accepted, %lu rejected, %lu slabinfo comparisons\n",
	       n_writes, ncaches, n_ok, n_rejected, n_slabinfo_checks);
	printf("%s - resize storm: every accepted write read back, every rejected one EINVAL and without effect, "
	       "tunables always coherent, /proc/slabinfo = sysfs (%lu violations)\n",
	       n_violations ? "not ok" : "ok", n_violations);
	/*
	 * Progress, not speed: a resize runs work on every cpu, and the KASAN
	 * guest on a loaded 2-core host managed 88 writes in 300 s. What must
	 * not happen is a storm that stalls or never meets one of the outcomes.
	 */
	printf("%s - resize storm made progress (%lu writes, both accepted and rejected)\n",
	       n_writes >= 20 && n_ok > 0 && n_rejected > 0 ? "ok" : "not ok", n_writes);
	free(orig);
	return n_violations ? 1 : 0;
}
