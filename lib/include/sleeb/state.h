/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Rollback state: the original tunables of every cache sleebd changed,
 * kept in a file (/run/sleeb/state) so that a daemon killed with SIGKILL
 * still lets the next start restore the true originals rather than the
 * dead daemon's values.
 *
 * File format, one cache per line, written atomically (temp file, fsync,
 * rename):
 *   # sleebd state v2
 *   <id> <cpu_queue_size> <cpu_batch_size> <shared_queue_size>
 * where <id> is the cache's sysfs directory (":0000064" for a merged
 * cache, whichever of its names is asked about; the name itself for a
 * cache of its own), so that every name of a kmem_cache finds the one
 * original. Version 1 files, keyed by a cache name, read the same;
 * sleeb_state_rekey() turns their names into ids.
 * A comment is a line that is "#" or starts with "# " or "#<tab>"; an
 * id (no blanks) may start with '#' but not be "#" alone.
 *
 * The learned sizes (/var/lib/sleeb/learned) are a second file of the
 * same lines under the header "# sleebd learned v1": the tunables
 * auto-tuning last gave each cache, where the cache starts the next time
 * sleebd takes it. They live apart from the originals because their
 * lifetimes differ: originals describe this boot's kernel and must be
 * gone after a reboot (/run), learned sizes are worth keeping across
 * one (/var/lib).
 *
 * Both files are the daemon's alone: a load refuses (-EPERM, the file
 * left alone) a file owned by another user than the caller or root, one
 * others may write to, or one in a directory others may write to, since
 * its lines are written to the kernel.
 */

#include <stdbool.h>
#include <stddef.h>

#include "sleeb/error.h"
#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"

#define SLEEB_STATE_PATH "/run/sleeb/state"
#define SLEEB_LEARNED_PATH "/var/lib/sleeb/learned"

/* The first line of each file as sleeb_state_save() writes it. */
#define SLEEB_STATE_HEADER "# sleebd state v2"
#define SLEEB_LEARNED_HEADER "# sleebd learned v1"

struct sleeb_state_entry {
	char *cache;
	struct sleeb_tunables orig;     /* the original, or the learned size */
};

struct sleeb_state {
	char *path;
	const char *header;             /* the saved file's first line; NULL: SLEEB_STATE_HEADER */
	struct sleeb_state_entry *entries;
	size_t n;
};

struct sleeb_diag;

/*
 * Reads path into *s (which takes a copy of path). A missing file gives
 * an empty state. A bad line (not "<id> <queue> <batch> <shared>", an id
 * that cannot be stored, values the kernel cannot be in) costs only that
 * line: it is skipped with "path:line: what is wrong; line skipped" in
 * warnings (NULL: not said), and the other lines' originals are kept.
 * Returns the number of lines skipped, or -ENOMEM or -errno from reading
 * (with "path: reason" in err), -EPERM for a file others could have
 * written (see above; *s is then empty).
 */
int sleeb_state_load(struct sleeb_state *s, const char *path, struct sleeb_diag *warnings,
		     struct sleeb_error *err);

/*
 * Keeps the file at path under a second name, path.broken (replacing an
 * older one), so that the next sleeb_state_save() does not take the lines
 * a load skipped with it: a person may still read originals off them.
 * Returns 0 with the new name in *ret (free() it), or -errno with "path:
 * reason" in err.
 */
int sleeb_state_keep_aside(const char *path, char **ret, struct sleeb_error *err);

void sleeb_state_done(struct sleeb_state *s);

/*
 * Whether key can be stored (and so read back): not empty, not "#", no
 * blanks, control characters or '/', shorter than 256 bytes.
 */
bool sleeb_state_key_ok(const char *key);

/* The entry for cache, or NULL. */
const struct sleeb_state_entry *sleeb_state_find(const struct sleeb_state *s, const char *cache);

/*
 * Records the original values of cache unless already known: the first
 * value seen is the original. Returns 1 if added, 0 if it was already
 * there, -EINVAL for a name that cannot be stored (white space, control
 * characters, empty, "#"), -ENOMEM.
 */
int sleeb_state_remember(struct sleeb_state *s, const char *cache, const struct sleeb_tunables *orig);

/*
 * Sets cache's values, replacing what was there (the learned sizes: the
 * last value is the one that counts). Returns 1 if added or changed, 0 if
 * they were already those, -EINVAL or -ENOMEM as sleeb_state_remember().
 */
int sleeb_state_set(struct sleeb_state *s, const char *cache, const struct sleeb_tunables *v);

/*
 * Keys every entry by its sysfs id (see above) as listed in l: a version 1
 * file's names become ids. When two names of one kmem_cache were both
 * recorded, the first (the earlier record, the true original) stays.
 * Keys l does not list are kept as they are. Returns the number of
 * entries changed or dropped, or -ENOMEM (s unchanged).
 */
int sleeb_state_rekey(struct sleeb_state *s, const struct sleeb_sysfs_list *l);

/* Drops cache. Returns 1 if it was there, 0 if not. */
int sleeb_state_forget(struct sleeb_state *s, const char *cache);

/*
 * Writes the state to s->path atomically, creating the parent directory
 * (mode 0755) if needed; an empty state removes the file. Returns 0 or
 * -errno (-ENOSPC, -EROFS, -EACCES, ...) with "path: reason" in err; the
 * previous file is left intact on failure.
 */
int sleeb_state_save(const struct sleeb_state *s, struct sleeb_error *err);

/*
 * mkdir -p of the directory holding path (mode 0755): under a test root
 * nothing exists yet. Used for the state file and the control socket.
 * Returns 0, -ENOMEM or -errno from mkdir().
 */
int sleeb_mkdir_parents(const char *path);
