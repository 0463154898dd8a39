/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Merged caches in a fake tree: one sysfs directory (":0000072") and
 * several names linking to it, only one of which /proc/slabinfo shows.
 * The uevent (sent through sleebd-test's socket: a fake tree has no
 * kernel) names the directory, the rescan the slabinfo name; sleebd must
 * know both as one cache, and rollback must restore every original.
 *
 * Usage: test-sleebd-merged SLEEBD-TEST SLEEBCTL
 */

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"

#define ID ":0000072"

static char uevent_socket[100];

/* The merged cache's directory and its two names; aaa_cache sorts first,
 * zzz_cache is the name /proc/slabinfo shows (the cache created first). */
static void add_merged(unsigned q, unsigned b, unsigned s)
{
	char dir[256], link[256];

	test_fake_slab_dir(root, ID, 72, (const unsigned[3]) { q, b, s });
	writef("sys/kernel/slab/" ID "/queue_stats", "alloc_refill 0\nfree_drain 0\n");
	snprintf(dir, sizeof(dir), "%s", ID);
	snprintf(link, sizeof(link), "%s/sys/kernel/slab/zzz_cache", root);
	ck_assert_int_eq(symlink(dir, link), 0);
	snprintf(link, sizeof(link), "%s/sys/kernel/slab/aaa_cache", root);
	ck_assert_int_eq(symlink(dir, link), 0);
}

static void slabinfo_with_merged(unsigned q, unsigned b, unsigned s)
{
	struct fake_cache all[4] = { caches[0], caches[1], caches[2], { "zzz_cache", 72, q, b, s, 0 } };

	write_slabinfo(all, 4, true);
}

static void send_uevent(const char *action, const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char msg[512];
	int fd, n;

	n = snprintf(msg, sizeof(msg), "%s@/kernel/slab/%s%cACTION=%s%cDEVPATH=/kernel/slab/%s%cSUBSYSTEM=slab%c",
		     action, name, 0, action, 0, name, 0, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", uevent_socket);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(sendto(fd, msg, (size_t) n, 0, (struct sockaddr *) &sa, sizeof(sa)), n);
	close(fd);
}

/* Starts sleebd with the fake uevent socket; returns once it listens. */
static pid_t start(void)
{
	pid_t pid;

	snprintf(uevent_socket, sizeof(uevent_socket), "%s/uevent.sock", root);
	setenv("SLEEBD_TEST_UEVENT_SOCKET", uevent_socket, 1);
	pid = spawn(sleebd, "--root", root, "--config-root", root, "--debug", NULL);
	unsetenv("SLEEBD_TEST_UEVENT_SOCKET");
	for (int i = 0; i < 500 && access(uevent_socket, F_OK) < 0; i++)
		usleep(10000);
	ck_assert_msg(access(uevent_socket, F_OK) == 0, "sleebd-test opened no uevent socket");
	return pid;
}

static void assert_merged(int q, int b, int s, const char *when)
{
	ck_assert_msg(attr(ID, "cpu_queue_size") == q && attr(ID, "cpu_batch_size") == b &&
			      attr(ID, "shared_queue_size") == s,
		      "%s: " ID " is %d/%d/%d, want %d/%d/%d", when, attr(ID, "cpu_queue_size"),
		      attr(ID, "cpu_batch_size"), attr(ID, "shared_queue_size"), q, b, s);
}

/*
 * A merged cache created while sleebd runs: the uevent for its directory
 * comes first and sleebd tunes it (recording the original), then the
 * rescan finds it under its slabinfo name. Before the cache list and the
 * state were keyed by the sysfs id, the uevent's entry ("aaa_cache", the
 * first link) was dropped by the rescan with its original, the slabinfo
 * name's entry recorded the tuned values as the original, and rollback
 * left the policy's values in place.
 */
START_TEST(test_uevent_then_rescan_rollback)
{
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-merged.conf",
	       "[Cache]\nMatch=zzz_cache aaa_cache\nCpuQueueSize=256\nCpuBatchSize=64\nSharedQueueSize=512\n");
	pid = start();

	add_merged(120, 60, 480);
	send_uevent("add", ID);
	ck_assert_msg(wait_tunables(ID, 256, 64, 512), "the uevent did not tune " ID);
	/* Now the kernel lists it, with the values sleebd wrote. */
	slabinfo_with_merged(256, 64, 512);
	for (int i = 0; i < 100 && !file_contains(logpath, "zzz_cache"); i++)
		usleep(10000);
	usleep(300000);         /* a few rescans */
	assert_merged(256, 64, 512, "while running");

	host_stop(pid);
	assert_merged(120, 60, 480, "after rollback");
}
END_TEST

/*
 * The names of a merged cache are linked after its uevent, and may come
 * late: sleebd looks for them again from a timer (for about a second)
 * instead of listing the slab directory in a loop of sleeps inside the
 * event loop, which gave up after 20 ms and left a cache that
 * /proc/slabinfo does not show yet untuned. Meanwhile the loop answers.
 */
