/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The writers' lock: an advisory lock (flock) on SLEEB_LOCK_PATH under
 * --config-root, next to the state file. Whoever writes tunables from a
 * plan of its own takes it: sleebd for its whole life, `sleebd --once`
 * and `sleebctl set` while they read, plan and write. So two of them never
 * plan from values the other is changing, and never both rewrite the
 * state file. The file says who holds it, one line: "<pid> <who>".
 * The file is its owner's alone (0600, in a directory nobody else may
 * write to): flock() works on a read-only descriptor, so a file others
 * could open would let any user hold the lock and keep sleebd from
 * starting. A kernel without file locking (flock() fails with ENOSYS)
 * has no lock: an abstract unix socket would be per network namespace,
 * and sleebd.service has one of its own (PrivateNetwork=yes).
 */

#include <stdbool.h>
#include <stdint.h>

#include "sleeb/error.h"

#define SLEEB_LOCK_PATH "/run/sleeb/lock"

/* Who takes the lock; a daemon holds it until it exits. */
#define SLEEB_LOCK_DAEMON "sleebd"
#define SLEEB_LOCK_ONCE   "sleebd --once"
#define SLEEB_LOCK_SET    "sleebctl set"
#define SLEEB_LOCK_LEARNED "sleebctl learned"

struct sleeb_lock_holder {
	long pid;                       /* 0: not known (not written yet) */
	char who[32];                   /* "" when not known */
};

/* Whether the holder is a running daemon (which will not let go). */
bool sleeb_lock_holder_is_daemon(const struct sleeb_lock_holder *h);

/*
 * Takes the lock at path (the file is created, mode 0600, if missing; its
 * directory must exist) for who, waiting up to wait_usec while another
 * process holds it, but not for a daemon. Returns the descriptor that
 * holds the lock (close it to let go), -EBUSY with holder filled in when
 * a daemon holds it or the wait ran out, -EPERM for a file owned by
 * another user or with group or other permission bits, or a directory
 * others may write to, -ENOSYS without file locking, or another -errno
 * (-ENOENT: no such directory) with "path: reason" in err.
 */
int sleeb_lock_take(const char *path, const char *who, uint64_t wait_usec, struct sleeb_lock_holder *holder,
		    struct sleeb_error *err);

/* flock(), or for tests a stand-in (e.g. one failing with ENOSYS). */
extern int (*sleeb_lock_flock)(int fd, int op);
