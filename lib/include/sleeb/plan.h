/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * What sleebd does to one cache under a policy, computed once for both
 * tools: sleebd writes it, `sleebctl policy show` says it. The inputs are
 * the policy, the cache as the kernel shows it (name, merged aliases,
 * object size, current values) and the original sleebd recorded before
 * its first write, if any.
 *
 *  - A merged cache has several names (its name and its aliases); they
 *    are tried in byte order (strcmp), and the first one any section
 *    matches is the one whose settings are used: the same section
 *    whichever name the caller holds as the cache's name (/proc/slabinfo's
 *    for a rescan, the first sysfs link for a new cache's uevent).
 *  - Keys a policy leaves unset keep what the kernel had: the recorded
 *    original, or the current values when none is recorded (not a value
 *    an older policy wrote).
 *  - An AutoTune= cache starts with its queue inside AutoTuneMin..Max
 *    (defaults: sleeb_autotune_default_bounds()).
 *  - A cache no policy matches any more gets its recorded original back.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sleeb/error.h"
#include "sleeb/policy.h"
#include "sleeb/slabinfo.h"
#include "sleeb/tunables.h"

/* The cache as the kernel shows it. */
struct sleeb_plan_input {
	const char *name;
	const char *aliases;            /* comma-separated other names; NULL or "": none */
	uint64_t object_size;
	bool has_queues;                /* cpu_queue_size exists */
	struct sleeb_tunables current;
	const struct sleeb_tunables *original;  /* recorded by sleebd; NULL: none */
};

enum sleeb_plan_action {
	SLEEB_PLAN_NONE,                /* no queues, or no policy and nothing to undo */
	SLEEB_PLAN_POLICY,              /* a policy matches: target */
	SLEEB_PLAN_RESTORE,             /* no policy matches any more: target is the original */
	SLEEB_PLAN_INVALID,             /* the policy gives values the kernel would reject */
};

struct sleeb_plan {
	enum sleeb_plan_action action;
	struct sleeb_effective effective;       /* settings of the matched name */
	char matched_as[SLEEB_CACHE_NAME_MAX];  /* that name ("" when none matched) */
	struct sleeb_tunables target;           /* POLICY and RESTORE */
	bool from_original;                     /* unset keys came from the original */
	bool autotune;
	uint32_t autotune_min, autotune_max;    /* when autotune */
	bool clamped;                           /* the static queue was moved into the bounds */
	uint32_t unclamped_queue;               /* ... from this value */
};

/*
 * Plans one cache. Never fails as a call: a policy the cache cannot take
 * is SLEEB_PLAN_INVALID with the broken rule in err.
 */
void sleeb_plan_cache(const struct sleeb_policy *p, const struct sleeb_plan_input *in, uint64_t page_size,
		      struct sleeb_plan *ret, struct sleeb_error *err);

/*
 * The settings for one cache given all its names (in->name and
 * in->aliases; only those and in->object_size are read): the first name
 * in byte order that a section matches, its effective settings in *ret
 * and itself in matched_as ("" and ret->matched false when none).
 */
void sleeb_plan_match(const struct sleeb_policy *p, const struct sleeb_plan_input *in, struct sleeb_effective *ret,
		      char *matched_as, size_t size);

/* "none", "policy", "restore", "invalid". */
const char *sleeb_plan_action_to_string(enum sleeb_plan_action a);
