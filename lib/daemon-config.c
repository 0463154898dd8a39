/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebd.conf and its drop-ins: the [Daemon] section (see
 * sleeb/daemon-config.h), read with the INI reader of ini.c.
 */

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sleeb/autotune.h"
#include "sleeb/daemon-config.h"
#include "sleeb/dropin.h"
#include "sleeb/ini.h"
#include "sleeb/parse.h"
#include "sleeb/root.h"

static const char *const daemon_dropin_dirs[] = {
	"/etc/sleeb/sleebd.conf.d",
	"/run/sleeb/sleebd.conf.d",
	"/usr/lib/sleeb/sleebd.conf.d",
	NULL,
};

/* ---- daemon configuration --------------------------------------------- */

struct daemon_ctx {
	struct sleeb_daemon_config *c;
	struct sleeb_diag *diag;
	const char *file;       /* the copy in c->files (set by each callback) */
	bool in_daemon;
};

/*
 * Keys of the old auto-tuning (rates per second per cpu, N intervals in a
 * row, shrinking idle caches) whose meaning is gone: each fails, naming
 * what replaced it.
 */
static const struct {
	const char *key, *replacement;
} daemon_replaced[] = {
	{ "AutoTuneGrowRate", "AutoTuneTargetTrips= (slow-path trips per 1000 operations a cache is sized for) "
			      "and AutoTuneMinTripRate= (trips per second a change must save)" },
	{ "AutoTuneIdleFlow", "AutoTuneReapShrink= (a quiet cache is no longer shrunk: queues shrink when the "
			      "reaper returns most of what refills bring in, when memory is short, "
			      "AutoTuneMemoryLow= and AutoTuneMemoryPressure=, or to keep within MaxQueuedMemory=)" },
	{ "AutoTuneGrowAfter", "AutoTuneSmoothing= (the weight of the newest interval in the averages "
			       "the decision reads; it decides in one interval)" },
	{ "AutoTuneShrinkAfter", "AutoTuneSmoothing= (the weight of the newest interval in the averages "
				 "the decision reads; it decides in one interval)" },
	{ "AutoTuneCooldown", "AutoTuneSmoothing= (the averages restart after every change, so a change "
			      "is decided from what the new sizes do)" },
};

/*
 * The auto-tuning numbers: whole numbers in a range, an empty value puts
 * the default back. Units are in sleebd.conf(5); the reasoning behind the
 * defaults is in autotune.h.
 */
