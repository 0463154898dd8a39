/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Forgetting learned sizes (`sleebctl learned --forget`): one edit,
 * whether sleebd makes it on its state in memory (asked on its control
 * socket, so that its next save cannot bring the lines back) or sleebctl
 * makes it on the file (no daemon runs; under the writers' lock).
 * Forgetting leaves the caches' current sizes alone: it only stops sleebd
 * from starting them at the learned size, at its next start or when the
 * cache appears again.
 */

#include <stddef.h>

#include "sleeb/error.h"
#include "sleeb/state.h"
#include "sleeb/sysfs.h"

/*
 * The key in s (the learned sizes, keyed by sysfs id: sleeb/state.h) of
 * what the user named: name itself when s has it (an id, or the name of a
 * cache of its own), else the id name has in l (NULL: no list) when s has
 * that. NULL when neither.
 */
const char *sleeb_learned_key(const struct sleeb_state *s, const struct sleeb_sysfs_list *l, const char *name);

/*
 * Drops the learned sizes of the n caches named (every one when n is 0;
 * names as sleeb_learned_key() takes them) from s and saves it to
 * s->path (sleeb_state_save(): atomically; no line left removes the
 * file). All or nothing: a name without a learned size (-ENOENT, "NAME:
 * what is wrong; nothing forgotten" in err) or a failed save (its -errno)
 * leaves s and the file as they were. On success *dropped (NULL: not
 * wanted) holds the entries dropped, without a path (sleeb_state_done()
 * it). Returns the number dropped, or -ENOMEM.
 */
int sleeb_learned_forget(struct sleeb_state *s, const struct sleeb_sysfs_list *l, char *const *names, size_t n,
			 struct sleeb_state *dropped, struct sleeb_error *err);

/*
 * What was forgotten, for the user: one line per entry of dropped, then
 * what it means for the caches' sizes; a line saying so when dropped is
 * empty. Returns the text (free() it) or NULL when out of memory.
 */
char *sleeb_learned_forgot_text(const struct sleeb_state *dropped);
