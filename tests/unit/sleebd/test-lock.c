/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the writers' lock between sleebd, `sleebd --once` and
 * `sleebctl set` against a fake tree (host.h).
 *
 * Usage: test-sleebd-lock SLEEBD SLEEBCTL
 */

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"
#include "sleeb/lock.h"

static pid_t start_daemon(void)
{
	pid_t pid;

	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert(wait_tunables("kmalloc-64", 256, 64, 512));
	/* Settled: the interval after its writes reads them back from sysfs
	 * once (the fake slabinfo never changes); a set before that would be
	 * seen as drift and undone at once. */
	usleep(300000);
	return pid;
}

/* Its exit status, or -1 (and it is killed) when still running after ms. */
static int exit_within(pid_t pid, int ms)
{
	int st;

	for (int i = 0; i < ms / 10; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

START_TEST(test_once_refuses_while_daemon_runs)
{
	char want[128];
	pid_t pid;

	make_tree(true);
	pid = start_daemon();
	/* what --once would do differently, were it allowed */
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "[Cache]\nMatch=kmalloc-64\nCpuQueueSize=300\n");
	ck_assert_int_eq(exit_within(spawn(sleebd, "--root", root, "--config-root", root, "--once", NULL), 10000), 1);
	snprintf(want, sizeof(want), "sleebd (pid %d) is running and applies the policy itself", (int) pid);
	ck_assert_msg(file_contains(logpath, want), "log: %s", test_read_file(logpath));
	ck_assert(file_contains(logpath, "sleebctl reload"));
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);

	/* a dry run writes nothing and needs no lock */
	ck_assert_int_eq(exit_within(spawn(sleebd, "--root", root, "--config-root", root, "--once", "--dry-run", NULL),
				     10000), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);
	host_stop(pid);

	/* with the daemon gone, --once runs */
	ck_assert_int_eq(exit_within(spawn(sleebd, "--root", root, "--config-root", root, "--once", NULL), 10000), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 300);
}
END_TEST

START_TEST(test_second_daemon_refuses)
{
	char answer[8192], want[128];
	pid_t pid;

	make_tree(true);
	pid = start_daemon();
	ck_assert_int_eq(exit_within(spawn(sleebd, "--root", root, "--config-root", root, NULL), 10000), 1);
	snprintf(want, sizeof(want), "another sleebd (pid %d) is running", (int) pid);
	ck_assert_msg(file_contains(logpath, want), "log: %s", test_read_file(logpath));
	/* the first one still has its socket */
	control("STATUS", 0, answer, sizeof(answer));
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "%s", answer);
	host_stop(pid);
}
END_TEST

START_TEST(test_set_warns_on_managed_cache)
{
	char want[160];
	pid_t pid;

	make_tree(true);
	pid = start_daemon();
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "--root", root, "set", "--config-root", root, "kmalloc-64",
					      "--queue", "300", NULL)), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 300);
	snprintf(want, sizeof(want), "sleebctl: kmalloc-64: warning: sleebd (pid %d) manages this cache", (int) pid);
	ck_assert_msg(file_contains(logpath, want), "log: %s", test_read_file(logpath));
	ck_assert(file_contains(logpath, "policy.d"));
	ck_assert(file_contains(logpath, "sleebctl reload"));

	/* a cache the daemon left alone: no warning */
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "--root", root, "set", "--config-root", root, "dentry",
					      "--queue", "100", NULL)), 0);
	ck_assert_int_eq(attr("dentry", "cpu_queue_size"), 100);
	ck_assert(!file_contains(logpath, "dentry: warning"));
	host_stop(pid);

	/* no daemon: no warning, and set took the lock (and let go) */
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "--root", root, "set", "--config-root", root, "kmalloc-64",
					      "--queue", "200", NULL)), 0);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 200);
	snprintf(want, sizeof(want), "%s/run/sleeb/lock", root);
	ck_assert(file_contains(want, " " SLEEB_LOCK_SET "\n"));
}
END_TEST

/*
 * A cache a policy gives the value it already had: sleebd writes nothing
 * (but records the original), the cache has a target all the same, and
 * a set on it is undone at the next interval: set warns as for any other.
 */
START_TEST(test_set_warns_on_managed_cache_never_written)
{
	char want[160], state[256];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/20-dentry.conf", "[Cache]\nMatch=dentry\nCpuQueueSize=120\n");
	pid = start_daemon();
	snprintf(state, sizeof(state), "%s/run/sleeb/state", root);
	ck_assert_msg(file_contains(state, "dentry 120 60 480"), "state: %s", test_read_file(state));
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "--root", root, "set", "--config-root", root, "dentry",
					      "--queue", "100", NULL)), 0);
	snprintf(want, sizeof(want), "sleebctl: dentry: warning: sleebd (pid %d) manages this cache", (int) pid);
	ck_assert_msg(file_contains(logpath, want), "log: %s", test_read_file(logpath));
	/* and what it says happens (slabinfo as the kernel shows it now:
	 * sleebd reads sysfs where slabinfo says someone else wrote) */
	host_set_queue("dentry", 100);
	ck_assert_msg(wait_attr("dentry", "cpu_queue_size", 120), "sleebd left dentry at %d",
		      attr("dentry", "cpu_queue_size"));
	host_stop(pid);
}
END_TEST

/* set waits for a --once that holds the lock, then goes ahead. */
START_TEST(test_set_waits_for_once)
{
	char path[256];
	struct sleeb_lock_holder h;
	pid_t set;
	int fd;

	make_tree(true);
	snprintf(path, sizeof(path), "%s/run/sleeb/lock", root);
	writef("run/sleeb/.keep", "\n");
	fd = sleeb_lock_take(path, SLEEB_LOCK_ONCE, 0, &h, NULL);
	ck_assert_int_ge(fd, 0);
	set = spawn(sleebctl, "--root", root, "set", "--config-root", root, "dentry", "--queue", "100", NULL);
	usleep(300000);
	ck_assert_int_eq(attr("dentry", "cpu_queue_size"), 120);
	close(fd);
	ck_assert_int_eq(exit_within(set, 5000), 0);
	ck_assert_int_eq(attr("dentry", "cpu_queue_size"), 100);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_once_refuses_while_daemon_runs);
	tcase_add_test(tc, test_second_daemon_refuses);
	tcase_add_test(tc, test_set_warns_on_managed_cache);
	tcase_add_test(tc, test_set_warns_on_managed_cache_never_written);
	tcase_add_test(tc, test_set_waits_for_once);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-lock", add_tests);
}
