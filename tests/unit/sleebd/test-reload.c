/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A reload and auto-tuning (issue 31): a cache whose policy the reload
 * leaves as it was keeps the size auto-tuning gave it; one whose policy
 * changed starts again from the new plan.
 *
 * Usage: test-sleebd-reload SLEEBD SLEEBCTL
 */

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"

/* A quiet cache is never shrunk, so the grown size stays while the test looks. */
#define CONF "[Daemon]\nInterval=100ms\n"
#define AUTO "[Cache]\nMatch=kmalloc-64\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=240\n"

static void reload(void)
{
	ck_assert_int_eq(test_wait_exit(spawn(sleebctl, "reload", "--config-root", root, NULL)), 0);
}

START_TEST(test_reload_keeps_tuned_size)
{
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/sleebd.conf", CONF);
	writef("etc/sleeb/policy.d/10-auto.conf", AUTO);
	writef("etc/sleeb/policy.d/20-dentry.conf", "[Cache]\nMatch=dentry\nCpuQueueSize=200\n");
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	host_grow_kmalloc64();

	/* Another cache's policy changes; kmalloc-64's does not. */
	writef("etc/sleeb/policy.d/20-dentry.conf", "[Cache]\nMatch=dentry\nCpuQueueSize=300\n");
	reload();
	ck_assert_int_eq(attr("dentry", "cpu_queue_size"), 300);
	ck_assert_msg(attr("kmalloc-64", "cpu_queue_size") == 240,
		      "the reload took kmalloc-64 from its tuned 240 to %d", attr("kmalloc-64", "cpu_queue_size"));
	usleep(300000);
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 240);

	/* Its own policy changes: the new plan holds. */
	writef("etc/sleeb/policy.d/10-auto.conf",
	       "[Cache]\nMatch=kmalloc-64\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=100\n");
	reload();
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 100);

	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert(wait_tunables("kmalloc-64", 120, 60, 480));
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_reload_keeps_tuned_size);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-reload", add_tests);
}
