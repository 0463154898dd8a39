/* SPDX-License-Identifier: GPL-2.0-only */
/* Rollback: the state file's originals written back (stop, --restore-only). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "manager-internal.h"

int manager_restore_all(Manager *m)
{
	struct sleeb_error err = { 0 };
	int ret = 0;

	if (m->opts.dry_run)
		return 0;

	for (size_t i = m->state.n; i > 0; i--) {
		const struct sleeb_state_entry *e = &m->state.entries[i - 1];
		const struct cache *c = cache_find(m, e->cache);
		struct sleeb_tunables cur;
		char name[SLEEB_CACHE_NAME_MAX], who[2 * SLEEB_CACHE_NAME_MAX + 4];
		int r;

		/* Keyed by the sysfs id, which is a directory: read and write
		 * through it, and say the cache's name where it is known. */
		snprintf(name, sizeof(name), "%s", e->cache);
		if (c && strcmp(c->name, name) != 0)
			snprintf(who, sizeof(who), "%s (%s)", c->name, name);
		else
			snprintf(who, sizeof(who), "%s", name);
		r = sleeb_tunables_read(name, &cur, &err);
		if (r == -ENOENT) {
			sleeb_state_forget(&m->state, name);
			continue;
		}
		if (r < 0) {
			ret = log_error_errno(r, "%s: cannot read for rollback: %s", who, err.msg);
			continue;
		}
		if (!tunables_equal(&cur, &e->orig)) {
			struct sleeb_tunables orig = e->orig;

			r = sleeb_tunables_apply(name, &cur, &orig, NULL, NULL, &err);
			if (r < 0 && r != -ENOENT) {
				ret = log_error_errno(r, "rollback failed: %s", err.msg);
				continue;
			}
			/* Logged, not counted: the textfile goes away on stop. */
			if (r == 0)
				log_change(who, &cur, &orig, "rollback", "rollback to original", false);
		}
		sleeb_state_forget(&m->state, name);
	}
	state_commit(m);
	/* What failed stays in the state file, for the unit's
	 * ExecStopPost= (sleebd --restore-only) or the next start. */
	if (ret < 0)
		log_error("%zu original%s not restored, kept in %s", m->state.n, m->state.n == 1 ? "" : "s",
			  m->state_path);
	return ret;
}
