/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl set and the writers' lock (see set-lock.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "set-lock.h"
#include "sleeb/lock.h"
#include "sleeb/root.h"
#include "sleeb/util.h"

/* A --once is one pass over the caches: seconds at most. */
#define SET_LOCK_WAIT_SEC 10

int set_lock_take(struct set_lock *l, const char *config_root)
{
	struct sleeb_lock_holder holder = { 0 };
	struct sleeb_error err = { 0 };
	char path[4096];
	int r;

	*l = (struct set_lock) { .fd = -1 };
	r = sleeb_prefix_path(path, sizeof(path), config_root, SLEEB_LOCK_PATH);
	if (r < 0) {
		sleeb_log("--config-root %s: path too long", config_root);
		return r;
	}
	r = sleeb_lock_take(path, SLEEB_LOCK_SET, SET_LOCK_WAIT_SEC * UINT64_C(1000000), &holder, &err);
	if (r >= 0) {
		l->fd = r;
		return 0;
	}
	if (r == -ENOENT)
		return 0;
	if (r != -EBUSY || !sleeb_lock_holder_is_daemon(&holder)) {
		if (r == -EBUSY)
			sleeb_log("%s, still after %d s; nothing changed", err.msg, SET_LOCK_WAIT_SEC);
		else
			sleeb_log("%s; nothing changed", err.msg);
		return r;
	}
	l->daemon_pid = holder.pid;
	/* Best effort: without its state file we cannot tell which caches
	 * the daemon changed, and warn about none. */
	r = sleeb_prefix_path(path, sizeof(path), config_root, SLEEB_STATE_PATH);
	if (r < 0 || sleeb_state_load(&l->managed, path, NULL) < 0)
		sleeb_state_done(&l->managed);
	return 0;
}

bool set_lock_daemon_manages(const struct set_lock *l, const char *name)
{
	return l->daemon_pid && sleeb_state_find(&l->managed, name);
}

void set_lock_warn(const struct set_lock *l, const char *cache)
{
	sleeb_log("%s: warning: sleebd (pid %ld) manages this cache: it will put back its own target (at its next "
		  "interval) and the original value when it stops; to make this change stick, "
		  "put it in a policy file in /etc/sleeb/policy.d (see sleeb-policy(5)) and run 'sleebctl reload'",
		  cache, l->daemon_pid);
}

void set_lock_release(struct set_lock *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	sleeb_state_done(&l->managed);
}
