/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * sleebctl set's side of the writers' lock (sleeb/lock.h): it takes the
 * lock for its pass, waiting for a `sleebd --once`; when a running sleebd
 * holds it for good, set goes ahead and warns about each cache that
 * daemon manages, since the daemon will put its own target back.
 */

#include <stdbool.h>

#include "sleeb/policy.h"
#include "sleeb/state.h"
#include "sleeb/sysfs.h"

struct set_lock {
	int fd;                         /* the lock, held; -1: not held */
	long daemon_pid;                /* the running sleebd; 0: none */
	struct sleeb_state managed;     /* the caches it changed (its state file) */
	struct sleeb_policy policy;     /* the policy files it plans from */
	bool have_policy;               /* ... loaded without errors */
};

/*
 * Takes the lock under config_root (NULL: /), or finds the daemon that
 * holds it. Without the directory (/run/sleeb: neither sleebd nor --once
 * has run since boot) there is nobody to wait for. Returns 0, or -errno
 * (reported on stderr).
 */
int set_lock_take(struct set_lock *l, const char *config_root);

/*
 * Whether the running daemon manages the kmem_cache whose sysfs directory
 * is id (its names in list): it changed it (state file), or a policy gives
 * it a target (sleeb_plan_cache(), sleebd's own plan), which sleebd
 * restores every interval whether or not it ever had to write it.
 */
bool set_lock_daemon_manages(const struct set_lock *l, const struct sleeb_sysfs_list *list, const char *id);

/* Tells the user that the daemon will undo what set did to cache. */
void set_lock_warn(const struct set_lock *l, const char *cache);

void set_lock_release(struct set_lock *l);
