/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the sleebd and sleebctl binaries against fake trees
 * (host.h): --once, --dry-run, policies, the daemon's life cycle.
 *
 * Usage: test-sleebd-host SLEEBD SLEEBCTL
 */

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"

START_TEST(test_once_writes)
{
	char state[256];

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	writef("usr/lib/sleeb/policy.d/60-large.conf",
	       "[Cache]\nMatch=*\nMinObjectSize=8K\nCpuQueueSize=default\nSharedQueueSize=0\n");
	ck_assert_int_eq(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--once", NULL)), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_batch_size"), 64);
	ck_assert_int_eq(attr("kmalloc-64", "shared_queue_size"), 512);
	ck_assert_int_eq(attr("dentry", "cpu_queue_size"), 120);
	ck_assert_int_eq(attr("big-cache", "cpu_queue_size"), 8);
	ck_assert_int_eq(attr("big-cache", "shared_queue_size"), 0);
	snprintf(state, sizeof(state), "%s/run/sleeb/state", root);
	ck_assert(file_contains(state, "kmalloc-64 120 60 480"));
	ck_assert(file_contains(logpath, "kmalloc-64: queue/batch/shared 120/60/480 -> 256/64/512"));
	ck_assert(file_contains(logpath, "10-kmalloc.conf:3"));
}
END_TEST

START_TEST(test_dry_run_writes_nothing)
{
	char state[256];

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	ck_assert_int_eq(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--once", "--dry-run", NULL)),
			 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 120);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_batch_size"), 60);
	ck_assert_int_eq(attr("kmalloc-64", "shared_queue_size"), 480);
	snprintf(state, sizeof(state), "%s/run/sleeb/state", root);
	ck_assert_int_eq(access(state, F_OK), -1);
	ck_assert(file_contains(logpath, "dry run: kmalloc-64: queue/batch/shared 120/60/480 -> 256/64/512"));
}
END_TEST

START_TEST(test_bad_policy_fails)
{
	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	writef("etc/sleeb/policy.d/99-bad.conf", "[Cache]\nMatch=dentry\nCpuQueueSize=10\nCpuBatchSize=20\n");
	ck_assert_int_ne(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--once", NULL)), 0);
	ck_assert(file_contains(logpath, "99-bad.conf:4: CpuBatchSize=20 is larger than CpuQueueSize=10"));
	/* nothing applied, not even the good file */
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 120);

	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "policy", "verify", "--config-root", root, NULL)), 1);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "policy", "verify", "--config-root", root, NULL)), 1);
}
END_TEST

START_TEST(test_verify_files)
{
	char good[256], bad[256];

	make_tree(true);
	writef("a/good.conf", "%s", policy_kmalloc);
	writef("a/bad.conf", "[Cache]\nMatch=x\nAutoTuneMin=50\nAutoTuneMax=10\n");
	snprintf(good, sizeof(good), "%s/a/good.conf", root);
	snprintf(bad, sizeof(bad), "%s/a/bad.conf", root);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "policy", "verify", good, NULL)), 0);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "policy", "verify", good, bad, NULL)), 1);
	ck_assert(file_contains(logpath, "bad.conf:3: AutoTuneMin=50 is above AutoTuneMax=10 (line 4)"));

	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "--root", root, "policy", "show", "--config-root", root, NULL)), 0);

	/* sleebd.conf and its drop-ins are checked as daemon configuration */
	writef("b/sleebd.conf.d/10-x.conf", "[Daemon]\nInterval=1s\n");
	writef("b/sleebd.conf", "[Daemon]\nRollback=maybe\n");
	snprintf(good, sizeof(good), "%s/b/sleebd.conf.d/10-x.conf", root);
	snprintf(bad, sizeof(bad), "%s/b/sleebd.conf", root);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "policy", "verify", good, NULL)), 0);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "policy", "verify", bad, NULL)), 1);
	ck_assert(file_contains(logpath, "sleebd.conf:2: Rollback=maybe: not a boolean"));
}
END_TEST

