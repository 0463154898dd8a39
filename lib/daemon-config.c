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
	NUMBER("AutoTuneGrowRate", 1, SLEEB_AUTOTUNE_RATE_MAX, SLEEB_AUTOTUNE_GROW_RATE, autotune_grow_rate),
	NUMBER("AutoTuneIdleFlow", 0, SLEEB_AUTOTUNE_RATE_MAX, SLEEB_AUTOTUNE_IDLE_FLOW, autotune_idle_flow),
	NUMBER("AutoTuneGrowAfter", 1, SLEEB_AUTOTUNE_INTERVALS_MAX, SLEEB_AUTOTUNE_GROW_AFTER,
	       autotune_grow_after),
	NUMBER("AutoTuneShrinkAfter", 1, SLEEB_AUTOTUNE_INTERVALS_MAX, SLEEB_AUTOTUNE_SHRINK_AFTER,
	       autotune_shrink_after),
	NUMBER("AutoTuneCooldown", 0, SLEEB_AUTOTUNE_INTERVALS_MAX, SLEEB_AUTOTUNE_COOLDOWN, autotune_cooldown),
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

		if (l == 0) {
			c->max_queued_bytes = 0;
			c->max_queued_percent = 0;
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
	const struct sleeb_origin *idle = &c->autotune_idle_flow_origin, *grow = &c->autotune_grow_rate_origin;
	unsigned long long f = c->autotune_idle_flow, g = c->autotune_grow_rate;
	int r;

	if (f <= g)
		return 0;
	/* Blame the key that was set; name where the other one came from. */
	if (idle->file && grow->file)
		r = sleeb_diag_add(diag, idle->file, idle->line,
				   "AutoTuneIdleFlow=%llu is above AutoTuneGrowRate=%llu (%s:%u): a shrink could "
				   "push a steady load back over the grow rate", f, g, grow->file, grow->line);
	else if (idle->file)
		r = sleeb_diag_add(diag, idle->file, idle->line,
				   "AutoTuneIdleFlow=%llu is above AutoTuneGrowRate=%llu (the default): a shrink "
				   "could push a steady load back over the grow rate", f, g);
	else
		r = sleeb_diag_add(diag, grow->file ? grow->file : "sleebd.conf", grow->line,
				   "AutoTuneGrowRate=%llu is below AutoTuneIdleFlow=%llu (the default): a shrink "
				   "could push a steady load back over the grow rate; lower AutoTuneIdleFlow= too",
				   g, f);
	return r < 0 ? r : -EINVAL;
}

uint64_t sleeb_daemon_config_budget(const struct sleeb_daemon_config *c, uint64_t memtotal_bytes)
{
	if (c->max_queued_percent > 0)
		return memtotal_bytes / 100 * c->max_queued_percent;
	return c->max_queued_bytes;
}