START_TEST(test_uevent_names_linked_late)
{
	char dir[256], link[256], out[4096];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-merged.conf",
	       "[Cache]\nMatch=zzz_cache aaa_cache\nCpuQueueSize=256\nCpuBatchSize=64\nSharedQueueSize=512\n");
	pid = start();
	test_fake_slab_dir(root, ID, 72, (const unsigned[3]) { 120, 60, 480 });
	send_uevent("add", ID);
	usleep(300000);
	control("STATUS", 0, out, sizeof(out));
	ck_assert_msg(strncmp(out, "OK\n", 3) == 0, "no status while looking for the names: %s", out);
	snprintf(dir, sizeof(dir), "%s", ID);
	snprintf(link, sizeof(link), "%s/sys/kernel/slab/zzz_cache", root);
	ck_assert_int_eq(symlink(dir, link), 0);
	ck_assert_msg(wait_tunables(ID, 256, 64, 512), ID " not tuned once its name came: %d/%d/%d",
		      attr(ID, "cpu_queue_size"), attr(ID, "cpu_batch_size"), attr(ID, "shared_queue_size"));
	host_stop(pid);
}
END_TEST

/* The same the other way round: the rescan first, then a (late) uevent. */
START_TEST(test_rescan_then_uevent_rollback)
{
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-merged.conf",
	       "[Cache]\nMatch=zzz_cache aaa_cache\nCpuQueueSize=256\nCpuBatchSize=64\nSharedQueueSize=512\n");
	pid = start();
	add_merged(120, 60, 480);
	slabinfo_with_merged(120, 60, 480);
	ck_assert(wait_tunables(ID, 256, 64, 512));
	send_uevent("add", ID);
	usleep(300000);
	host_stop(pid);
	assert_merged(120, 60, 480, "after rollback");
}
END_TEST

/*
 * A state file from an earlier sleebd, keyed by cache name (v1), after
 * that sleebd was killed: the originals are found under the sysfs id,
 * the file is rewritten keyed by it, and rollback restores them.
 */
START_TEST(test_state_v1_by_name)
{
	char state[256];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-merged.conf", "[Cache]\nMatch=zzz_cache\nCpuQueueSize=256\n");
	add_merged(256, 64, 512);
	slabinfo_with_merged(256, 64, 512);
	writef("run/sleeb/state", "# sleebd state v1\nzzz_cache 120 60 480\nkmalloc-64 100 50 400\n");
	snprintf(state, sizeof(state), "%s/run/sleeb/state", root);
	pid = start();
	/* Unset keys come from the original found under the id. */
	ck_assert_msg(wait_tunables(ID, 256, 60, 480), ID " is %d/%d/%d", attr(ID, "cpu_queue_size"),
		      attr(ID, "cpu_batch_size"), attr(ID, "shared_queue_size"));
	ck_assert_msg(file_contains(state, ID " 120 60 480"), "state not keyed by the id");
	ck_assert(!file_contains(state, "zzz_cache"));
	host_stop(pid);
	assert_merged(120, 60, 480, "after rollback");
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 100);
}
END_TEST

/*
 * A merged cache with a static target costs what any other does: its
 * tunables come from /proc/slabinfo between the 30 s verifications, not
 * from sysfs every interval (sleebd looked it up by its slabinfo name in
 * a list keyed by the sysfs id, found nothing, and read it all as new).
 * Seen through an attribute taken away after the first verification: a
 * read of it fails the snapshot.
 */
START_TEST(test_merged_static_not_reread)
{
	char from[256], to[256];
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/policy.d/10-merged.conf", "[Cache]\nMatch=zzz_cache\nCpuQueueSize=256\nCpuBatchSize=64\n");
	add_merged(120, 60, 480);
	slabinfo_with_merged(120, 60, 480);
	pid = start();
	ck_assert(wait_tunables(ID, 256, 64, 480));
	slabinfo_with_merged(256, 64, 480);     /* as the kernel shows it now */
	usleep(300000);
	snprintf(from, sizeof(from), "%s/sys/kernel/slab/" ID "/shared_queue_size", root);
	snprintf(to, sizeof(to), "%s/shared_queue_size.away", root);
	ck_assert_int_eq(rename(from, to), 0);
	usleep(1000000);        /* 10 intervals */
	ck_assert_msg(!file_contains(logpath, "cannot read caches"), "sysfs read every interval: %s",
		      "cannot read caches: ... shared_queue_size");
	ck_assert_int_eq(rename(to, from), 0);
	host_stop(pid);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_merged_static_not_reread);
	tcase_add_test(tc, test_uevent_then_rescan_rollback);
	tcase_add_test(tc, test_uevent_names_linked_late);
	tcase_add_test(tc, test_rescan_then_uevent_rollback);
	tcase_add_test(tc, test_state_v1_by_name);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebd-merged", add_tests);
}
