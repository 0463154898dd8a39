/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The systemd-style INI reader shared by policy files and sleebd.conf
 * (see sleeb/ini.h): diagnostics, reading a file, the line walker.
 *
 * Parsing never stops at the first problem: every error becomes one
 * "file:line: what is wrong" entry in the diagnostics, so a user fixing a
 * file sees all of them at once (tuned's "verify failed, see log" is what
 * we avoid).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/ini.h"

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

static int diag_vadd(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, va_list ap)
{
	char *what = NULL, *msg = NULL, **n;
	int r;

	r = vasprintf(&what, fmt, ap);
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

int sleeb_diag_add(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = diag_vadd(d, file, line, fmt, ap);
	va_end(ap);
	return r;
}

int sleeb_strv_push(char ***l, size_t *n, char *s)
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

int sleeb_conf_read_file(const char *path, char **ret, size_t *ret_len)
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


/* ---- generic INI walker ----------------------------------------------- */

int sleeb_ini_parse(const char *file, const char *buf, size_t len, const struct sleeb_ini_ops *ops,
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

int sleeb_diag_bad(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = diag_vadd(d, file, line, fmt, ap);
	va_end(ap);
	return r < 0 ? r : -EINVAL;
}

int sleeb_conf_remember_file(char ***files, size_t *n, const char *name, const char **ret)
{
	char *d = strdup(name);
	int r;

	if (!d)
		return -ENOMEM;
	r = sleeb_strv_push(files, n, d);
	if (r < 0) {
		free(d);
		return r;
	}
	*ret = d;
	return 0;
}

int sleeb_conf_load_buffer(const char *name, const char *buf, size_t len, char ***files, size_t *n_files,
			   const struct sleeb_ini_ops *ops, void *userdata, struct sleeb_diag *diag)
{
	const char *file;
	int r;

	r = sleeb_conf_remember_file(files, n_files, name, &file);
	if (r < 0)
		return r;
	return sleeb_ini_parse(file, buf, len, ops, userdata, diag);
}

int sleeb_conf_load_file(const char *path, char ***files, size_t *n_files, const struct sleeb_ini_ops *ops,
			 void *userdata, struct sleeb_diag *diag)
{
	size_t len;
	char *buf;
	int r;

	r = sleeb_conf_read_file(path, &buf, &len);
	if (r < 0) {
		int k = sleeb_diag_add(diag, path, 0, "cannot read: %s", strerror(-r));

		return k < 0 ? k : r;
	}
	r = sleeb_conf_load_buffer(path, buf, len, files, n_files, ops, userdata, diag);
	free(buf);
	return r;
}
