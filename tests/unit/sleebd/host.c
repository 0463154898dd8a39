/* SPDX-License-Identifier: GPL-2.0-only */
/* Fake trees and child processes for the sleebd host tests (see host.h). */

#include <check.h>
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"
#include "sleeb/control.h"

const char *sleebd, *sleebctl;
const char *child_notify;
const char *child_watchdog_usec = "200000";
uid_t child_uid;
char root[64], logpath[128];

const struct fake_cache caches[3] = {
	{ "kmalloc-64", 64, 120, 60, 480, 0 },
	{ "dentry", 192, 120, 60, 480, 0 },
	{ "big-cache", 16384, 8, 4, 0, 0 },
};

void add_cache(const struct fake_cache *c, bool sleeb)
{
	char rel[256];

	test_fake_slab_dir(root, c->name, c->size, sleeb ? (const unsigned[3]) { c->q, c->b, c->s } : NULL);
	if (!sleeb)
		return;
	snprintf(rel, sizeof(rel), "sys/kernel/slab/%s/queue_stats", c->name);
	writef(rel, "alloc_refill 0\nfree_drain 0\n");
}

void write_slabinfo(const struct fake_cache *list, size_t n, bool sleeb)
{
	char buf[4096];
	size_t len = 0;

	len += (size_t) snprintf(buf + len, sizeof(buf) - len,
				 "slabinfo - version: 2.1\n# name            <active_objs> <num_objs> <objsize> "
				 "<objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
				 "slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	for (size_t i = 0; i < n; i++)
		len += (size_t) snprintf(buf + len, sizeof(buf) - len,
					 "%-17s %6u %6u %6u %4u %4d : tunables %4u %4u %4u : slabdata %6u %6u %6u\n",
					 list[i].name, list[i].active ? list[i].active : 100u, 128u, list[i].size, 16u, 1, sleeb ? list[i].q : 0,
					 sleeb ? list[i].b : 0, sleeb ? list[i].s : 0, 8u, 8u, 0u);
	/* At once, as the kernel's is read: a truncated file read half way
	 * through a rewrite is an empty slabinfo, a failed snapshot. */
	test_replace_at(root, "proc/slabinfo", buf);
}

void make_tree(bool sleeb)
{
	snprintf(root, sizeof(root), "/tmp/sleebd-host-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(logpath, sizeof(logpath), "%s/sleebd.log", root);
	for (size_t i = 0; i < 3; i++)
		add_cache(&caches[i], sleeb);
	write_slabinfo(caches, 3, sleeb);
	writef("proc/meminfo", "MemTotal:       16384000 kB\nMemFree:         8000000 kB\n");
	writef("etc/sleeb/sleebd.conf", "[Daemon]\nInterval=100ms\n");
}

void teardown(void)
{
	char cmd[128];

	if (!root[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
	root[0] = '\0';
}

int attr(const char *cache, const char *a)
{
	char path[512];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/kernel/slab/%s/%s", root, cache, a);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -2;
	fclose(f);
	return v;
}

bool file_contains(const char *path, const char *want)
{
	char buf[16384];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, want) != NULL;
}

pid_t spawn(const char *prog, ...)
{
	char *argv[16];
	va_list ap;
	int n = 0;
	pid_t pid;

	argv[n++] = (char *) prog;
	va_start(ap, prog);
	while (n < 15 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		test_child_setup(logpath);
		if (child_notify) {
			setenv("NOTIFY_SOCKET", child_notify, 1);
			setenv("WATCHDOG_USEC", child_watchdog_usec, 1);
		}
		if (child_uid != 0 && (setgroups(0, NULL) < 0 || setgid(child_uid) < 0 || setuid(child_uid) < 0))
			_exit(126);
		execv(prog, argv);
		_exit(127);
	}
	return pid;
}

bool wait_attr(const char *cache, const char *a, int want)
{
	for (int i = 0; i < 500; i++) {
		if (attr(cache, a) == want)
			return true;
		usleep(10000);
	}
	return false;
}

bool wait_tunables(const char *cache, int q, int b, int s)
{
	for (int i = 0; i < 500; i++) {
		if (attr(cache, "cpu_queue_size") == q && attr(cache, "cpu_batch_size") == b &&
		    attr(cache, "shared_queue_size") == s)
			return true;
		usleep(10000);
	}
	return false;
}

const char policy_kmalloc[] = "[Cache]\nMatch=kmalloc-*\nCpuQueueSize=256\nCpuBatchSize=64\nSharedQueueSize=512\n";

void control(const char *cmd, uid_t uid, char *out, size_t len)
{
	int p[2];
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char buf[8192];
		int fd;

		close(p[0]);
		/* A refused client may be closed before its command is sent:
		 * like sleebctl, go on to read the answer. */
		signal(SIGPIPE, SIG_IGN);
		if (uid != 0 && (setgroups(0, NULL) < 0 || setgid(uid) < 0 || setuid(uid) < 0))
			_exit(3);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s" SLEEB_CONTROL_SOCKET, root);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
			dprintf(p[1], "CONNECT-FAILED %s", strerror(errno));
			_exit(0);
		}
		dprintf(fd, "%s\n", cmd);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(p[1], buf, (size_t) n) < 0)
				break;
		_exit(0);
	}
	close(p[1]);
	while (got < len - 1 && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t) n;
	out[got] = '\0';
	close(p[0]);
	ck_assert_int_eq(test_wait_exit(pid), 0);
}

