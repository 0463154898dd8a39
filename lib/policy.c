/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policy files (sleeb-policy(5)): [Cache] sections read with the INI
 * reader of ini.c, and the effective settings per cache.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "sleeb/defaults.h"
#include "sleeb/dropin.h"
#include "sleeb/ini.h"
#include "sleeb/match.h"
#include "sleeb/parse.h"
#include "sleeb/policy.h"

const char *const sleeb_policy_dirs[] = {
	"/etc/sleeb/policy.d",
	"/run/sleeb/policy.d",
	"/usr/lib/sleeb/policy.d",
	NULL,
};


static const char *const tunable_keys[_SLEEB_TUNABLE_MAX] = {
	[SLEEB_TUNABLE_QUEUE] = "CpuQueueSize",
	[SLEEB_TUNABLE_BATCH] = "CpuBatchSize",
	[SLEEB_TUNABLE_SHARED] = "SharedQueueSize",
};

const char *sleeb_tunable_key(enum sleeb_tunable t)
{
	return t >= 0 && t < _SLEEB_TUNABLE_MAX ? tunable_keys[t] : NULL;
}

/* ---- policy files ----------------------------------------------------- */

struct policy_ctx {
	struct sleeb_policy *p;
	struct sleeb_diag *diag;
	const char *file;       /* the copy stored in p->files (set by each callback) */
	ssize_t cur;            /* index of the open [Cache] section, -1 for none */
	bool ignored;           /* inside an unknown section: keys ignored */
};

static void setting_unset(struct sleeb_setting *s)
{
	*s = (struct sleeb_setting) { .value = SLEEB_VALUE_UNSET };
}

static void section_init(struct sleeb_cache_section *s, const char *file, unsigned line)
{
	memset(s, 0, sizeof(*s));
	s->origin = (struct sleeb_origin) { file, line };
	setting_unset(&s->min_object_size);
	setting_unset(&s->max_object_size);
	for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
		setting_unset(&s->tunable[t]);
	setting_unset(&s->autotune);
	setting_unset(&s->autotune_min);
	setting_unset(&s->autotune_max);
}

static void section_done(struct sleeb_cache_section *s)
{
	sleeb_strv_free(s->match);
	s->match = NULL;
}

