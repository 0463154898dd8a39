/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* The kernel's defaults, which the policy keyword "default" stands for. */

#include <stdint.h>

#include "sleeb/tunables.h"

/* The kernel's size-class defaults (the "default" keyword). */
void sleeb_kernel_defaults(uint64_t object_size, uint64_t page_size, struct sleeb_tunables *ret);

/*
 * AutoTuneMin= and AutoTuneMax= when a policy leaves them unset: a
 * quarter to eight times @default_queue, the kernel's default queue for
 * the size class (at least 1, at most SLEEB_QUEUE_MAX).
 */
void sleeb_autotune_default_bounds(uint32_t default_queue, uint32_t *min, uint32_t *max);
