/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The originals sleebd restores (issue 31): recorded at first sight even
 * when nothing had to be written, kept from a state file with a bad line,
 * a stop that cannot restore them fails, and `sleebd --restore-only` (the
 * unit's ExecStopPost=) puts them back after a daemon that died.
 *
 * Usage: test-sleebd-originals SLEEBD SLEEBCTL
 */

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"

#define STATE "run/sleeb/state"

static char *at(const char *rel)
{
	return test_path(root, rel);
}

/* kmalloc-64 at 256/64/512, as a sleebd killed after tuning it left it. */
static void tuned_kmalloc64(void)
{
	struct fake_cache all[3] = { caches[0], caches[1], caches[2] };

	all[0].q = 256;
	all[0].b = 64;
	all[0].s = 512;
	add_cache(&all[0], true);
	write_slabinfo(all, 3, true);
}

/* Runs until the control socket answers, i.e. the first apply is done. */
static pid_t start_daemon(void)
{
	char answer[8192] = "";
	pid_t pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);

	for (int i = 0; i < 500 && strncmp(answer, "OK\n", 3) != 0; i++) {
		usleep(10000);
		control("STATUS", 0, answer, sizeof(answer));
	}
	ck_assert_msg(strncmp(answer, "OK\n", 3) == 0, "no status: %s\nlog:\n%s", answer, test_read_file(logpath));
	return pid;
}

/*
 * A policy that asks for what dentry already has writes nothing; someone
 * then changes dentry and sleebd puts its target back. The original is
 * still what dentry had at start, not the outside value.
 */
START_TEST(test_original_recorded_without_write)
{
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-dentry.conf", "[Cache]\nMatch=dentry\nCpuQueueSize=120\n");
	pid = start_daemon();
	host_set_queue("dentry", 100);
	for (int i = 0; i < 500 && !file_contains(logpath, "dentry: drifted"); i++)
		usleep(10000);
	ck_assert_msg(wait_attr("dentry", "cpu_queue_size", 120), "dentry not restored:\n%s", test_read_file(logpath));
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_msg(attr("dentry", "cpu_queue_size") == 120,
		      "rollback put back the drifted %d, not the original 120", attr("dentry", "cpu_queue_size"));
}
END_TEST

/* A stop that cannot restore an original exits non-zero and says which. */
START_TEST(test_failed_rollback_fails)
{
	char *p;
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = start_daemon();
	ck_assert(wait_tunables("kmalloc-64", 256, 64, 512));
	/* A directory: neither read nor written, even by root. */
	p = at("sys/kernel/slab/kmalloc-64/shared_queue_size");
	ck_assert_int_eq(remove(p), 0);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	free(p);
	kill(pid, SIGTERM);
	ck_assert_msg(test_wait_exit(pid) != 0, "sleebd exited 0 with kmalloc-64's original not restored:\n%s",
		      test_read_file(logpath));
	ck_assert_msg(file_contains(logpath, "kmalloc-64: cannot read for rollback"), "%s", test_read_file(logpath));
	ck_assert_msg(file_contains(logpath, "1 original not restored, kept in "), "%s", test_read_file(logpath));
	/* kept for the next try (ExecStopPost=, the next start) */
	p = at(STATE);
	ck_assert_msg(file_contains(p, "kmalloc-64 120 60 480"), "state: %s", test_read_file(p));
	free(p);
}
END_TEST

/* One bad line costs that line: the others' originals are restored, and
 * the broken file is kept aside before it is rewritten. */
START_TEST(test_bad_state_line_skipped)
{
	static const char text[] = "# sleebd state v2\ndentry 1 x 3\nkmalloc-64 120 60 480\n";
	char *p;
	pid_t pid;

	make_tree(true);
	tuned_kmalloc64();
	writef(STATE, "%s", text);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = start_daemon();
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_msg(wait_tunables("kmalloc-64", 120, 60, 480), "kmalloc-64 left at %d/%d/%d, not its original 120/60/480",
		      attr("kmalloc-64", "cpu_queue_size"), attr("kmalloc-64", "cpu_batch_size"),
		      attr("kmalloc-64", "shared_queue_size"));
	ck_assert_msg(file_contains(logpath, "/run/sleeb/state:2: expected '<cache> <queue> <batch> <shared>'"), "%s",
		      test_read_file(logpath));
	p = at(STATE ".broken");
	test_assert_file_eq(p, text);
	free(p);
}
END_TEST

/* ExecStopPost=: the originals back from the state file after a daemon
 * that died; without a state file nothing happens. */
START_TEST(test_restore_only)
{
	char *p = NULL;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	ck_assert_int_eq(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--restore-only", NULL)), 0);
	ck_assert(wait_tunables("kmalloc-64", 120, 60, 480));
	p = at(STATE);
	ck_assert_int_eq(access(p, F_OK), -1);

	tuned_kmalloc64();
	writef(STATE, "# sleebd state v2\nkmalloc-64 120 60 480\n");
	ck_assert_int_eq(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--restore-only", NULL)), 0);
	ck_assert_msg(wait_tunables("kmalloc-64", 120, 60, 480), "log:\n%s", test_read_file(logpath));
	ck_assert_int_eq(access(p, F_OK), -1);
	ck_assert(file_contains(logpath, "kmalloc-64: queue/batch/shared 256/64/512 -> 120/60/480"));
	free(p);
}
END_TEST

/* Not while a daemon runs: that would undo its tuning under it. */
START_TEST(test_restore_only_refused_while_running)
{
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "%s", policy_kmalloc);
	pid = start_daemon();
	ck_assert(wait_tunables("kmalloc-64", 256, 64, 512));
	ck_assert_int_eq(test_wait_exit(spawn(sleebd, "--root", root, "--config-root", root, "--restore-only", NULL)), 1);
	ck_assert(file_contains(logpath, "is running; --restore-only would undo its tuning"));
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 256);
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_original_recorded_without_write);
	tcase_add_test(tc, test_failed_rollback_fails);
	tcase_add_test(tc, test_bad_state_line_skipped);
	tcase_add_test(tc, test_restore_only);
	tcase_add_test(tc, test_restore_only_refused_while_running);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-originals", add_tests);
}
