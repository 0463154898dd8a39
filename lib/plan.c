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

/* By the name, then by each merged alias: the first that matches wins. */
static void effective_for(const struct sleeb_policy *p, const struct sleeb_plan_input *in, struct sleeb_plan *ret)
{
	const char *a = in->aliases;

	sleeb_policy_effective(p, in->name, in->object_size, &ret->effective);
	if (ret->effective.matched) {
		snprintf(ret->matched_as, sizeof(ret->matched_as), "%s", in->name);
		return;
	}
	while (a && *a) {
		size_t len = strcspn(a, ",");
		char alias[SLEEB_CACHE_NAME_MAX];

		/* A name too long for a cache name is no cache's name. */
		if (len > 0 && len < sizeof(alias)) {
			memcpy(alias, a, len);
			alias[len] = '\0';
			sleeb_policy_effective(p, alias, in->object_size, &ret->effective);
			if (ret->effective.matched) {
				snprintf(ret->matched_as, sizeof(ret->matched_as), "%s", alias);
				return;
			}
		}
		a += len + (a[len] == ',');
	}
}

void sleeb_plan_cache(const struct sleeb_policy *p, const struct sleeb_plan_input *in, uint64_t page_size,
		      struct sleeb_plan *ret, struct sleeb_error *err)
{
	const struct sleeb_effective *e = &ret->effective;
	struct sleeb_tunables target;

	memset(ret, 0, sizeof(*ret));
	effective_for(p, in, ret);
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
		uint32_t q = target.v[SLEEB_TUNABLE_QUEUE];

		sleeb_autotune_default_bounds(in->object_size, page_size, &ret->autotune_min, &ret->autotune_max);
		if (e->autotune_min.value > 0)
			ret->autotune_min = (uint32_t) e->autotune_min.value;
		if (e->autotune_max.value > 0)
			ret->autotune_max = (uint32_t) e->autotune_max.value;
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
