/* SPDX-License-Identifier: GPL-2.0-only */
/* The start of an auto-tuned cache from its learned size (sleeb/learned.h). */

#include "sleeb/learned.h"

static bool fits(const struct sleeb_autotune_params *p, uint64_t object_size, const struct sleeb_tunables *v)
{
	return p->budget_bytes == 0 ||
	       p->other_bytes + sleeb_autotune_queued_bytes(p, object_size, v) <= p->budget_bytes;
}

bool sleeb_learned_start(const struct sleeb_autotune_params *p, uint64_t object_size,
			 const struct sleeb_tunables *plan, const struct sleeb_tunables *learned, uint32_t min,
			 uint32_t max, struct sleeb_tunables *ret)
{
	uint32_t q = learned->v[SLEEB_TUNABLE_QUEUE], floor = plan->v[SLEEB_TUNABLE_QUEUE];
	struct sleeb_tunables v = *learned;

	if (sleeb_tunables_validate(learned, NULL) < 0 || q == 0)
		return false;
	/* The policy may have changed since: its bounds hold. */
	if (q < min || q > max)
		sleeb_autotune_scale(learned, q < min ? min : max, &v);
	while (!fits(p, object_size, &v)) {
		q = v.v[SLEEB_TUNABLE_QUEUE] / 2;
		if (q <= floor || q < min)
			return false;
		sleeb_autotune_scale(&v, q, &v);
	}
	*ret = v;
	return true;
}
