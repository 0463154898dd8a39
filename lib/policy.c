/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policy files and sleebd.conf: systemd-style INI, drop-in directories,
 * effective settings per cache.
 *
 * Parsing never stops at the first problem: every error becomes one
 * "file:line: what is wrong" entry in the diagnostics, so a user fixing a
 * file sees all of them at once (tuned's "verify failed, see log" is what
 * we avoid).
 */

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "sleeb/autotune.h"
#include "sleeb/match.h"
#include "sleeb/parse.h"
#include "sleeb/policy.h"

const char *const sleeb_policy_dirs[] = {
	"/etc/sleeb/policy.d",
	"/run/sleeb/policy.d",
	"/usr/lib/sleeb/policy.d",
	NULL,
};

static const char *const daemon_dropin_dirs[] = {
	"/etc/sleeb/sleebd.conf.d",
	"/run/sleeb/sleebd.conf.d",
	"/usr/lib/sleeb/sleebd.conf.d",
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

/* ---- small helpers ---------------------------------------------------- */

/* "/" and "" mean the real root; we prefix by string concatenation. */
static const char *root_prefix(const char *root)
{
	if (!root || root[0] == '\0' || (root[0] == '/' && root[1] == '\0'))
		return "";
	return root;
}

void sleeb_strv_free(char **l)
{
	if (!l)
		return;
	for (char **i = l; *i; i++)
		free(*i);
	free(l);
}

void sleeb_diag_done(struct sleeb_diag *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msgs[i]);
	free(d->msgs);
	d->msgs = NULL;
	d->n = 0;
}

int sleeb_diag_add(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
{
	char *what = NULL, *msg = NULL, **n;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;

	if (line > 0)
		r = asprintf(&msg, "%s:%u: %s", file, line, what);
	else
		r = asprintf(&msg, "%s: %s", file, what);
	free(what);
	if (r < 0)
		return -ENOMEM;

	n = realloc(d->msgs, (d->n + 1) * sizeof(char *));
	if (!n) {
		free(msg);
		return -ENOMEM;
	}
	d->msgs = n;
	d->msgs[d->n++] = msg;
	return 0;
}

static int strv_push(char ***l, size_t *n, char *s)
{
	char **t = realloc(*l, (*n + 2) * sizeof(char *));
	if (!t)
		return -ENOMEM;
	t[(*n)++] = s;
	t[*n] = NULL;
	*l = t;
	return 0;
}

static char *strip(char *s)
{
	char *e;

	s += strspn(s, " \t\r\n");
	e = s + strlen(s);
	while (e > s && strchr(" \t\r\n", e[-1]))
		e--;
	*e = '\0';
	return s;
}

static int read_file(const char *path, char **ret, size_t *ret_len)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;

	for (;;) {
		size_t k;

		if (cap - len < 4096) {
			char *t;

			/* Policy files are small; refuse the absurd. */
			if (cap > 16u * 1024 * 1024) {
				free(buf);
				fclose(f);
				return -EFBIG;
			}
			t = realloc(buf, cap + 65536);
			if (!t) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = t;
			cap += 65536;
		}
		k = fread(buf + len, 1, cap - len, f);
		len += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		int r = errno > 0 ? -errno : -EIO;
		free(buf);
		fclose(f);
		return r;
	}
	fclose(f);
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* ---- directory listing with masking ----------------------------------- */

static int cmp_basename(const void *a, const void *b)
{
	const char *x = *(const char *const *) a, *y = *(const char *const *) b;
	return strcmp(strrchr(x, '/') + 1, strrchr(y, '/') + 1);
}

static bool has_basename(char **l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(strrchr(l[i], '/') + 1, name) == 0)
			return true;
	return false;
}

