/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl set and the writers' lock (see set-lock.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "set-lock.h"
#include "sleeb/cache.h"
#include "sleeb/lock.h"
#include "sleeb/plan.h"
#include "sleeb/root.h"
#include "sleeb/tunables.h"
#include "sleeb/util.h"

/* A --once is one pass over the caches: seconds at most. */
#define SET_LOCK_WAIT_SEC 10

int set_lock_take(struct set_lock *l, const char *config_root)
{
	struct sleeb_lock_holder holder = { 0 };
	struct sleeb_error err = { 0 };
	struct sleeb_diag diag = { 0 };
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
	if (r < 0 || sleeb_state_load(&l->managed, path, NULL, NULL) < 0)
		sleeb_state_done(&l->managed);
	/* And the policy, for the caches it gives a target without sleebd
	 * ever writing them (the target was already there). A policy with
	 * errors is not the one in force (sleebd refuses such a reload):
	 * then only the state file tells. */
	r = sleeb_policy_load(&l->policy, config_root, &diag);
	l->have_policy = r == 0;
	if (r < 0)
		sleeb_policy_done(&l->policy);
	sleeb_diag_done(&diag);
	return 0;
}

/* What sleebd plans for this cache has a target. */
static bool policy_targets(const struct set_lock *l, const struct sleeb_sysfs_list *list, const char *id)
{
	struct sleeb_plan_input in = { .has_queues = true };
	struct sleeb_error err = { 0 };
	char aliases[SLEEB_ALIASES_MAX];
	struct sleeb_plan plan;
	uint64_t size;
	long ps = sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < list->n && !in.name; i++)
		if (strcmp(list->entries[i].id, id) == 0 && list->entries[i].name[0] != ':')
			in.name = list->entries[i].name;
	if (!in.name)
		return false;
	if (sleeb_sysfs_list_aliases(list, in.name, aliases, sizeof(aliases)) != 0)
		in.aliases = aliases;   /* cut short: the names that fit still match */
	if (sleeb_sysfs_read_u64(id, "object_size", &size, &err) < 0 ||
	    sleeb_tunables_read(id, &in.current, &err) < 0)
		return false;
	in.object_size = size;
	sleeb_plan_cache(&l->policy, &in, ps > 0 ? (uint64_t) ps : 4096, &plan, &err);
	return plan.action == SLEEB_PLAN_POLICY;
}

bool set_lock_daemon_manages(const struct set_lock *l, const struct sleeb_sysfs_list *list, const char *id)
{
	if (!l->daemon_pid)
		return false;
	/* The state file is keyed by the id (v2) or by a name (v1). */
	for (size_t i = 0; i < list->n; i++)
		if (strcmp(list->entries[i].id, id) == 0 && sleeb_state_find(&l->managed, list->entries[i].name))
			return true;
	if (sleeb_state_find(&l->managed, id))
		return true;
	return l->have_policy && policy_targets(l, list, id);
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
	if (l->have_policy)
		sleeb_policy_done(&l->policy);
	l->have_policy = false;
}
