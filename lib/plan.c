/* SPDX-License-Identifier: GPL-2.0-only */
/* One cache's plan under a policy, for sleebd and sleebctl (see sleeb/plan.h). */

#include <stdio.h>
#include <string.h>

#include "sleeb/autotune.h"
#include "sleeb/defaults.h"
#include "sleeb/plan.h"

static const char *const actions[] = {
	[SLEEB_PLAN_NONE] = "none",
	[SLEEB_PLAN_POLICY] = "policy",
	[SLEEB_PLAN_RESTORE] = "restore",
	[SLEEB_PLAN_INVALID] = "invalid",
};

const char *sleeb_plan_action_to_string(enum sleeb_plan_action a)
{
	return (unsigned) a < sizeof(actions) / sizeof(actions[0]) ? actions[a] : NULL;
}

/* Calls fn for the name and then each alias (a name too long for a cache
 * name is no cache's name, and skipped); stops when fn returns true. */
static void for_each_name(const struct sleeb_plan_input *in, bool (*fn)(const char *name, void *userdata),
			  void *userdata)
{
	const char *a = in->aliases;

	if (fn(in->name, userdata))
		return;
	while (a && *a) {
		size_t len = strcspn(a, ",");
		char alias[SLEEB_CACHE_NAME_MAX];

		if (len > 0 && len < sizeof(alias)) {
			memcpy(alias, a, len);
			alias[len] = '\0';
			if (fn(alias, userdata))
				return;
		}
		a += len + (a[len] == ',');
	}
}

struct match_ctx {
	const struct sleeb_policy *p;
	uint64_t object_size;
	struct sleeb_effective *ret;
	bool tried;
	char *best;             /* the first matched name in byte order so far */
	size_t size;
};

static bool try_name(const char *name, void *userdata)
{
	struct match_ctx *m = userdata;
	struct sleeb_effective e;

	if (m->best[0] && strcmp(name, m->best) >= 0)
		return false;
	sleeb_policy_effective(m->p, name, m->object_size, &e);
	/* The first try fills *ret even unmatched: none matched, none set. */
	if (e.matched || !m->tried)
		*m->ret = e;
	m->tried = true;
	if (e.matched)
		snprintf(m->best, m->size, "%s", name);
	return false;
}

void sleeb_plan_match(const struct sleeb_policy *p, const struct sleeb_plan_input *in, struct sleeb_effective *ret,
		      char *matched_as, size_t size)
{
	struct match_ctx m = {
		.p = p, .object_size = in->object_size, .ret = ret, .best = matched_as, .size = size,
	};

	matched_as[0] = '\0';
	for_each_name(in, try_name, &m);
}

void sleeb_plan_cache(const struct sleeb_policy *p, const struct sleeb_plan_input *in, uint64_t page_size,
		      struct sleeb_plan *ret, struct sleeb_error *err)
{
	const struct sleeb_effective *e = &ret->effective;
	struct sleeb_tunables target;

	memset(ret, 0, sizeof(*ret));
	sleeb_plan_match(p, in, &ret->effective, ret->matched_as, sizeof(ret->matched_as));
	if (!in->has_queues)
		return;
	if (!e->matched) {
		/* Changed by an earlier policy that no longer applies. */
		if (in->original) {
			ret->action = SLEEB_PLAN_RESTORE;
			ret->target = *in->original;
		}
		return;
	}

	ret->from_original = in->original != NULL;
	if (sleeb_effective_resolve(e, in->original ? in->original : &in->current, in->object_size, page_size,
				    &target, err) < 0) {
		ret->action = SLEEB_PLAN_INVALID;
		return;
	}

	ret->autotune = e->autotune.value == 1;
	if (ret->autotune) {
		uint32_t q = target.v[SLEEB_TUNABLE_QUEUE], dq;
		struct sleeb_tunables def;

		sleeb_kernel_defaults(in->object_size, page_size, &def);
		dq = def.v[SLEEB_TUNABLE_QUEUE];
		sleeb_autotune_default_bounds(dq, &ret->autotune_min, &ret->autotune_max);
		if (e->autotune_min.value > 0)
			ret->autotune_min = (uint32_t) e->autotune_min.value;
		else if (e->autotune_min.value == SLEEB_VALUE_DEFAULT)
			ret->autotune_min = dq;
		if (e->autotune_max.value > 0)
			ret->autotune_max = (uint32_t) e->autotune_max.value;
		else if (e->autotune_max.value == SLEEB_VALUE_DEFAULT)
			ret->autotune_max = dq;
		if (ret->autotune_min > ret->autotune_max)
			ret->autotune_max = ret->autotune_min;
		if (q > ret->autotune_max)
			sleeb_autotune_scale(&target, ret->autotune_max, &target);
		else if (q > 0 && q < ret->autotune_min)
			sleeb_autotune_scale(&target, ret->autotune_min, &target);
		ret->clamped = target.v[SLEEB_TUNABLE_QUEUE] != q;
		ret->unclamped_queue = q;
	}
	ret->action = SLEEB_PLAN_POLICY;
	ret->target = target;
}