static void (*host_add_tests)(TCase *tc);

static void add_host_tests(TCase *tc)
{
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 90);
	host_add_tests(tc);
}

int host_main(int argc, char *argv[], const char *name, void (*add_tests)(TCase *tc))
{

	if (argc < 3) {
		fprintf(stderr, "usage: %s SLEEBD SLEEBCTL\n", argv[0]);
		return 77;
	}
	sleebd = argv[1];
	sleebctl = argv[2];
	if (geteuid() != 0) {
		fprintf(stderr, "needs root (the control socket is root only)\n");
		return 77;  /* skip */
	}

	host_add_tests = add_tests;
	return test_main(name, add_host_tests);
}

/*
 * A write to a cache's cpu_queue_size as the kernel shows it: in sysfs and
 * in /proc/slabinfo's limit column (sleebd reads sysfs each interval only
 * for caches whose slabinfo columns changed).
 */
void host_set_queue(const char *cache, unsigned q)
{
	char *text = test_slabinfo_with_queue(root, cache, q);
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/kernel/slab/%s/cpu_queue_size", cache);
	writef(rel, "%u\n", q);
	writef("proc/slabinfo", "%s", text);
	free(text);
}

void host_move_slabinfo(const char *cache, unsigned active)
{
	char *text = test_slabinfo_with_column(root, cache, 1, active);

	test_replace_at(root, "proc/slabinfo", text);
	free(text);
}

/* Churns kmalloc-64's counters (a trip per operation) until sleebd grows
 * its queue to 240, in one step when the policy's AutoTuneMax is 240. The
 * shared queue keeps its size, or becomes 240 (two new batches) if that
 * is more. */
void host_grow_kmalloc64(void)
{
	unsigned long long events = 0;
	int shared = attr("kmalloc-64", "shared_queue_size");
	char buf[128];

	if (shared < 240)
		shared = 240;

	for (int i = 0; i < 300 && attr("kmalloc-64", "cpu_queue_size") != 240; i++) {
		events += 200000;
		snprintf(buf, sizeof(buf), "alloc_refill %llu\nfree_drain %llu\nfastpath_ops %llu\n", events, events,
			 events);
		test_replace_at(root, "sys/kernel/slab/kmalloc-64/queue_stats", buf);
		host_move_slabinfo("kmalloc-64", 101 + (unsigned) i % 50);
		usleep(20000);
	}
	ck_assert_msg(wait_tunables("kmalloc-64", 240, 120, shared), "kmalloc-64 did not grow: %d/%d/%d",
		      attr("kmalloc-64", "cpu_queue_size"), attr("kmalloc-64", "cpu_batch_size"),
		      attr("kmalloc-64", "shared_queue_size"));
}

void host_stop(pid_t pid)
{
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
}
