/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* The kernel's defaults, which the policy keyword "default" stands for. */

#include <stdint.h>

#include "sleeb/tunables.h"

/* The kernel's size-class defaults (the "default" keyword). */
void sleeb_kernel_defaults(uint64_t object_size, uint64_t page_size, struct sleeb_tunables *ret);