START_TEST(test_policy_show)
{
	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "--root", root, "policy", "show", "--config-root", root, NULL)), 0);
	ck_assert(file_contains(logpath, "CpuBatchSize=64"));
	ck_assert(file_contains(logpath, "10-kmalloc.conf:4"));
	ck_assert(file_contains(logpath, "effective: queue 256 batch 64 shared 512 (now 120/60/480)"));
}
END_TEST

START_TEST(test_monitor_only)
{
	make_tree(false);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	ck_assert_int_eq(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--once", NULL)), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), -1);
	ck_assert(file_contains(logpath, "monitor-only"));
}
END_TEST

START_TEST(test_daemon_lifecycle)
{
	char answer[8192] = "", state[256];
	struct fake_cache newc = { "kmalloc-512", 512, 54, 27, 216, 0 };
	struct fake_cache all[4] = { caches[0], caches[1], caches[2], newc };
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert(wait_attr("kmalloc-64", "cpu_queue_size", 256));

	/* control socket: root gets a status, anybody else is refused */
	for (int i = 0; i < 100 && answer[0] != 'O'; i++) {
		control("STATUS", 0, answer, sizeof(answer));
		usleep(10000);
	}
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "%s", answer);
	ck_assert(strstr(answer, "10-kmalloc.conf"));
	ck_assert(strstr(answer, "kmalloc-64"));
	ck_assert(strstr(answer, "256/64/512"));
	control("STATUS", 65534, answer, sizeof(answer));
	ck_assert_msg(strncmp(answer, "OK", 2) != 0, "non-root got: %s", answer);
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "status", "--config-root", root, NULL)), 0);
	ck_assert(file_contains(logpath, "LAST DECISION"));

	/* a new cache is found by the rescan (no uevents in a fake tree) */
	add_cache(&newc, true);
	write_slabinfo(all, 4, true);
	ck_assert_msg(wait_tunables("kmalloc-512", 256, 64, 512), "kmalloc-512 is %d/%d/%d",
		      attr("kmalloc-512", "cpu_queue_size"), attr("kmalloc-512", "cpu_batch_size"),
		      attr("kmalloc-512", "shared_queue_size"));

	/* a broken policy on SIGHUP is refused; the old one stays */
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "[Cache]\nMatch=kmalloc-*\nCpuQueueSize=lots\n");
	kill(pid, SIGHUP);
	for (int i = 0; i < 500 && !file_contains(logpath, "reload refused"); i++)
		usleep(10000);
	ck_assert(file_contains(logpath, "10-kmalloc.conf:3: CpuQueueSize=lots"));
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);
	control("STATUS", 0, answer, sizeof(answer));
	ck_assert_msg(strstr(answer, "refused"), "%s", answer);
	control("RELOAD", 0, answer, sizeof(answer));
	ck_assert_msg(strncmp(answer, "ERROR", 5) == 0 && strstr(answer, "10-kmalloc.conf:3:"), "%s", answer);

	/* a good reload applies; a cache no longer matched is restored */
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "reload", "--config-root", root, NULL)), 1);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "[Cache]\nMatch=kmalloc-64\nCpuQueueSize=200\n");
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "reload", "--config-root", root, NULL)), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 200);
	/* unset keys come from the original, not from the old policy */
	ck_assert_int_eq(attr("kmalloc-64", "cpu_batch_size"), 60);
	ck_assert_int_eq(attr("kmalloc-512", "cpu_queue_size"), 54);

	/* SIGTERM restores every original and removes the state */
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 120);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_batch_size"), 60);
	ck_assert_int_eq(attr("kmalloc-64", "shared_queue_size"), 480);
	snprintf(state, sizeof(state), "%s/run/sleeb/state", root);
	ck_assert_int_eq(access(state, F_OK), -1);
}
END_TEST

