/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Policy files (sleeb-policy(5)): the [Cache] sections as written, and
 * the effective settings per cache with the file:line each value came
 * from. The INI reader and its diagnostics are in ini.h, the drop-in
 * masking in dropin.h, the daemon's own configuration in daemon-config.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sleeb/error.h"
#include "sleeb/ini.h"
#include "sleeb/tunables.h"

/* A tunable value in a policy: a number, "default", or not set. */
#define SLEEB_VALUE_UNSET   (-1)
#define SLEEB_VALUE_DEFAULT (-2)

/* Name of the policy key of a tunable ("CpuQueueSize", ...). */
const char *sleeb_tunable_key(enum sleeb_tunable t);

struct sleeb_setting {
	int64_t value;            /* >= 0, SLEEB_VALUE_DEFAULT or SLEEB_VALUE_UNSET */
	struct sleeb_origin origin;
};

/* One [Cache] section, as written. */
struct sleeb_cache_section {
	struct sleeb_origin origin;     /* the [Cache] line */
	char **match;                   /* NULL-terminated globs */
	struct sleeb_origin match_origin;
	struct sleeb_setting min_object_size;   /* bytes or UNSET */
	struct sleeb_setting max_object_size;
	struct sleeb_setting tunable[_SLEEB_TUNABLE_MAX];
	struct sleeb_setting autotune;          /* 0, 1 or UNSET */
	struct sleeb_setting autotune_min;
	struct sleeb_setting autotune_max;
};

struct sleeb_policy {
	char **files;                   /* every file read, in apply order */
	size_t n_files;
	struct sleeb_cache_section *sections;
	size_t n_sections;
};

/* The three policy directories, earliest (highest priority) first. */
extern const char *const sleeb_policy_dirs[];

/*
 * Parses one policy file and appends its sections to p. Problems are added
 * to diag. Returns 0 if the file was clean, -EINVAL if diag got errors,
 * -errno if the file could not be read (also added to diag), -ENOMEM.
 */
int sleeb_policy_load_file(struct sleeb_policy *p, const char *path, struct sleeb_diag *diag);

/* Same, from a buffer; name is used in messages. */
int sleeb_policy_load_buffer(struct sleeb_policy *p, const char *name,
			     const char *buf, size_t len, struct sleeb_diag *diag);

/*
 * Loads the installed set: sleeb_conf_files_list(root, sleeb_policy_dirs)
 * and every file in order. Returns 0, -EINVAL (errors in diag), -ENOMEM.
 */
int sleeb_policy_load(struct sleeb_policy *p, const char *root, struct sleeb_diag *diag);

void sleeb_policy_done(struct sleeb_policy *p);

/*
 * Effective settings for one cache: every matching section applied in
 * order, later keys winning. matched is false when no section matched.
 */
struct sleeb_effective {
	bool matched;
	struct sleeb_setting tunable[_SLEEB_TUNABLE_MAX];
	struct sleeb_setting autotune;
	struct sleeb_setting autotune_min;
	struct sleeb_setting autotune_max;
};

void sleeb_policy_effective(const struct sleeb_policy *p, const char *cache,
			    uint64_t object_size, struct sleeb_effective *ret);

/*
 * Turns the effective settings into the values to write, starting from
 * the current values: unset keys keep the current value, "default" keys
 * take the kernel default. Returns 0, or -EINVAL if the combination
 * breaks the kernel's rules (sleeb_tunables_validate(); err explains).
 */
int sleeb_effective_resolve(const struct sleeb_effective *e, const struct sleeb_tunables *current,
			    uint64_t object_size, uint64_t page_size,
			    struct sleeb_tunables *ret, struct sleeb_error *err);
