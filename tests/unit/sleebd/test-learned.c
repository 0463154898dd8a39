/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Learned sizes (issue 31): the size auto-tuning gave a cache is kept in
 * <config-root>/var/lib/sleeb/learned; a restarted sleebd starts the
 * cache there, and so it does for a cache that appears later; a stop
 * still puts the originals back.
 *
 * Usage: test-sleebd-learned SLEEBD SLEEBCTL
 */

#include <check.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"

/* A quiet cache is never shrunk, so the grown size stays while the test looks. */
#define CONF "[Daemon]\nInterval=100ms\n"
#define AUTO "[Cache]\nMatch=kmalloc-*\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=240\n"

/* The file is saved right after the write that wait_tunables() sees. */
static bool wait_file_contains(const char *path, const char *want)
{
	for (int i = 0; i < 500; i++) {
		if (file_contains(path, want))
			return true;
		usleep(10000);
	}
	return false;
}

START_TEST(test_restart_starts_at_learned_size)
{
	char learned[128];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/sleebd.conf", CONF);
	writef("etc/sleeb/policy.d/10-auto.conf", AUTO);
	snprintf(learned, sizeof(learned), "%s/var/lib/sleeb/learned", root);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	host_grow_kmalloc64();
	ck_assert_msg(wait_file_contains(learned, "kmalloc-64 240 120 480"), "no learned size in %s", learned);
	host_stop(pid);
	/* The stop puts the original back: a learned size is a start only. */
	ck_assert(wait_tunables("kmalloc-64", 120, 60, 480));

	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert_msg(wait_tunables("kmalloc-64", 240, 120, 480), "restarted at %d/%d/%d, not the learned 240/120/480",
		      attr("kmalloc-64", "cpu_queue_size"), attr("kmalloc-64", "cpu_batch_size"),
		      attr("kmalloc-64", "shared_queue_size"));
	ck_assert(file_contains(logpath, "learned size"));
	host_stop(pid);
	ck_assert(wait_tunables("kmalloc-64", 120, 60, 480));
}
END_TEST

/* A cache that appears while sleebd runs starts at what it learned, as
 * a module's cache loaded again would. */
START_TEST(test_new_cache_starts_at_learned_size)
{
	const struct fake_cache later = { "kmalloc-128", 128, 120, 60, 480, 0 };
	struct fake_cache all[4];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/sleebd.conf", CONF);
	writef("etc/sleeb/policy.d/10-auto.conf", AUTO);
	writef("var/lib/sleeb/learned", "# sleebd learned v1\nkmalloc-128 240 120 480\n");
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert(wait_tunables("kmalloc-64", 120, 60, 480));
	usleep(300000);

	memcpy(all, caches, sizeof(caches));
	all[3] = later;
	add_cache(&later, true);
	write_slabinfo(all, 4, true);
	ck_assert_msg(wait_tunables("kmalloc-128", 240, 120, 480), "new cache at %d/%d/%d, not the learned 240/120/480",
		      attr("kmalloc-128", "cpu_queue_size"), attr("kmalloc-128", "cpu_batch_size"),
		      attr("kmalloc-128", "shared_queue_size"));
	host_stop(pid);
	ck_assert(wait_tunables("kmalloc-128", 120, 60, 480));
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_restart_starts_at_learned_size);
	tcase_add_test(tc, test_new_cache_starts_at_learned_size);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-learned", add_tests);
}
