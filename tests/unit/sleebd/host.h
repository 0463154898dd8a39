/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Shared by the host tests of the sleebd and sleebctl binaries: a fake
 * tree under /tmp (<root>/proc/{slabinfo,meminfo}, <root>/sys/kernel/slab
 * with plain files, policies under <root>/etc; --root and --config-root
 * both point at it) and the processes run against it.
 */

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "helpers.h"

extern const char *sleebd, *sleebctl;   /* the binaries under test */
extern char root[64], logpath[128];     /* the tree; every child's output */

/* For the next spawn(): NOTIFY_SOCKET (NULL: none) with WATCHDOG_USEC,
 * and the uid to run as (0: root). */
extern const char *child_notify;
extern const char *child_watchdog_usec;
extern uid_t child_uid;

/* printf into a file of the fake tree. */
#define writef(...) test_writef_at(root, __VA_ARGS__)

struct fake_cache {
	const char *name;
	unsigned size, q, b, s;
	unsigned active;        /* objects in use in slabinfo (0: 100) */
};

/* kmalloc-64 and dentry (120/60/480), big-cache (8/4/0) */
extern const struct fake_cache caches[3];

/* [Cache] kmalloc-* at 256/64/512 */
extern const char policy_kmalloc[];

void add_cache(const struct fake_cache *c, bool sleeb);
void write_slabinfo(const struct fake_cache *list, size_t n, bool sleeb);

/* A fresh tree with the three caches (with SLEEB tunables or without),
 * meminfo and sleebd.conf (Interval=100ms). */
void make_tree(bool sleeb);

/* Removes the tree (the fixture's teardown). */
void teardown(void);

/* A cache's attribute; -1 when missing, -2 when not a number. */
int attr(const char *cache, const char *a);

bool file_contains(const char *path, const char *want);

/* Starts prog with args (NULL-terminated), stdout+stderr to logpath. */
pid_t spawn(const char *prog, ...);

/* Polls until cache/attr == want; false after 5 s. */
bool wait_attr(const char *cache, const char *a, int want);

/*
 * Polls until the cache holds all three values; false after 5 s. sleebd
 * writes the attributes one at a time, so seeing the first one changed
 * says nothing of the others yet.
 */
bool wait_tunables(const char *cache, int q, int b, int s);

/* Sends cmd on the control socket as uid (0 or not); the answer in out
 * ("CONNECT-FAILED <why>" when connect() fails). */
void control(const char *cmd, uid_t uid, char *out, size_t len);

/* main() of a host test binary: SLEEBD SLEEBCTL as arguments, root only
 * (77, skipped, otherwise); add_tests adds the tests to the one TCase. */
int host_main(int argc, char *argv[], const char *name, void (*add_tests)(TCase *tc));

/*
 * Sets cache's active_objs in /proc/slabinfo, as a kernel's refills and
 * drains move objects between queues and slabs: a fake tree whose
 * queue_stats move must move this too, or sleebd does not read them.
 */
void host_move_slabinfo(const char *cache, unsigned active);

/* Sets cpu_queue_size as a write to the kernel would: sysfs and slabinfo. */
void host_set_queue(const char *cache, unsigned q);

/* Churns kmalloc-64's queue_stats until sleebd grows it from 120/60/480
 * to 240/120/960 (an AutoTune policy for it, AutoTuneMax >= 240). */
void host_grow_kmalloc64(void);

/* SIGTERM to sleebd PID, which must exit with status 0. */
void host_stop(pid_t pid);
