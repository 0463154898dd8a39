/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Prometheus textfile export for node_exporter's textfile collector: the
 * text exposition format, written next to the target and renamed over it
 * so a scrape never sees half a file. The metrics are listed in
 * sleebd.conf(5); the unit test compares the whole file, so a change here
 * is a change there.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manager.h"
#include "prometheus.h"

/* Label values escape backslash, double quote and newline. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void header(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One per-cache value; false when the cache has none. */
typedef bool (*cache_value_fn)(const struct cache *c, unsigned arg, uint64_t *ret);

static bool get_tunable(const struct cache *c, unsigned arg, uint64_t *ret)
{
	if (!c->has_queues)
		return false;
	*ret = c->cur.v[arg];
	return true;
}

static bool get_active_objs(const struct cache *c, unsigned arg, uint64_t *ret)
{
	(void) arg;
	*ret = c->active_objs;
	return c->has_slabinfo;
}

static bool get_num_objs(const struct cache *c, unsigned arg, uint64_t *ret)
{
	(void) arg;
	*ret = c->num_objs;
	return c->has_slabinfo;
}

static bool get_slab_bytes(const struct cache *c, unsigned arg, uint64_t *ret)
{
	(void) arg;
	*ret = c->slab_bytes;
	return c->has_slabinfo;
}

static bool get_qstat(const struct cache *c, unsigned arg, uint64_t *ret)
{
	if (!c->has_stats || !(c->stats.present & (1u << arg)))
		return false;
	*ret = c->stats.value[arg];
	return true;
}

/* One metric family with a cache= label; nothing at all if no cache has a value. */
static void cache_family(FILE *f, const Manager *m, const char *name, const char *type, const char *help,
			 cache_value_fn get, unsigned arg)
{
	bool started = false;

	for (size_t i = 0; i < m->n_caches; i++) {
		const struct cache *c = &m->caches[i];
		uint64_t v;

		if (!get(c, arg, &v))
			continue;
		if (!started)
			header(f, name, type, help);
		started = true;
		fprintf(f, "%s{cache=\"", name);
		label(f, c->name);
		fprintf(f, "\"} %" PRIu64 "\n", v);
	}
}

/* queue_stats counters, one family each, named after the kernel's lines. */
static const struct {
	const char *name;
	const char *help;
} qstat_metrics[_SLEEB_QSTAT_MAX] = {
	[SLEEB_QSTAT_ALLOC_REFILL] = { "sleeb_queue_alloc_refill_total",
		"Refills of a per-cpu queue (queue_stats alloc_refill)." },
	[SLEEB_QSTAT_FREE_DRAIN] = { "sleeb_queue_free_drain_total",
		"Drains of a full per-cpu queue (queue_stats free_drain)." },
	[SLEEB_QSTAT_SHARED_ALLOC_HIT] = { "sleeb_queue_shared_alloc_hit_total",
		"Refills that found objects in the shared queue (queue_stats shared_alloc_hit)." },
	[SLEEB_QSTAT_SHARED_ALLOC_MISS] = { "sleeb_queue_shared_alloc_miss_total",
		"Refills that found the shared queue empty (queue_stats shared_alloc_miss)." },
	[SLEEB_QSTAT_SHARED_FREE] = { "sleeb_queue_shared_free_total",
		"Objects drained into a shared queue (queue_stats shared_free)." },
	[SLEEB_QSTAT_SHARED_OVERFLOW] = { "sleeb_queue_shared_overflow_total",
		"Drains that found the shared queue full (queue_stats shared_overflow)." },
	[SLEEB_QSTAT_REMOTE_FREE] = { "sleeb_queue_remote_free_total",
		"Objects of another node freed here, batched to that node's shared queue (queue_stats remote_free)." },
	[SLEEB_QSTAT_REMOTE_ALLOC] = { "sleeb_queue_remote_alloc_total",
		"Allocations for another node served from its shared queue (queue_stats remote_alloc)." },
	[SLEEB_QSTAT_REAP_DRAINED] = { "sleeb_queue_reap_drained_total",
		"Objects the periodic reaper gave back to the slabs (queue_stats reap_drained)." },
	[SLEEB_QSTAT_RESIZE] = { "sleeb_queue_resize_total",
		"Changes of the queue sizes (queue_stats resize)." },
	[SLEEB_QSTAT_FASTPATH_OPS] = { "sleeb_queue_fastpath_ops_total",
		"Allocations and frees served by a per-cpu queue (queue_stats fastpath_ops)." },
	[SLEEB_QSTAT_ARRAY_FAIL] = { "sleeb_queue_array_fail_total",
		"Queue array allocations that failed (queue_stats array_fail)." },
	[SLEEB_QSTAT_REFILL_NOMEM] = { "sleeb_queue_refill_nomem_total",
		"Refills the node's slabs could not serve (queue_stats refill_nomem)." },
	[SLEEB_QSTAT_BULK_ALLOC] = { "sleeb_queue_bulk_alloc_total",
		"Objects bulk allocations took from a per-cpu queue (queue_stats bulk_alloc)." },
	[SLEEB_QSTAT_BULK_FREE] = { "sleeb_queue_bulk_free_total",
		"Objects bulk frees passed to the queues (queue_stats bulk_free)." },
	[SLEEB_QSTAT_RESIZE_DRAINED] = { "sleeb_queue_resize_drained_total",
		"Objects a resize gave back because they did not fit (queue_stats resize_drained)." },
};

