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
	uint64_t autotune_target_trips; /* AutoTuneTargetTrips=: per 1000 operations */
	struct sleeb_origin autotune_target_trips_origin;
	uint64_t autotune_min_trip_rate; /* AutoTuneMinTripRate=: trips per second */
	struct sleeb_origin autotune_min_trip_rate_origin;
	uint64_t autotune_trips_per_mib; /* AutoTuneTripsPerMiB=: trips per second per MiB a grow adds, 0: off */
	struct sleeb_origin autotune_trips_per_mib_origin;
	uint64_t autotune_smoothing;    /* AutoTuneSmoothing=: percent */
	struct sleeb_origin autotune_smoothing_origin;
	uint64_t autotune_reap_shrink;  /* AutoTuneReapShrink=: percent */
	struct sleeb_origin autotune_reap_shrink_origin;
	uint64_t autotune_memory_low;   /* AutoTuneMemoryLow=: percent of MemTotal, 0: off */
	struct sleeb_origin autotune_memory_low_origin;
	uint64_t autotune_memory_pressure; /* AutoTuneMemoryPressure=: PSI some avg10, 0: off */
	struct sleeb_origin autotune_memory_pressure_origin;
	char **files;                   /* files read */
	size_t n_files;
};

#define SLEEB_DEFAULT_INTERVAL_USEC (2ULL * 1000000ULL)

/*
 * MaxQueuedMemory= by default: 10% of MemTotal. It bounds the queues'
 * capacity (object size x (queue x cpus + shared x nodes)), which they
 * reach only at a burst's peak: the reaper gives an idle queue's objects
 * back within seconds, and a fork workload on every cpu left 0.7-1.3% of
 * the bound queued (docs/benchmarks.md). The default sizes of every cache
 * of the test guest (4 cpus, 2 nodes, 2 GiB, RANDOM_KMALLOC_CACHES) are
 * about 80 MB of capacity, 4% (sleebd's own count in vm-daemon's
 * 60-autotune.sh); 5% left room for two 8 KiB caches at 256 objects. 10%
 * lets the busiest caches grow several-fold (grows fill 7/8 of it),
 * while the bound stays a tenth of memory.
 */
#define SLEEB_DEFAULT_MAX_QUEUED_PERCENT 10

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
 * set (none today). Returns 0, -EINVAL (error in diag), -ENOMEM.
 */
int sleeb_daemon_config_check(const struct sleeb_daemon_config *c, struct sleeb_diag *diag);

/* Budget in bytes given MemTotal; 0 means unlimited. */
uint64_t sleeb_daemon_config_budget(const struct sleeb_daemon_config *c, uint64_t memtotal_bytes);
