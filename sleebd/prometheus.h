/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

typedef struct Manager Manager;

/*
 * Rewrites PrometheusTextfile= (if set) atomically with per-cache queue
 * sizes and the change counter, for node_exporter's textfile collector.
 * Returns 0 or -errno.
 */
int prometheus_write(Manager *m);
