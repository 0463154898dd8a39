/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's size-class defaults (see sleeb/defaults.h). */

#include "sleeb/defaults.h"

void sleeb_kernel_defaults(uint64_t object_size, uint64_t page_size, struct sleeb_tunables *ret)
{
	uint32_t q;

	/* Mirrors the kernel's size classes (SLAB's enable_cpucache()). */
	if (object_size > 128 * 1024)
		q = 1;
	else if (object_size > page_size)
		q = 8;
	else if (object_size > 1024)
		q = 24;
	else if (object_size > 256)
		q = 54;
	else
		q = 120;
	ret->v[SLEEB_TUNABLE_QUEUE] = q;
	ret->v[SLEEB_TUNABLE_BATCH] = (q + 1) / 2;
	ret->v[SLEEB_TUNABLE_SHARED] = object_size <= page_size ? 8 * ((q + 1) / 2) : 0;
}

void sleeb_autotune_default_bounds(uint32_t q, uint32_t *min, uint32_t *max)
{
	*min = q / 4 ? q / 4 : 1;
	*max = q * 8 < SLEEB_QUEUE_MAX ? q * 8 : SLEEB_QUEUE_MAX;
}
