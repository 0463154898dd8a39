/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebd logging: journal with fields, or stderr. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-journal.h>

#include "log.h"

static bool use_journal;
static int max_level = LOG_INFO;

void log_setup(void)
{
	use_journal = getenv("JOURNAL_STREAM") || getenv("INVOCATION_ID");
}

void log_set_max_level(int prio)
{
	max_level = prio;
}

int log_full(int prio, int error, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (error < 0)
		error = -error;
	if (prio > max_level)
		return -error;

	/* The error is said once, where the message puts %m: callers pass
	 * it as the argument, not again as strerror() text. */
	errno = error;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	if (use_journal) {
		if (error)
			sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%i", prio, "ERRNO=%i", error, NULL);
		else
			sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%i", prio, NULL);
	} else
		fprintf(stderr, "sleebd: %s\n", msg);
	return -error;
}

static void format_values(char *buf, size_t len, const struct sleeb_tunables *t)
{
	snprintf(buf, len, "%u/%u/%u", t->v[SLEEB_TUNABLE_QUEUE], t->v[SLEEB_TUNABLE_BATCH],
		 t->v[SLEEB_TUNABLE_SHARED]);
}

void log_change(const char *cache, const struct sleeb_tunables *old, const struct sleeb_tunables *new,
		const char *kind, const char *reason, bool dry_run)
{
	char o[48], n[48];

	format_values(o, sizeof(o), old);
	format_values(n, sizeof(n), new);

	if (use_journal)
		sd_journal_send("MESSAGE=%s%s: queue/batch/shared %s -> %s (%s)", dry_run ? "dry run: " : "",
				cache, o, n, reason, "PRIORITY=%i", LOG_NOTICE, "CACHE=%s", cache, "OLD=%s", o,
				"NEW=%s", n, "DECISION=%s", kind, "REASON=%s", reason, "SLEEB_DRY_RUN=%i", dry_run,
				NULL);
	else if (LOG_NOTICE <= max_level)
		fprintf(stderr, "sleebd: %s%s: queue/batch/shared %s -> %s (%s)\n", dry_run ? "dry run: " : "",
			cache, o, n, reason);
}
