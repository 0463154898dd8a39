/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Learned sizes: what auto-tuning last gave each cache, kept across
 * restarts and reboots (sleeb/state.h), and where an auto-tuned cache
 * starts when sleebd takes it. Restores still put the originals back:
 * a learned size is only a starting point.
 */

#include <errno.h>
#include <stdlib.h>

#include "log.h"
#include "manager-internal.h"
#include "sleeb/learned-forget.h"
#include "sleeb/learned.h"
#include "sleeb/meminfo.h"

void learned_note(Manager *m, const struct cache *c, const struct sleeb_tunables *v)
{
	struct sleeb_error err = { 0 };
	int r;

	/* Not loaded (sleebd --once) or nothing new: nothing to save. */
	if (m->opts.dry_run || !m->learned.path || sleeb_state_set(&m->learned, c->id, v) <= 0)
		return;
	r = sleeb_state_save(&m->learned, &err);
	if (r < 0 && !m->learned_error_logged)
		log_error_errno(r, "%s; learned sizes are kept in memory only and are lost on a restart", err.msg);
	m->learned_error_logged = r < 0;
}

bool learned_start(Manager *m, const struct cache *c, const struct sleeb_tunables *plan, struct sleeb_tunables *ret)
{
	const struct sleeb_state_entry *e = sleeb_state_find(&m->learned, c->id);
	struct sleeb_autotune_params p;

	if (!e)
		return false;
	sleeb_autotune_params_init(&p);
	p.ncpus = m->ncpus;
	p.nnodes = m->nnodes;
	if (m->memtotal == 0) {
		struct sleeb_meminfo mi;

		if (sleeb_meminfo_read(&mi, NULL) == 0 && (mi.present & (1u << SLEEB_MEMINFO_MEM_TOTAL)))
			m->memtotal = mi.value[SLEEB_MEMINFO_MEM_TOTAL];
	}
	p.budget_bytes = sleeb_daemon_config_budget(&m->config, m->memtotal);
	/* What the other caches queue now, each at its current size: those
	 * taken before this one already at theirs. */
	for (size_t i = 0; i < m->n_caches; i++)
		if (&m->caches[i] != c && m->caches[i].has_queues)
			p.other_bytes += sleeb_autotune_queued_bytes(&p, m->caches[i].object_size, &m->caches[i].cur);
	return sleeb_learned_start(&p, c->object_size, plan, &e->orig, c->at_min, c->at_max, ret);
}

int manager_forget_learned(Manager *m, char *const *names, size_t n, char **text, struct sleeb_error *err)
{
	struct sleeb_sysfs_list l = { 0 };
	struct sleeb_state dropped = { 0 };
	int r;

	/* A dry run writes nothing, the learned sizes' file included. */
	if (m->opts.dry_run || !m->learned.path)
		return sleeb_error_set(err, EROFS, "sleebd runs with --dry-run and writes nothing; nothing forgotten");
	/* The names as this daemon's sysfs (its --root) has them now. */
	(void) sleeb_sysfs_list_caches(&l, NULL);
	r = sleeb_learned_forget(&m->learned, l.n ? &l : NULL, names, n, &dropped, err);
	sleeb_sysfs_list_free(&l);
	if (r < 0)
		return r;
	for (size_t i = 0; i < dropped.n; i++)
		log_info("%s: learned size forgotten (sleebctl learned --forget); its current size stays",
			 dropped.entries[i].cache);
	/* The save succeeded: a later failure of another one is news again. */
	m->learned_error_logged = false;
	*text = sleeb_learned_forgot_text(&dropped);
	sleeb_state_done(&dropped);
	return *text ? 0 : sleeb_error_set(err, ENOMEM, "out of memory");
}