static void write_metrics(FILE *f, const Manager *m)
{
	cache_family(f, m, "sleeb_cpu_queue_size", "gauge",
		     "Per-cpu object queue size in objects (sysfs cpu_queue_size).", get_tunable, SLEEB_TUNABLE_QUEUE);
	cache_family(f, m, "sleeb_cpu_batch_size", "gauge",
		     "Objects moved per refill or drain of a per-cpu queue (sysfs cpu_batch_size).", get_tunable,
		     SLEEB_TUNABLE_BATCH);
	cache_family(f, m, "sleeb_shared_queue_size", "gauge",
		     "Per-node shared queue size in objects, 0 for none (sysfs shared_queue_size).", get_tunable,
		     SLEEB_TUNABLE_SHARED);
	cache_family(f, m, "sleeb_active_objects", "gauge",
		     "Objects in use or waiting in the object queues (/proc/slabinfo active_objs).", get_active_objs, 0);
	cache_family(f, m, "sleeb_total_objects", "gauge",
		     "Objects the cache's slabs hold, used or free (/proc/slabinfo num_objs).", get_num_objs, 0);
	cache_family(f, m, "sleeb_slab_memory_bytes", "gauge",
		     "Memory in the cache's slabs: num_slabs x pagesperslab x page size (/proc/slabinfo).",
		     get_slab_bytes, 0);
	for (unsigned s = 0; s < _SLEEB_QSTAT_MAX; s++)
		if (qstat_metrics[s].name)
			cache_family(f, m, qstat_metrics[s].name, "counter", qstat_metrics[s].help, get_qstat, s);

	/* Every reason, also at 0: rate() needs the series before the first increase. */
	header(f, "sleeb_decisions_total", "counter",
	       "Tunable changes sleebd decided (each a journal entry with REASON=), by reason.");
	for (unsigned r = 0; r < _DECISION_MAX; r++) {
		fputs("sleeb_decisions_total{reason=\"", f);
		label(f, decision_reason_to_string(r));
		fprintf(f, "\"} %" PRIu64 "\n", m->n_decisions[r]);
	}
	header(f, "sleeb_apply_failures_total", "counter",
	       "Tunable writes the kernel refused and policies that give a cache invalid values.");
	fprintf(f, "sleeb_apply_failures_total %u\n", m->n_failures);
	header(f, "sleeb_policy_load_errors_total", "counter",
	       "Loads of sleebd.conf and the policy refused because of errors (the old ones stay in force).");
	fprintf(f, "sleeb_policy_load_errors_total %" PRIu64 "\n", m->n_load_errors);
	header(f, "sleeb_last_apply_timestamp_seconds", "gauge",
	       "Unix time of the last pass over the caches in which nothing failed, 0 if none.");
	fprintf(f, "sleeb_last_apply_timestamp_seconds %" PRIu64 ".%03" PRIu64 "\n", m->last_apply_usec / 1000000,
		m->last_apply_usec / 1000 % 1000);
	header(f, "sleeb_monitor_only", "gauge", "1 if the kernel has no SLEEB queues and sleebd only watches.");
	fprintf(f, "sleeb_monitor_only %d\n", m->monitor_only);
}

int prometheus_write(Manager *m)
{
	const char *path = m->config.prometheus_textfile, *slash;
	char *tmp;
	FILE *f;
	int fd, r = 0;

	if (!path)
		return 0;
	/* Beside the target, so rename(2) is atomic, and hidden:
	 * "<dir>/.<name>.tmp" (node_exporter reads only *.prom anyway). The
	 * path is absolute, sleebd.conf makes sure of that. */
	slash = strrchr(path, '/');
	if (!slash)
		return -EINVAL;
	if (asprintf(&tmp, "%.*s/.%s.tmp", (int) (slash - path), path, slash + 1) < 0)
		return -ENOMEM;
	/* The directory may belong to node_exporter's user: never follow
	 * or reuse a file someone else put there. */
	if (unlink(tmp) < 0 && errno != ENOENT) {
		r = -errno;
		goto finish;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = -errno;
		goto finish;
	}
	/* Readable by node_exporter whatever the umask. */
	if (fchmod(fd, 0644) < 0) {
		r = -errno;
		close(fd);
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		goto fail;
	}
	write_metrics(f, m);
	if (ferror(f))
		r = -EIO;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
fail:
	if (r < 0)
		(void) unlink(tmp);
finish:
	free(tmp);
	return r;
}