/* Checks one finished [Cache] section for errors that span keys. */
static int section_validate(struct policy_ctx *c, const struct sleeb_cache_section *s)
{
	const struct sleeb_setting *q = &s->tunable[SLEEB_TUNABLE_QUEUE],
				   *b = &s->tunable[SLEEB_TUNABLE_BATCH],
				   *sh = &s->tunable[SLEEB_TUNABLE_SHARED];
	int r, ret = 0;

	if (!s->match || !s->match[0]) {
		r = sleeb_diag_bad(c->diag, s->origin.file, s->origin.line, "[Cache] section without Match=");
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (q->value > 0 && b->value >= 0 && b->value > q->value) {
		r = sleeb_diag_bad(c->diag, b->origin.file, b->origin.line,
			      "CpuBatchSize=%lld is larger than CpuQueueSize=%lld (line %u)",
			      (long long) b->value, (long long) q->value, q->origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (sh->value > 0 && b->value >= 0 && sh->value < b->value) {
		r = sleeb_diag_bad(c->diag, sh->origin.file, sh->origin.line,
			      "SharedQueueSize=%lld is below CpuBatchSize=%lld (line %u); use 0 or at least the batch",
			      (long long) sh->value, (long long) b->value, b->origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (s->autotune_min.value >= 0 && s->autotune_max.value >= 0 &&
	    s->autotune_min.value > s->autotune_max.value) {
		r = sleeb_diag_bad(c->diag, s->autotune_min.origin.file, s->autotune_min.origin.line,
			      "AutoTuneMin=%lld is above AutoTuneMax=%lld (line %u)",
			      (long long) s->autotune_min.value, (long long) s->autotune_max.value,
			      s->autotune_max.origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (s->min_object_size.value >= 0 && s->max_object_size.value >= 0 &&
	    s->min_object_size.value > s->max_object_size.value) {
		r = sleeb_diag_bad(c->diag, s->min_object_size.origin.file, s->min_object_size.origin.line,
			      "MinObjectSize=%lld is above MaxObjectSize=%lld (line %u)",
			      (long long) s->min_object_size.value, (long long) s->max_object_size.value,
			      s->max_object_size.origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	return ret;
}

static int policy_close_section(struct policy_ctx *c)
{
	int r = 0;

	if (c->cur >= 0)
		r = section_validate(c, &c->p->sections[c->cur]);
	c->cur = -1;
	return r;
}

static int policy_section(void *userdata, const char *file, unsigned line, const char *name)
{
	struct policy_ctx *c = userdata;
	struct sleeb_cache_section *t;
	int r;

	c->file = file;
	r = policy_close_section(c);
	if (r == -ENOMEM)
		return r;
	c->ignored = true;

	if (!name)      /* malformed header, already reported */
		return r;

	if (strcmp(name, "Cache") != 0) {
		int k = sleeb_diag_bad(c->diag, c->file, line, "unknown section [%s]; policy files have only [Cache]", name);
		return k;
	}

	t = realloc(c->p->sections, (c->p->n_sections + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	c->p->sections = t;
	section_init(&t[c->p->n_sections], c->file, line);
	c->cur = (ssize_t) c->p->n_sections++;
	c->ignored = false;
	return r;
}

static int parse_match(struct policy_ctx *c, struct sleeb_cache_section *s, unsigned line, const char *value)
{
	char **l = NULL, *copy, *tok, *save = NULL;
	size_t n = 0;
	int r;

	/* An empty assignment resets the list, as in systemd. */
	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *d = strdup(tok);

		if (!d || sleeb_strv_push(&l, &n, d) < 0) {
			free(d);
			free(copy);
			sleeb_strv_free(l);
			return -ENOMEM;
		}
	}
	free(copy);

	sleeb_strv_free(s->match);
	s->match = l;
	s->match_origin = (struct sleeb_origin) { c->file, line };
	if (!l) {
		r = sleeb_diag_bad(c->diag, c->file, line, "Match= is empty");
		return r;
	}
	return 0;
}

static int parse_tunable(struct policy_ctx *c, struct sleeb_setting *set, unsigned line, const char *key,
			 const char *value, uint64_t min, uint64_t max, bool allow_zero)
{
	uint64_t v;
	int r;

	if (*value == '\0') {
		setting_unset(set);
		return 0;
	}
	if (strcmp(value, "default") == 0) {
		*set = (struct sleeb_setting) { SLEEB_VALUE_DEFAULT, { c->file, line } };
		return 0;
	}
	r = sleeb_parse_u64(value, &v);
	if (r == -EINVAL)
		return sleeb_diag_bad(c->diag, c->file, line, "%s=%s: not a number or 'default'", key, value);
	if (r < 0 || v > max || (v < min && !(allow_zero && v == 0)))
		return sleeb_diag_bad(c->diag, c->file, line, "%s=%s: out of range (%s%llu..%llu)", key, value,
				 allow_zero && min > 0 ? "0 or " : "", (unsigned long long) min,
				 (unsigned long long) max);
	*set = (struct sleeb_setting) { (int64_t) v, { c->file, line } };
	return 0;
}

static int parse_bound(struct policy_ctx *c, struct sleeb_setting *set, unsigned line, const char *key,
		       const char *value)
{
	uint64_t v;
	int r;

	if (*value == '\0') {
		setting_unset(set);
		return 0;
	}
	/* The kernel's default queue size for the cache's size class. */
	if (strcmp(value, "default") == 0) {
		*set = (struct sleeb_setting) { SLEEB_VALUE_DEFAULT, { c->file, line } };
		return 0;
	}
	r = sleeb_parse_u64(value, &v);
	if (r == -EINVAL)
		return sleeb_diag_bad(c->diag, c->file, line, "%s=%s: not a number or \"default\"", key, value);
	if (r < 0 || v < 1 || v > SLEEB_QUEUE_MAX)
		return sleeb_diag_bad(c->diag, c->file, line, "%s=%s: out of range (1..%u)", key, value, SLEEB_QUEUE_MAX);
	*set = (struct sleeb_setting) { (int64_t) v, { c->file, line } };
	return 0;
}

static int parse_objsize(struct policy_ctx *c, struct sleeb_setting *set, unsigned line, const char *key,
			 const char *value)
{
	uint64_t v;

	if (*value == '\0') {
		setting_unset(set);
		return 0;
	}
	if (sleeb_parse_size(value, &v) < 0 || v > INT64_MAX)
		return sleeb_diag_bad(c->diag, c->file, line, "%s=%s: not a size (bytes, or with K/M suffix)", key, value);
	*set = (struct sleeb_setting) { (int64_t) v, { c->file, line } };
	return 0;
}

static int policy_key(void *userdata, const char *file, unsigned line, const char *key, const char *value)
{
	struct policy_ctx *c = userdata;
	struct sleeb_cache_section *s;

	c->file = file;
	if (c->ignored || c->cur < 0)
		return 0;       /* the section itself was reported */
	s = &c->p->sections[c->cur];

	if (strcmp(key, "Match") == 0)
		return parse_match(c, s, line, value);
	if (strcmp(key, "MinObjectSize") == 0)
		return parse_objsize(c, &s->min_object_size, line, key, value);
	if (strcmp(key, "MaxObjectSize") == 0)
		return parse_objsize(c, &s->max_object_size, line, key, value);
	if (strcmp(key, "CpuQueueSize") == 0)
		return parse_tunable(c, &s->tunable[SLEEB_TUNABLE_QUEUE], line, key, value, 0, SLEEB_QUEUE_MAX, true);
	if (strcmp(key, "CpuBatchSize") == 0)
		return parse_tunable(c, &s->tunable[SLEEB_TUNABLE_BATCH], line, key, value, 1, SLEEB_QUEUE_MAX, false);
	if (strcmp(key, "SharedQueueSize") == 0)
		return parse_tunable(c, &s->tunable[SLEEB_TUNABLE_SHARED], line, key, value, 0, SLEEB_QUEUE_MAX, true);
	if (strcmp(key, "AutoTune") == 0) {
		bool b;

		if (*value == '\0') {
			setting_unset(&s->autotune);
			return 0;
		}
		if (sleeb_parse_bool(value, &b) < 0)
			return sleeb_diag_bad(c->diag, c->file, line, "AutoTune=%s: not a boolean (yes/no)", value);
		s->autotune = (struct sleeb_setting) { b, { c->file, line } };
		return 0;
	}
	if (strcmp(key, "AutoTuneMin") == 0)
		return parse_bound(c, &s->autotune_min, line, key, value);
	if (strcmp(key, "AutoTuneMax") == 0)
		return parse_bound(c, &s->autotune_max, line, key, value);

	return sleeb_diag_bad(c->diag, c->file, line, "unknown key '%s' in [Cache]", key);
}

static int policy_end(void *userdata, const char *file)
{
	(void) file;
	return policy_close_section(userdata);
}

static const struct sleeb_ini_ops policy_ops = {
	.section = policy_section,
	.key = policy_key,
	.end = policy_end,
};


int sleeb_policy_load_buffer(struct sleeb_policy *p, const char *name, const char *buf, size_t len,
			     struct sleeb_diag *diag)
{
	struct policy_ctx c = { .p = p, .diag = diag, .cur = -1, .ignored = true };

	return sleeb_conf_load_buffer(name, buf, len, &p->files, &p->n_files, &policy_ops, &c, diag);
}

int sleeb_policy_load_file(struct sleeb_policy *p, const char *path, struct sleeb_diag *diag)
{
	struct policy_ctx c = { .p = p, .diag = diag, .cur = -1, .ignored = true };

	return sleeb_conf_load_file(path, &p->files, &p->n_files, &policy_ops, &c, diag);
}

static int policy_load_one(void *userdata, const char *path, struct sleeb_diag *diag)
{
	return sleeb_policy_load_file(userdata, path, diag);
}

int sleeb_policy_load(struct sleeb_policy *p, const char *root, struct sleeb_diag *diag)
{
	return sleeb_conf_load_dropins(root, sleeb_policy_dirs, "policy.d", policy_load_one, p, diag);
}

void sleeb_policy_done(struct sleeb_policy *p)
{
	for (size_t i = 0; i < p->n_sections; i++)
		section_done(&p->sections[i]);
	free(p->sections);
	sleeb_strv_free(p->files);
	memset(p, 0, sizeof(*p));
}

/* ---- effective settings ----------------------------------------------- */

static void overlay(struct sleeb_setting *dst, const struct sleeb_setting *src)
{
	if (src->value != SLEEB_VALUE_UNSET)
		*dst = *src;
}

void sleeb_policy_effective(const struct sleeb_policy *p, const char *cache, uint64_t object_size,
			    struct sleeb_effective *ret)
{
	struct sleeb_effective e = { .matched = false };

	for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
		setting_unset(&e.tunable[t]);
	setting_unset(&e.autotune);
	setting_unset(&e.autotune_min);
	setting_unset(&e.autotune_max);

	for (size_t i = 0; i < p->n_sections; i++) {
		const struct sleeb_cache_section *s = &p->sections[i];

		if (!sleeb_section_matches(s, cache, object_size))
			continue;
		e.matched = true;
		for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
			overlay(&e.tunable[t], &s->tunable[t]);
		overlay(&e.autotune, &s->autotune);
		overlay(&e.autotune_min, &s->autotune_min);
		overlay(&e.autotune_max, &s->autotune_max);
	}
	*ret = e;
}


int sleeb_effective_resolve(const struct sleeb_effective *e, const struct sleeb_tunables *current,
			    uint64_t object_size, uint64_t page_size, struct sleeb_tunables *ret,
			    struct sleeb_error *err)
{
	struct sleeb_tunables def, v = *current;
	int r;

	sleeb_kernel_defaults(object_size, page_size, &def);
	/* In queue, batch, shared order: "default" for the batch and the
	 * shared queue is relative to the queue and batch just resolved
	 * (sleeb-policy(5)), not to the size-class default queue. */
	for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++) {
		if (e->tunable[t].value == SLEEB_VALUE_DEFAULT) {
			if (t == SLEEB_TUNABLE_BATCH)
				def.v[t] = (v.v[SLEEB_TUNABLE_QUEUE] + 1) / 2;
			else if (t == SLEEB_TUNABLE_SHARED)
				def.v[t] = object_size > page_size ? 0
					 : 8 * v.v[SLEEB_TUNABLE_BATCH] < SLEEB_QUEUE_MAX ? 8 * v.v[SLEEB_TUNABLE_BATCH]
											 : SLEEB_QUEUE_MAX;
			v.v[t] = def.v[t];
		} else if (e->tunable[t].value >= 0)
			v.v[t] = (uint32_t) e->tunable[t].value;
	}
	r = sleeb_tunables_validate(&v, err);
	if (r < 0)
		return r;
	*ret = v;
	return 0;
}
