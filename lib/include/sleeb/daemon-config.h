/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* sleebd's own configuration (sleebd.conf(5)). */

#include <stdbool.h>
#include <stdint.h>

#include "sleeb/ini.h"

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
