/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Policy files (sleeb-policy(5)) and the daemon configuration
 * (sleebd.conf(5)): systemd-style INI parsing, directory masking, and the
 * effective settings per cache with the file:line each value came from.
 *
 * Errors are collected, not printed: every problem becomes one
 * "file:line: what is wrong" string in a struct sleeb_diag, so that
 * `sleebctl policy verify` can list all of them and sleebd can log them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sleeb/error.h"
#include "sleeb/tunables.h"

/* A tunable value in a policy: a number, "default", or not set. */
#define SLEEB_VALUE_UNSET   (-1)
#define SLEEB_VALUE_DEFAULT (-2)

/* Name of the policy key of a tunable ("CpuQueueSize", ...). */
const char *sleeb_tunable_key(enum sleeb_tunable t);

/* Where a value came from. file points into the policy's file list. */
struct sleeb_origin {
	const char *file;
	unsigned line;
};

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

/* Diagnostics: "file:line: message" strings. */
struct sleeb_diag {
	char **msgs;
	size_t n;
};

void sleeb_diag_done(struct sleeb_diag *d);
/* Appends a formatted message. Returns 0 or -ENOMEM. */
int sleeb_diag_add(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The three policy directories, earliest (highest priority) first. */
extern const char *const sleeb_policy_dirs[];

/*
 * Lists "*.conf" in dirs (each prefixed with root, which may be NULL or
 * "" for "/"): a file in an earlier directory masks one of the same name in
 * a later one; the survivors are sorted by file name. *ret is a
 * NULL-terminated array of full paths (free with sleeb_strv_free).
 * Missing directories are fine. Returns 0, -ENOMEM, or -errno from
 * opendir() for a directory that exists but cannot be read.
 */
int sleeb_conf_files_list(const char *root, const char *const *dirs, char ***ret);

void sleeb_strv_free(char **l);

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

/* The kernel's size-class defaults (the "default" keyword). */
void sleeb_kernel_defaults(uint64_t object_size, uint64_t page_size, struct sleeb_tunables *ret);

/*
 * Turns the effective settings into the values to write, starting from
 * the current values: unset keys keep the current value, "default" keys
 * take the kernel default. Returns 0, or -EINVAL if the combination
 * breaks the kernel's rules (sleeb_tunables_validate(); err explains).
 */
int sleeb_effective_resolve(const struct sleeb_effective *e, const struct sleeb_tunables *current,
			    uint64_t object_size, uint64_t page_size,
			    struct sleeb_tunables *ret, struct sleeb_error *err);

/* Daemon settings ([Daemon] in sleebd.conf and its drop-ins). */
struct sleeb_daemon_config {
	uint64_t interval_usec;
	struct sleeb_origin interval_origin;
	bool rollback;
	struct sleeb_origin rollback_origin;
	uint64_t max_queued_bytes;      /* 0: none, unless percent set */
	unsigned max_queued_percent;    /* 0: bytes apply */
	struct sleeb_origin max_queued_origin;
	char *prometheus_textfile;      /* NULL: none */
	struct sleeb_origin prometheus_origin;
	/* Auto-tuning marks (struct sleeb_autotune_params); origins of
	 * values still at their defaults have file NULL. */
	uint64_t autotune_grow_rate;    /* AutoTuneGrowRate=: refills+drains/s/cpu */
	struct sleeb_origin autotune_grow_rate_origin;
	uint64_t autotune_idle_flow;    /* AutoTuneIdleFlow=: objects/s/cpu */
	struct sleeb_origin autotune_idle_flow_origin;
	uint64_t autotune_grow_after;   /* AutoTuneGrowAfter=: intervals */
	struct sleeb_origin autotune_grow_after_origin;
	uint64_t autotune_shrink_after; /* AutoTuneShrinkAfter=: intervals */
	struct sleeb_origin autotune_shrink_after_origin;
	uint64_t autotune_cooldown;     /* AutoTuneCooldown=: intervals */
	struct sleeb_origin autotune_cooldown_origin;
	char **files;                   /* files read */
	size_t n_files;
};

#define SLEEB_DEFAULT_INTERVAL_USEC (2ULL * 1000000ULL)

void sleeb_daemon_config_init(struct sleeb_daemon_config *c);
void sleeb_daemon_config_done(struct sleeb_daemon_config *c);

/*
 * Loads <root>/etc/sleeb/sleebd.conf (may be missing) and then the
 * sleebd.conf.d/ drop-ins from /etc, /run and /usr/lib (masking as for
 * policies), then sleeb_daemon_config_check(). Returns 0, -EINVAL (errors
 * in diag), -ENOMEM.
 */
int sleeb_daemon_config_load(struct sleeb_daemon_config *c, const char *root, struct sleeb_diag *diag);

/* One file or buffer into c; as sleeb_policy_load_file(). */
int sleeb_daemon_config_load_file(struct sleeb_daemon_config *c, const char *path, struct sleeb_diag *diag);
int sleeb_daemon_config_load_buffer(struct sleeb_daemon_config *c, const char *name,
				    const char *buf, size_t len, struct sleeb_diag *diag);

/*
 * Rules between keys that may come from different files, for a complete
 * set: AutoTuneIdleFlow= must not be above AutoTuneGrowRate= (or a shrink
 * could push a steady load back over the grow mark). Returns 0, -EINVAL
 * (error in diag), -ENOMEM.
 */
int sleeb_daemon_config_check(const struct sleeb_daemon_config *c, struct sleeb_diag *diag);

/* Budget in bytes given MemTotal; 0 means unlimited. */
uint64_t sleeb_daemon_config_budget(const struct sleeb_daemon_config *c, uint64_t memtotal_bytes);