START_TEST(test_sigkill_then_restart)
{
	char sock[256];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	/* not halfway through the writes: a killed write leaves a plain
	 * file empty, which sysfs never shows */
	ck_assert(wait_tunables("kmalloc-64", 256, 64, 512));
	kill(pid, SIGKILL);
	ck_assert_int_eq(test_wait_exit(pid), 128 + SIGKILL);

	/* the next start sees 256 in sysfs but must restore 120; the socket
	 * is bound after the signal handlers are in place */
	snprintf(sock, sizeof(sock), "%s/run/sleeb/sleebd.sock", root);
	ck_assert_int_eq(unlink(sock), 0);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	for (int i = 0; i < 500 && access(sock, F_OK) < 0; i++)
		usleep(10000);
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 120);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_batch_size"), 60);
	ck_assert_int_eq(attr("kmalloc-64", "shared_queue_size"), 480);
}
END_TEST

START_TEST(test_rollback_no)
{
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/sleebd.conf.d/50-keep.conf", "[Daemon]\nRollback=no\n");
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert(wait_attr("kmalloc-64", "cpu_queue_size", 256));
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);
}
END_TEST

/* Replaces a file atomically, as sysfs would show a new value. */
#define replace(rel, text) test_replace_at(root, rel, text)

/*
 * A busy cache grows in one step, from the trips per operation of one
 * interval, to what its load asks for (here AutoTuneMax); and a cache
 * that goes quiet is not shrunk.
 */
START_TEST(test_autotune_one_step_no_quiet_shrink)
{
	char prom[256], buf[160];
	unsigned long long events = 0;
	bool grown = false;
	pid_t pid;

	make_tree(true);
	snprintf(prom, sizeof(prom), "%s/prom/sleeb.prom", root);
	writef("prom/.keep", "\n");
	writef("etc/sleeb/sleebd.conf", "[Daemon]\nInterval=100ms\nPrometheusTextfile=%s\n", prom);
	writef("etc/sleeb/policy.d/10-auto.conf", "[Cache]\nMatch=kmalloc-64\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=960\n");
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);

	/* churn: millions of trips per second, one per ten operations */
	for (int i = 0; i < 300 && !grown; i++) {
		events += 200000;
		snprintf(buf, sizeof(buf), "alloc_refill %llu\nfree_drain %llu\nfastpath_ops %llu\n", events, events,
			 events * 10);
		replace("sys/kernel/slab/kmalloc-64/queue_stats", buf);
		usleep(20000);
		grown = attr("kmalloc-64", "cpu_queue_size") != 120;
	}
	ck_assert_msg(grown, "queue is %d", attr("kmalloc-64", "cpu_queue_size"));
	ck_assert_msg(wait_tunables("kmalloc-64", 960, 480, 960), "kmalloc-64 grew to %d/%d/%d, not at once to 960/480/960",
		      attr("kmalloc-64", "cpu_queue_size"), attr("kmalloc-64", "cpu_batch_size"),
		      attr("kmalloc-64", "shared_queue_size"));

	/* idle: counters stand still for 10 intervals, the queue stays */
	usleep(1000000);
	ck_assert_msg(attr("kmalloc-64", "cpu_queue_size") == 960, "a quiet kmalloc-64 shrank to %d",
		      attr("kmalloc-64", "cpu_queue_size"));
	ck_assert(file_contains(prom, "sleeb_cpu_queue_size{cache=\"kmalloc-64\"} 960"));
	ck_assert(file_contains(prom, "sleeb_decisions_total{reason=\"autotune-grow\"} 1\n"));
	ck_assert(file_contains(prom, "sleeb_decisions_total{reason=\"autotune-shrink\"} 0\n"));
	ck_assert(file_contains(logpath, "trips per 1000 operations"));

	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 120);
}
END_TEST

static uint64_t mono_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

/*
 * Serves kmalloc-64/queue_stats through a FIFO until killed: each time
 * sleebd opens it, the 4th time only after 400 ms, then writes
 * alloc_refill and fastpath_ops = the CLOCK_MONOTONIC microsecond it is
 * written at (the kernel's counters tick at a steady 1,000,000 a second,
 * whenever they are read) after moving its slabinfo line, and appends
 * "open_usec written_usec" to @times. It then waits 120 ms before
 * serving again, so each read sees one serve.
 */