int sleeb_conf_files_list(const char *root, const char *const *dirs, char ***ret)
{
	char **l = NULL;
	size_t n = 0;
	int r;

	root = root_prefix(root);

	for (size_t d = 0; dirs[d]; d++) {
		struct dirent **names = NULL;
		char *dir;
		int k;

		if (asprintf(&dir, "%s%s", root, dirs[d]) < 0) {
			r = -ENOMEM;
			goto fail;
		}
		k = scandir(dir, &names, NULL, alphasort);
		if (k < 0) {
			r = -errno;
			free(dir);
			if (r == -ENOENT || r == -ENOTDIR)
				continue;
			goto fail;
		}
		for (int i = 0; i < k; i++) {
			const char *name = names[i]->d_name;
			size_t len = strlen(name);
			char *path;

			if (name[0] == '.' || len <= 5 || strcmp(name + len - 5, ".conf") != 0)
				continue;
			/* An earlier directory masks the same name in a later one. */
			if (has_basename(l, n, name))
				continue;
			if (asprintf(&path, "%s/%s", dir, name) < 0) {
				r = -ENOMEM;
				goto fail_scan;
			}
			r = strv_push(&l, &n, path);
			if (r < 0) {
				free(path);
				goto fail_scan;
			}
			continue;
fail_scan:
			for (int j = 0; j < k; j++)
				free(names[j]);
			free(names);
			free(dir);
			goto fail;
		}
		for (int i = 0; i < k; i++)
			free(names[i]);
		free(names);
		free(dir);
	}

	if (!l) {
		l = calloc(1, sizeof(char *));
		if (!l)
			return -ENOMEM;
	}
	qsort(l, n, sizeof(char *), cmp_basename);
	*ret = l;
	return 0;
fail:
	sleeb_strv_free(l);
	return r;
}

/* ---- generic INI walker ----------------------------------------------- */

/*
 * Calls the section callback for "[Name]" lines and the key callback for
 * "Key=Value" lines, with whitespace stripped. The callbacks add their own
 * diagnostics; they return -ENOMEM to abort, otherwise 0 or -EINVAL.
 */
struct ini_ops {
	int (*section)(void *userdata, const char *file, unsigned line, const char *name);
	int (*key)(void *userdata, const char *file, unsigned line, const char *key, const char *value);
	int (*end)(void *userdata, const char *file);
};

static int ini_parse(const char *file, const char *buf, size_t len, const struct ini_ops *ops,
		     void *userdata, struct sleeb_diag *diag)
{
	bool in_section = false, bad = false;
	unsigned line = 0;
	size_t pos = 0;
	int r;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t ll = nl ? (size_t) (nl - (buf + pos)) : len - pos;
		char *copy, *s, *eq;

		line++;
		if (memchr(buf + pos, '\0', ll)) {
			r = sleeb_diag_add(diag, file, line, "line contains a NUL byte");
			if (r < 0)
				return r;
			bad = true;
			pos += ll + 1;
			continue;
		}
		copy = strndup(buf + pos, ll);
		if (!copy)
			return -ENOMEM;
		pos += ll + 1;

		s = strip(copy);
		if (*s == '\0' || *s == '#' || *s == ';') {
			free(copy);
			continue;
		}

		if (*s == '[') {
			size_t sl = strlen(s);

			if (sl < 3 || s[sl - 1] != ']') {
				r = sleeb_diag_add(diag, file, line, "invalid section header '%s'", s);
				free(copy);
				if (r < 0)
					return r;
				bad = true;
				/* Keys below belong to no known section: the
				 * header was reported once, they are ignored. */
				in_section = true;
				r = ops->section(userdata, file, 0, NULL);
				if (r == -ENOMEM)
					return r;
				continue;
			}
			s[sl - 1] = '\0';
			r = ops->section(userdata, file, line, strip(s + 1));
			free(copy);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				bad = true;
			in_section = true;
			continue;
		}

		eq = strchr(s, '=');
		if (!eq) {
			r = sleeb_diag_add(diag, file, line, "missing '=' in '%s'", s);
			free(copy);
			if (r < 0)
				return r;
			bad = true;
			continue;
		}
		if (!in_section) {
			r = sleeb_diag_add(diag, file, line, "assignment outside of any section");
			free(copy);
			if (r < 0)
				return r;
			bad = true;
			continue;
		}
		*eq = '\0';
		{
			const char *k = strip(s), *v = strip(eq + 1);

			if (*k == '\0') {
				r = sleeb_diag_add(diag, file, line, "missing key name before '='");
				if (r == 0)
					r = -EINVAL;
			} else
				r = ops->key(userdata, file, line, k, v);
		}
		free(copy);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			bad = true;
	}

	r = ops->end(userdata, file);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		bad = true;
	return bad ? -EINVAL : 0;
}

