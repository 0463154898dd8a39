/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

typedef struct Manager Manager;

/*
 * Rewrites PrometheusTextfile= (if set) atomically, mode 0644, for
 * node_exporter's textfile collector: per cache the tunables, slabinfo
 * objects and memory and the queue_stats counters; per daemon the
 * decisions by reason, failures, refused loads, the last clean apply and
 * monitor-only (sleebd.conf(5) lists them). Returns 0 or -errno.
 */
int prometheus_write(Manager *m);
