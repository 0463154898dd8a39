/* SPDX-License-Identifier: GPL-2.0-only */
/* Prometheus textfile exporter. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manager.h"
#include "prometheus.h"

/* Label values escape backslash, quote and newline. */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
}

static void metric(FILE *f, Manager *m, const char *name, const char *help, int which)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (size_t i = 0; i < m->n_caches; i++) {
		const struct cache *c = &m->caches[i];

		if (!c->has_queues)
			continue;
		fprintf(f, "%s{cache=\"", name);
		label(f, c->name);
		fprintf(f, "\"} %u\n", c->cur.v[which]);
	}
}

int prometheus_write(Manager *m)
{
	const char *path = m->config.prometheus_textfile;
	char *tmp;
	FILE *f;
	int r = 0;

	if (!path)
		return 0;
	/* node_exporter must never read half a file: write aside, rename. */
	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	f = fopen(tmp, "we");
	if (!f) {
		r = -errno;
		free(tmp);
		return r;
	}
	metric(f, m, "sleeb_cpu_queue_size", "Per-cpu object queue size.", SLEEB_TUNABLE_QUEUE);
	metric(f, m, "sleeb_cpu_batch_size", "Objects moved per refill or drain.", SLEEB_TUNABLE_BATCH);
	metric(f, m, "sleeb_shared_queue_size", "Per-node shared queue size.", SLEEB_TUNABLE_SHARED);
	fprintf(f, "# HELP sleebd_changes_total Tunable changes made by sleebd.\n"
		   "# TYPE sleebd_changes_total counter\nsleebd_changes_total %u\n", m->n_changes);
	fprintf(f, "# HELP sleebd_monitor_only 1 if the kernel has no SLEEB queues.\n"
		   "# TYPE sleebd_monitor_only gauge\nsleebd_monitor_only %d\n", m->monitor_only);
	if (fclose(f) != 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		(void) unlink(tmp);
	free(tmp);
	return r;
}
