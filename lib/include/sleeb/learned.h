/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Where an auto-tuned cache starts when sleebd takes it (at start, or
 * when the cache appears): at the size auto-tuning last gave it (the
 * learned sizes, sleeb/state.h), within what its policy and the budget
 * allow now. Pure, as the decisions are.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sleeb/autotune.h"
#include "sleeb/tunables.h"

/*
 * The start for a cache of object_size whose plan is plan, auto-tuned
 * within queue sizes min..max, that learned learned: learned itself when
 * its queue is within min..max, else scaled to the nearer bound as a
 * decision would; then, while it and p->other_bytes (what every other
 * cache queues) exceed p->budget_bytes (0: no budget), its queue halved,
 * but never below the plan's. Returns true with the start in *ret, or
 * false (*ret untouched) when the plan stands: learned is not a state the
 * kernel can be in, or no size above the plan's fits the budget.
 */
bool sleeb_learned_start(const struct sleeb_autotune_params *p, uint64_t object_size,
			 const struct sleeb_tunables *plan, const struct sleeb_tunables *learned, uint32_t min,
			 uint32_t max, struct sleeb_tunables *ret);