static pid_t serve_queue_stats(const char *fifo, const char *times)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid > 0)
		return pid;
	for (int k = 0;; k++) {
		int fd = open(fifo, O_WRONLY);
		uint64_t opened = mono_usec(), now;
		FILE *t;

		if (fd < 0)
			_exit(1);
		if (k == 3)
			usleep(400000);
		/* Counters that moved have moved the slabinfo line, as a
		 * kernel's trips do, before they are read. */
		host_move_slabinfo("kmalloc-64", 101 + (unsigned) k % 50);
		now = mono_usec();
		dprintf(fd, "alloc_refill %llu\nfree_drain 0\nfastpath_ops %llu\n", (unsigned long long) now,
			(unsigned long long) now);
		close(fd);
		t = fopen(times, "a");
		if (!t)
			_exit(2);
		fprintf(t, "%llu %llu\n", (unsigned long long) opened, (unsigned long long) now);
		fclose(t);
		/* A FIFO's next writer may open while the reader is still
		 * open: give it time to see the end and close first. */
		usleep(120000);
	}
}

/* Replaces kmalloc-64/queue_stats with a FIFO served by
 * serve_queue_stats(); the serves are logged in <root>/serves. */
static pid_t start_feeder(void)
{
	char fifo[256], times[256];

	snprintf(fifo, sizeof(fifo), "%s/sys/kernel/slab/kmalloc-64/queue_stats", root);
	snprintf(times, sizeof(times), "%s/serves", root);
	ck_assert_int_eq(unlink(fifo), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* sleebd-test takes the FIFO for the slow queue_stats it stands
	 * in for; sleebd refuses anything but a regular file. */
	setenv("SLEEB_TEST_ALLOW_FIFOS", "1", 1);
	return serve_queue_stats(fifo, times);
}

/* Stops sleebd (it must exit 0) and the feeder; the serves' open and
 * write times into @opened and @written (at most @max). Returns how many. */
static int stop_and_read_serves(pid_t pid, pid_t feeder, unsigned long long *opened,
				unsigned long long *written, int max)
{
	char times[256], line[128];
	int n = 0;
	FILE *t;

	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	kill(feeder, SIGKILL);
	test_wait_exit(feeder);
	snprintf(times, sizeof(times), "%s/serves", root);
	t = fopen(times, "r");
	ck_assert_ptr_nonnull(t);
	while (n < max && fgets(line, sizeof(line), t) && sscanf(line, "%llu %llu", &opened[n], &written[n]) == 2)
		n++;
	fclose(t);
	return n;
}

/*
 * Rates are events over the time between the reads, and one interval
 * reads the kernel once. A read that comes late (a slow sysfs, a loaded
 * machine) must not change the rate; the timer's scheduled time would.
 */
START_TEST(test_autotune_rate_from_read_time)
{
	unsigned long long opened[64], written[64];
	char *log;
	const char *at;
	double rate, want;
	pid_t pid, feeder;
	int n;

	make_tree(true);
	/* Only the newest interval counts, so the logged rate is its own. */
	writef("etc/sleeb/sleebd.conf", "[Daemon]\nInterval=200ms\nAutoTuneSmoothing=100\n");
	writef("etc/sleeb/policy.d/10-auto.conf", "[Cache]\nMatch=kmalloc-64\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=240\n");
	feeder = start_feeder();
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert_msg(wait_attr("kmalloc-64", "cpu_queue_size", 240), "never grew: queue %d",
		      attr("kmalloc-64", "cpu_queue_size"));
	usleep(700000);
	n = stop_and_read_serves(pid, feeder, opened, written, 64);
	ck_assert_int_ge(n, 5);
	/* One read per interval: reads start at least 200 ms apart (an
	 * interval is timed from the start of the last), never two in one
	 * interval, which here would wait only for the 120 ms pause. */
	for (int k = 1; k < n; k++)
		ck_assert_msg(opened[k] - opened[k - 1] >= 160000,
			      "queue_stats read twice within %llu us (reads %d and %d): more than one snapshot per interval",
			      opened[k] - opened[k - 1], k - 1, k);
	/* The first rate (the one that grew the queue), as logged: trips
	 * per second of the whole cache. */
	log = test_read_file(logpath);
	ck_assert_ptr_nonnull(log);
	at = strstr(log, "/s, ");
	ck_assert_msg(at, "no grow in the log:\n%s", log);
	while (at > log && at[-1] >= '0' && at[-1] <= '9')
		at--;
	rate = strtod(at, NULL);
	want = 1e6;
	ck_assert_msg(rate > want * 0.9 && rate < want * 1.1,
		      "rate %.0f trips/s, the counters moved at %.0f/s", rate, want);
	free(log);
}
END_TEST

/* Watches a cache's sysfs directory for files opened (inotify IN_OPEN). */
static int watch_opens(int in, const char *cache)
{
	char dir[256];
	int wd;

	snprintf(dir, sizeof(dir), "%s/sys/kernel/slab/%s", root, cache);
	wd = inotify_add_watch(in, dir, IN_OPEN);
	ck_assert_int_ge(wd, 0);
	return wd;
}

/* The opens seen since the last call, per watch (@wds[i] into @n[i]); the
 * first file opened in each into @first[i]. */
static void count_opens(int in, const int *wds, int *n, char (*first)[64], int nw)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t len;

	for (int i = 0; i < nw; i++) {
		n[i] = 0;
		first[i][0] = '\0';
	}
	while ((len = read(in, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *) p;

			for (int i = 0; i < nw; i++)
				if (ev->wd == wds[i] && n[i]++ == 0)
					snprintf(first[i], sizeof(first[i]), "%s", ev->len ? ev->name : "?");
			p += sizeof(*ev) + ev->len;
		}
}

/*
 * An auto-tuned cache whose /proc/slabinfo line stands still costs no
 * sysfs read: none of its files is opened, interval after interval,
 * whether at its floor or above (both caches here are above it). Once its
 * line moves it is read in the next interval; the cache beside it whose
 * line did not move still is not.
 */
START_TEST(test_unchanged_cache_not_read)
{
	const char *names[2] = { "kmalloc-64", "dentry" };
	char first[2][64];
	int in, wds[2], n[2];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-auto.conf", "[Cache]\nMatch=kmalloc-64 dentry\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=960\n");
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	for (int i = 0; i < 500 && !file_contains(logpath, "caches under policy"); i++)
		usleep(10000);
	ck_assert_msg(file_contains(logpath, "caches under policy"), "sleebd never applied its policy");
	usleep(500000);         /* its first reads and decisions */
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	ck_assert_int_ge(in, 0);
	for (int i = 0; i < 2; i++)
		wds[i] = watch_opens(in, names[i]);

	usleep(1000000);        /* 10 intervals of 100 ms, nothing moves */
	count_opens(in, wds, n, first, 2);
	for (int i = 0; i < 2; i++)
		ck_assert_msg(n[i] == 0, "%s: %d sysfs files opened (the first %s) in 10 intervals of a standing slabinfo line",
			      names[i], n[i], first[i]);

	host_move_slabinfo("kmalloc-64", 150);  /* new work: more objects in use */
	usleep(500000);
	count_opens(in, wds, n, first, 2);
	ck_assert_msg(n[0] >= 1, "kmalloc-64: not read within 5 intervals of its slabinfo line moving");
	ck_assert_msg(strcmp(first[0], "queue_stats") == 0, "kmalloc-64: %s opened first, not queue_stats", first[0]);
	ck_assert_msg(n[1] == 0, "dentry: %d sysfs files opened (the first %s) though only kmalloc-64's line moved",
		      n[1], first[1]);
	close(in);
	host_stop(pid);
}
END_TEST

/* Collects sd_notify datagrams into all (appended) until want shows up
 * after from (or anywhere if from is NULL), at most ms milliseconds. */
static void collect(int fd, int ms, char *all, size_t len, const char *want)
{
	size_t start = strlen(all);

	for (int i = 0; i < ms / 10; i++) {
		if (want && strstr(all + start, want))
			return;
		char buf[1024];
		ssize_t n;

		while ((n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) > 0) {
			buf[n] = '\0';
			strncat(all, buf, len - strlen(all) - 2);
			strcat(all, "\n");
		}
		usleep(10000);
	}
}

/* sleebd on a fresh tree with the kmalloc policy, its sd_notify messages
 * sent to *fd; all[] emptied for collect(). */
static pid_t spawn_notified(int *fd, char *all)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/notify.sock", root);
	*fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	ck_assert_int_eq(bind(*fd, (struct sockaddr *) &sa, sizeof(sa)), 0);
	child_notify = sa.sun_path;
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	child_notify = NULL;
	all[0] = '\0';
	return pid;
}