/* Adds a diagnostic and turns success into -EINVAL (keeps -ENOMEM). */
static int bad_value(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad_value(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
{
	char *what;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = sleeb_diag_add(d, file, line, "%s", what);
	free(what);
	return r < 0 ? r : -EINVAL;
}

/* ---- policy files ----------------------------------------------------- */

struct policy_ctx {
	struct sleeb_policy *p;
	struct sleeb_diag *diag;
	const char *file;       /* the copy stored in p->files */
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
		r = bad_value(c->diag, s->origin.file, s->origin.line, "[Cache] section without Match=");
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (q->value > 0 && b->value >= 0 && b->value > q->value) {
		r = bad_value(c->diag, b->origin.file, b->origin.line,
			      "CpuBatchSize=%lld is larger than CpuQueueSize=%lld (line %u)",
			      (long long) b->value, (long long) q->value, q->origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (sh->value > 0 && b->value >= 0 && sh->value < b->value) {
		r = bad_value(c->diag, sh->origin.file, sh->origin.line,
			      "SharedQueueSize=%lld is below CpuBatchSize=%lld (line %u); use 0 or at least the batch",
			      (long long) sh->value, (long long) b->value, b->origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (s->autotune_min.value >= 0 && s->autotune_max.value >= 0 &&
	    s->autotune_min.value > s->autotune_max.value) {
		r = bad_value(c->diag, s->autotune_min.origin.file, s->autotune_min.origin.line,
			      "AutoTuneMin=%lld is above AutoTuneMax=%lld (line %u)",
			      (long long) s->autotune_min.value, (long long) s->autotune_max.value,
			      s->autotune_max.origin.line);
		if (r == -ENOMEM)
			return r;
		ret = r;
	}
	if (s->min_object_size.value >= 0 && s->max_object_size.value >= 0 &&
	    s->min_object_size.value > s->max_object_size.value) {
		r = bad_value(c->diag, s->min_object_size.origin.file, s->min_object_size.origin.line,
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

	(void) file;
	r = policy_close_section(c);
	if (r == -ENOMEM)
		return r;
	c->ignored = true;

	if (!name)      /* malformed header, already reported */
		return r;

	if (strcmp(name, "Cache") != 0) {
		int k = bad_value(c->diag, c->file, line, "unknown section [%s]; policy files have only [Cache]", name);
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

		if (!d || strv_push(&l, &n, d) < 0) {
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
		r = bad_value(c->diag, c->file, line, "Match= is empty");
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
		return bad_value(c->diag, c->file, line, "%s=%s: not a number or 'default'", key, value);
	if (r < 0 || v > max || (v < min && !(allow_zero && v == 0)))
		return bad_value(c->diag, c->file, line, "%s=%s: out of range (%s%llu..%llu)", key, value,
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
	r = sleeb_parse_u64(value, &v);
	if (r == -EINVAL)
		return bad_value(c->diag, c->file, line, "%s=%s: not a number", key, value);
	if (r < 0 || v < 1 || v > SLEEB_QUEUE_MAX)
		return bad_value(c->diag, c->file, line, "%s=%s: out of range (1..%u)", key, value, SLEEB_QUEUE_MAX);
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
		return bad_value(c->diag, c->file, line, "%s=%s: not a size (bytes, or with K/M suffix)", key, value);
	*set = (struct sleeb_setting) { (int64_t) v, { c->file, line } };
	return 0;
}

static int policy_key(void *userdata, const char *file, unsigned line, const char *key, const char *value)
{
	struct policy_ctx *c = userdata;
	struct sleeb_cache_section *s;

	(void) file;
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
			return bad_value(c->diag, c->file, line, "AutoTune=%s: not a boolean (yes/no)", value);
		s->autotune = (struct sleeb_setting) { b, { c->file, line } };
		return 0;
	}
	if (strcmp(key, "AutoTuneMin") == 0)
		return parse_bound(c, &s->autotune_min, line, key, value);
	if (strcmp(key, "AutoTuneMax") == 0)
		return parse_bound(c, &s->autotune_max, line, key, value);

	return bad_value(c->diag, c->file, line, "unknown key '%s' in [Cache]", key);
}

static int policy_end(void *userdata, const char *file)
{
	(void) file;
	return policy_close_section(userdata);
}

static const struct ini_ops policy_ops = {
	.section = policy_section,
	.key = policy_key,
	.end = policy_end,
};

static int remember_file(char ***files, size_t *n, const char *name, const char **ret)
{
	char *d = strdup(name);
	int r;

	if (!d)
		return -ENOMEM;
	r = strv_push(files, n, d);
	if (r < 0) {
		free(d);
		return r;
	}
	*ret = d;
	return 0;
}

int sleeb_policy_load_buffer(struct sleeb_policy *p, const char *name, const char *buf, size_t len,
			     struct sleeb_diag *diag)
{
	struct policy_ctx c = { .p = p, .diag = diag, .cur = -1, .ignored = true };
	int r;

	r = remember_file(&p->files, &p->n_files, name, &c.file);
	if (r < 0)
		return r;
	return ini_parse(c.file, buf, len, &policy_ops, &c, diag);
}

int sleeb_policy_load_file(struct sleeb_policy *p, const char *path, struct sleeb_diag *diag)
{
	size_t len;
	char *buf;
	int r;

	r = read_file(path, &buf, &len);
	if (r < 0) {
		int k = sleeb_diag_add(diag, path, 0, "cannot read: %s", strerror(-r));
		return k < 0 ? k : r;
	}
	r = sleeb_policy_load_buffer(p, path, buf, len, diag);
	free(buf);
	return r;
}

int sleeb_policy_load(struct sleeb_policy *p, const char *root, struct sleeb_diag *diag)
{
	char **files;
	int r, ret = 0;

	r = sleeb_conf_files_list(root, sleeb_policy_dirs, &files);
	if (r < 0) {
		int k = sleeb_diag_add(diag, "policy.d", 0, "cannot list policy directories: %s", strerror(-r));
		return k < 0 ? k : r;
	}
	for (char **f = files; *f; f++) {
		r = sleeb_policy_load_file(p, *f, diag);
		if (r == -ENOMEM) {
			ret = r;
			break;
		}
		if (r < 0)
			ret = -EINVAL;
	}
	sleeb_strv_free(files);
	return ret;
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

void sleeb_kernel_defaults(uint64_t object_size, uint64_t page_size, struct sleeb_tunables *ret)
{
	uint32_t q;

	/* Mirrors the kernel's size classes (SLAB's enable_cpucache()). */
	if (object_size > 128 * 1024)
		q = 1;
	else if (object_size > page_size)
		q = 8;
	else if (object_size > 1024)
		q = 24;
	else if (object_size > 256)
		q = 54;
	else
		q = 120;
	ret->v[SLEEB_TUNABLE_QUEUE] = q;
	ret->v[SLEEB_TUNABLE_BATCH] = (q + 1) / 2;
	ret->v[SLEEB_TUNABLE_SHARED] = object_size <= page_size ? 8 * ((q + 1) / 2) : 0;
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

/* ---- daemon configuration --------------------------------------------- */

struct daemon_ctx {
	struct sleeb_daemon_config *c;
	struct sleeb_diag *diag;
	const char *file;
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

	(void) file;
	d->in_daemon = false;
	if (!name)
		return 0;
	if (strcmp(name, "Daemon") != 0)
		return bad_value(d->diag, d->file, line, "unknown section [%s]; sleebd.conf has only [Daemon]", name);
	d->in_daemon = true;
	return 0;
}

static int daemon_key(void *userdata, const char *file, unsigned line, const char *key, const char *value)
{
	struct daemon_ctx *d = userdata;
	struct sleeb_daemon_config *c = d->c;
	struct sleeb_origin o = { d->file, line };

	(void) file;
	if (!d->in_daemon)
		return 0;

	if (strcmp(key, "Interval") == 0) {
		uint64_t u;

		if (sleeb_parse_duration(value, &u) < 0)
			return bad_value(d->diag, d->file, line, "Interval=%s: not a time span (e.g. 500ms, 2s)", value);
		if (u < 10 * SLEEB_USEC_PER_MSEC || u > 3600 * SLEEB_USEC_PER_SEC)
			return bad_value(d->diag, d->file, line, "Interval=%s: out of range (10ms..1h)", value);
		c->interval_usec = u;
		c->interval_origin = o;
		return 0;
	}
	if (strcmp(key, "Rollback") == 0) {
		bool b;

		if (sleeb_parse_bool(value, &b) < 0)
			return bad_value(d->diag, d->file, line, "Rollback=%s: not a boolean (yes/no)", value);
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
				return bad_value(d->diag, d->file, line,
						 "MaxQueuedMemory=%s: percent must be 1%%..100%%", value);
			c->max_queued_percent = pct;
			c->max_queued_bytes = 0;
		} else {
			if (sleeb_parse_size(value, &bytes) < 0)
				return bad_value(d->diag, d->file, line,
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
				return bad_value(d->diag, d->file, line,
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
				return bad_value(d->diag, d->file, line, "%s=%s: not a number", key, value);
			if (r < 0 || v < n->min || v > n->max)
				return bad_value(d->diag, d->file, line, "%s=%s: out of range (%llu..%llu)", key, value,
						 (unsigned long long) n->min, (unsigned long long) n->max);
		}
		*number_value(c, n) = v;
		*number_origin(c, n) = o;
		return 0;
	}
	return bad_value(d->diag, d->file, line, "unknown key '%s' in [Daemon]", key);
}

static int daemon_end(void *userdata, const char *file)
{
	(void) userdata;
	(void) file;
	return 0;
}

static const struct ini_ops daemon_ops = {
	.section = daemon_section,
	.key = daemon_key,
	.end = daemon_end,
};

int sleeb_daemon_config_load_buffer(struct sleeb_daemon_config *c, const char *name, const char *buf,
				    size_t len, struct sleeb_diag *diag)
{
	struct daemon_ctx d = { .c = c, .diag = diag };
	int r;

	r = remember_file(&c->files, &c->n_files, name, &d.file);
	if (r < 0)
		return r;
	return ini_parse(d.file, buf, len, &daemon_ops, &d, diag);
}

int sleeb_daemon_config_load_file(struct sleeb_daemon_config *c, const char *path, struct sleeb_diag *diag)
{
	size_t len;
	char *buf;
	int r;

	r = read_file(path, &buf, &len);
	if (r < 0) {
		int k = sleeb_diag_add(diag, path, 0, "cannot read: %s", strerror(-r));
		return k < 0 ? k : r;
	}
	r = sleeb_daemon_config_load_buffer(c, path, buf, len, diag);
	free(buf);
	return r;
}

int sleeb_daemon_config_load(struct sleeb_daemon_config *c, const char *root, struct sleeb_diag *diag)
{
	char *main_path, **files;
	int r, ret = 0;

	root = root_prefix(root);
	if (asprintf(&main_path, "%s/etc/sleeb/sleebd.conf", root) < 0)
		return -ENOMEM;
	if (access(main_path, F_OK) == 0) {
		r = sleeb_daemon_config_load_file(c, main_path, diag);
		if (r == -ENOMEM) {
			free(main_path);
			return r;
		}
		if (r < 0)
			ret = -EINVAL;
	}
	free(main_path);

	r = sleeb_conf_files_list(root, daemon_dropin_dirs, &files);
	if (r < 0) {
		int k = sleeb_diag_add(diag, "sleebd.conf.d", 0, "cannot list drop-in directories: %s", strerror(-r));
		return k < 0 ? k : r;
	}
	for (char **f = files; *f; f++) {
		r = sleeb_daemon_config_load_file(c, *f, diag);
		if (r == -ENOMEM) {
			ret = r;
			break;
		}
		if (r < 0)
			ret = -EINVAL;
	}
	sleeb_strv_free(files);
	if (ret != -ENOMEM) {
		r = sleeb_daemon_config_check(c, diag);
		if (r == -ENOMEM || (r < 0 && ret == 0))
			ret = r;
	}
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