static const struct daemon_number {
	const char *key;
	uint64_t min, max, def;
	size_t value, origin;           /* offsets into struct sleeb_daemon_config */
} daemon_numbers[] = {
#define NUMBER(key, min, max, def, field)                                                              \
	{ key, min, max, def, offsetof(struct sleeb_daemon_config, field),                             \
	  offsetof(struct sleeb_daemon_config, field##_origin) }
	NUMBER("AutoTuneTargetTrips", 1, SLEEB_AUTOTUNE_TRIPS_MAX, SLEEB_AUTOTUNE_TARGET_TRIPS,
	       autotune_target_trips),
	NUMBER("AutoTuneMinTripRate", 0, SLEEB_AUTOTUNE_RATE_MAX, SLEEB_AUTOTUNE_MIN_TRIP_RATE,
	       autotune_min_trip_rate),
	NUMBER("AutoTuneTripsPerMiB", 0, SLEEB_AUTOTUNE_RATE_MAX, SLEEB_AUTOTUNE_TRIPS_PER_MIB,
	       autotune_trips_per_mib),
	NUMBER("AutoTuneSmoothing", 1, 100, SLEEB_AUTOTUNE_SMOOTHING, autotune_smoothing),
	NUMBER("AutoTuneReapShrink", 1, 100, SLEEB_AUTOTUNE_REAP_SHRINK, autotune_reap_shrink),
	NUMBER("AutoTuneMemoryLow", 0, 50, SLEEB_AUTOTUNE_MEMORY_LOW, autotune_memory_low),
	NUMBER("AutoTuneMemoryPressure", 0, 100, SLEEB_AUTOTUNE_PSI_SOME, autotune_memory_pressure),
#undef NUMBER
};

static uint64_t *number_value(struct sleeb_daemon_config *c, const struct daemon_number *n)
{
	return (uint64_t *) (void *) ((char *) c + n->value);
}

static struct sleeb_origin *number_origin(struct sleeb_daemon_config *c, const struct daemon_number *n)
{
	return (struct sleeb_origin *) (void *) ((char *) c + n->origin);
}

void sleeb_daemon_config_init(struct sleeb_daemon_config *c)
{
	memset(c, 0, sizeof(*c));
	c->interval_usec = SLEEB_DEFAULT_INTERVAL_USEC;
	c->rollback = true;
	c->max_queued_percent = SLEEB_DEFAULT_MAX_QUEUED_PERCENT;
	for (size_t i = 0; i < sizeof(daemon_numbers) / sizeof(daemon_numbers[0]); i++)
		*number_value(c, &daemon_numbers[i]) = daemon_numbers[i].def;
}

void sleeb_daemon_config_done(struct sleeb_daemon_config *c)
{
	free(c->prometheus_textfile);
	sleeb_strv_free(c->files);
	memset(c, 0, sizeof(*c));
}

static int daemon_section(void *userdata, const char *file, unsigned line, const char *name)
{
	struct daemon_ctx *d = userdata;

	d->file = file;
	d->in_daemon = false;
	if (!name)
		return 0;
	if (strcmp(name, "Daemon") != 0)
		return sleeb_diag_bad(d->diag, d->file, line, "unknown section [%s]; sleebd.conf has only [Daemon]", name);
	d->in_daemon = true;
	return 0;
}

static int daemon_key(void *userdata, const char *file, unsigned line, const char *key, const char *value)
{
	struct daemon_ctx *d = userdata;
	struct sleeb_daemon_config *c = d->c;
	struct sleeb_origin o = { file, line };

	d->file = file;
	if (!d->in_daemon)
		return 0;

	if (strcmp(key, "Interval") == 0) {
		uint64_t u;

		if (sleeb_parse_duration(value, &u) < 0)
			return sleeb_diag_bad(d->diag, d->file, line, "Interval=%s: not a time span (e.g. 500ms, 2s)", value);
		if (u < 10 * SLEEB_USEC_PER_MSEC || u > 3600 * SLEEB_USEC_PER_SEC)
			return sleeb_diag_bad(d->diag, d->file, line, "Interval=%s: out of range (10ms..1h)", value);
		c->interval_usec = u;
		c->interval_origin = o;
		return 0;
	}
	if (strcmp(key, "Rollback") == 0) {
		bool b;

		if (sleeb_parse_bool(value, &b) < 0)
			return sleeb_diag_bad(d->diag, d->file, line, "Rollback=%s: not a boolean (yes/no)", value);
		c->rollback = b;
		c->rollback_origin = o;
		return 0;
	}
	if (strcmp(key, "MaxQueuedMemory") == 0) {
		size_t l = strlen(value);
		uint64_t bytes;
		unsigned pct;

		if (l == 0 || strcmp(value, "infinity") == 0) {
			/* Empty: the default back; infinity: no budget. */
			c->max_queued_bytes = 0;
			c->max_queued_percent = l == 0 ? SLEEB_DEFAULT_MAX_QUEUED_PERCENT : 0;
			c->max_queued_origin = o;
			return 0;
		}
		if (value[l - 1] == '%') {
			if (sleeb_parse_percent(value, &pct) < 0 || pct == 0)
				return sleeb_diag_bad(d->diag, d->file, line,
						 "MaxQueuedMemory=%s: percent must be 1%%..100%%", value);
			c->max_queued_percent = pct;
			c->max_queued_bytes = 0;
		} else {
			if (sleeb_parse_size(value, &bytes) < 0)
				return sleeb_diag_bad(d->diag, d->file, line,
						 "MaxQueuedMemory=%s: not a size (bytes, K/M/G) or percent", value);
			c->max_queued_bytes = bytes;
			c->max_queued_percent = 0;
		}
		c->max_queued_origin = o;
		return 0;
	}
	if (strcmp(key, "PrometheusTextfile") == 0) {
		char *s = NULL;

		if (*value != '\0') {
			if (value[0] != '/')
				return sleeb_diag_bad(d->diag, d->file, line,
						 "PrometheusTextfile=%s: not an absolute path", value);
			s = strdup(value);
			if (!s)
				return -ENOMEM;
		}
		free(c->prometheus_textfile);
		c->prometheus_textfile = s;
		c->prometheus_origin = o;
		return 0;
	}
	for (size_t i = 0; i < sizeof(daemon_numbers) / sizeof(daemon_numbers[0]); i++) {
		const struct daemon_number *n = &daemon_numbers[i];
		uint64_t v = n->def;
		int r;

		if (strcmp(key, n->key) != 0)
			continue;
		if (*value != '\0') {
			r = sleeb_parse_u64(value, &v);
			if (r == -EINVAL)
				return sleeb_diag_bad(d->diag, d->file, line, "%s=%s: not a number", key, value);
			if (r < 0 || v < n->min || v > n->max)
				return sleeb_diag_bad(d->diag, d->file, line, "%s=%s: out of range (%llu..%llu)", key, value,
						 (unsigned long long) n->min, (unsigned long long) n->max);
		}
		*number_value(c, n) = v;
		*number_origin(c, n) = o;
		return 0;
	}
	for (size_t i = 0; i < sizeof(daemon_replaced) / sizeof(daemon_replaced[0]); i++)
		if (strcmp(key, daemon_replaced[i].key) == 0)
			return sleeb_diag_bad(d->diag, d->file, line, "%s= was replaced by %s", key,
					      daemon_replaced[i].replacement);
	return sleeb_diag_bad(d->diag, d->file, line, "unknown key '%s' in [Daemon]", key);
}

static int daemon_end(void *userdata, const char *file)
{
	(void) userdata;
	(void) file;
	return 0;
}

static const struct sleeb_ini_ops daemon_ops = {
	.section = daemon_section,
	.key = daemon_key,
	.end = daemon_end,
};

int sleeb_daemon_config_load_buffer(struct sleeb_daemon_config *c, const char *name, const char *buf,
				    size_t len, struct sleeb_diag *diag)
{
	struct daemon_ctx d = { .c = c, .diag = diag };

	return sleeb_conf_load_buffer(name, buf, len, &c->files, &c->n_files, &daemon_ops, &d, diag);
}

int sleeb_daemon_config_load_file(struct sleeb_daemon_config *c, const char *path, struct sleeb_diag *diag)
{
	struct daemon_ctx d = { .c = c, .diag = diag };

	return sleeb_conf_load_file(path, &c->files, &c->n_files, &daemon_ops, &d, diag);
}

static int daemon_load_one(void *userdata, const char *path, struct sleeb_diag *diag)
{
	return sleeb_daemon_config_load_file(userdata, path, diag);
}

int sleeb_daemon_config_load(struct sleeb_daemon_config *c, const char *root, struct sleeb_diag *diag)
{
	char main_path[PATH_MAX];
	int r, ret = 0;

	r = sleeb_prefix_path(main_path, sizeof(main_path), root, "/etc/sleeb/sleebd.conf");
	if (r < 0) {
		int k = sleeb_diag_add(diag, "sleebd.conf", 0, "cannot build its path under %s: %s", root ? root : "/",
				       strerror(-r));
		return k < 0 ? k : r;
	}
	if (access(main_path, F_OK) == 0) {
		r = sleeb_daemon_config_load_file(c, main_path, diag);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			ret = -EINVAL;
	}

	r = sleeb_conf_load_dropins(root, daemon_dropin_dirs, "sleebd.conf.d", daemon_load_one, c, diag);
	if (r == -ENOMEM || (r < 0 && r != -EINVAL))
		return r;
	if (r < 0)
		ret = r;
	r = sleeb_daemon_config_check(c, diag);
	if (r == -ENOMEM || (r < 0 && ret == 0))
		ret = r;
	return ret;
}

int sleeb_daemon_config_check(const struct sleeb_daemon_config *c, struct sleeb_diag *diag)
{
	/* No rule between keys today: every auto-tuning number is valid
	 * with every other (the old grow and idle marks had one). */
	(void) c;
	(void) diag;
	return 0;
}

uint64_t sleeb_daemon_config_budget(const struct sleeb_daemon_config *c, uint64_t memtotal_bytes)
{
	if (c->max_queued_percent > 0)
		return memtotal_bytes / 100 * c->max_queued_percent;
	return c->max_queued_bytes;
}