START_TEST(test_notify_and_watchdog)
{
	static char all[65536];
	int fd;
	pid_t pid;

	pid = spawn_notified(&fd, all);
	collect(fd, 5000, all, sizeof(all), "READY=1");
	collect(fd, 5000, all, sizeof(all), "WATCHDOG=1");
	ck_assert_msg(strstr(all, "READY=1"), "%s", all);
	ck_assert_msg(strstr(all, "STATUS=1 of 3 caches under policy"), "%s", all);
	ck_assert_msg(strstr(all, "WATCHDOG=1"), "%s", all);
	/* READY comes after the first apply */
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);

	kill(pid, SIGHUP);
	collect(fd, 5000, all, sizeof(all), "READY=1");
	ck_assert_msg(strstr(all, "RELOADING=1\nMONOTONIC_USEC="), "%s", all);
	ck_assert(strstr(strstr(all, "RELOADING=1"), "READY=1"));

	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	collect(fd, 50, all, sizeof(all), NULL);
	ck_assert_msg(strstr(all, "STOPPING=1"), "%s", all);
	close(fd);
}
END_TEST

static unsigned count_of(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* Issue 31: STATUS= only when it says something new. Each message wakes
 * PID 1; ten intervals of an unchanged tree send none, a change one. */
START_TEST(test_status_only_when_changed)
{
	static char all[65536];
	const char *after;
	int fd;
	pid_t pid;

	pid = spawn_notified(&fd, all);
	collect(fd, 5000, all, sizeof(all), "READY=1");
	ck_assert_msg(strstr(all, "READY=1"), "%s", all);
	after = all + strlen(all);
	collect(fd, 1000, all, sizeof(all), NULL);      /* ten intervals of 100 ms */
	ck_assert_msg(count_of(after, "STATUS=") == 0, "%u STATUS= messages for nothing new:\n%s",
		      count_of(after, "STATUS="), after);
	ck_assert_msg(strstr(after, "WATCHDOG=1"), "the watchdog went quiet too:\n%s", after);

	/* Changed outside sleebd: put back, a change, one message. */
	host_set_queue("kmalloc-64", 100);
	ck_assert(wait_attr("kmalloc-64", "cpu_queue_size", 256));
	after = all + strlen(all);
	collect(fd, 1000, all, sizeof(all), NULL);
	ck_assert_msg(count_of(after, "STATUS=") == 1 && strstr(after, "2 changes"),
		      "expected one STATUS= with the new count:\n%s", after);

	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	close(fd);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_once_writes);
	tcase_add_test(tc, test_dry_run_writes_nothing);
	tcase_add_test(tc, test_bad_policy_fails);
	tcase_add_test(tc, test_verify_files);
	tcase_add_test(tc, test_policy_show);
	tcase_add_test(tc, test_monitor_only);
	tcase_add_test(tc, test_daemon_lifecycle);
	tcase_add_test(tc, test_sigkill_then_restart);
	tcase_add_test(tc, test_rollback_no);
	tcase_add_test(tc, test_autotune_one_step_no_quiet_shrink);
	tcase_add_test(tc, test_autotune_rate_from_read_time);
	tcase_add_test(tc, test_unchanged_cache_not_read);
	tcase_add_test(tc, test_notify_and_watchdog);
	tcase_add_test(tc, test_status_only_when_changed);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-host", add_tests);
}
