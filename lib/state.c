/* SPDX-License-Identifier: GPL-2.0-only */
/* Rollback state file (see state.h). */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleeb/ini.h"
#include "sleeb/parse.h"
#include "sleeb/state.h"

bool sleeb_state_key_ok(const char *n)
{
	/* "#" alone would be written as a comment line ("# 8 4 3"). */
	if (!n || !*n || strlen(n) >= 256 || strcmp(n, "#") == 0)
		return false;
	for (const unsigned char *p = (const unsigned char *) n; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '/')
			return false;
	return true;
}

const struct sleeb_state_entry *sleeb_state_find(const struct sleeb_state *s, const char *cache)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->entries[i].cache, cache) == 0)
			return &s->entries[i];
	return NULL;
}

int sleeb_state_remember(struct sleeb_state *s, const char *cache, const struct sleeb_tunables *orig)
{
	struct sleeb_state_entry *t;
	char *d;

	if (!sleeb_state_key_ok(cache))
		return -EINVAL;
	if (sleeb_state_find(s, cache))
		return 0;
	d = strdup(cache);
	if (!d)
		return -ENOMEM;
	t = realloc(s->entries, (s->n + 1) * sizeof(*t));
	if (!t) {
		free(d);
		return -ENOMEM;
	}
	s->entries = t;
	s->entries[s->n++] = (struct sleeb_state_entry) { d, *orig };
	return 1;
}

int sleeb_state_set(struct sleeb_state *s, const char *cache, const struct sleeb_tunables *v)
{
	struct sleeb_state_entry *e = (struct sleeb_state_entry *) sleeb_state_find(s, cache);

	if (!e)
		return sleeb_state_remember(s, cache, v);
	if (memcmp(&e->orig, v, sizeof(*v)) == 0)
		return 0;
	e->orig = *v;
	return 1;
}

int sleeb_state_rekey(struct sleeb_state *s, const struct sleeb_sysfs_list *l)
{
	struct sleeb_state n = { .path = s->path };
	int changed = 0;

	for (size_t i = 0; i < s->n; i++) {
		const char *id = sleeb_sysfs_list_id(l, s->entries[i].cache);
		int r;

		if (!id)
			id = s->entries[i].cache;
		r = sleeb_state_remember(&n, id, &s->entries[i].orig);
		if (r == -ENOMEM) {
			n.path = NULL;
			sleeb_state_done(&n);
			return r;
		}
		changed += r != 1 || strcmp(id, s->entries[i].cache) != 0;
	}
	for (size_t i = 0; i < s->n; i++)
		free(s->entries[i].cache);
	free(s->entries);
	s->entries = n.entries;
	s->n = n.n;
	return changed;
}

int sleeb_state_forget(struct sleeb_state *s, const char *cache)
{
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->entries[i].cache, cache) != 0)
			continue;
		free(s->entries[i].cache);
		memmove(&s->entries[i], &s->entries[i + 1], (s->n - i - 1) * sizeof(s->entries[0]));
		s->n--;
		return 1;
	}
	return 0;
}

void sleeb_state_done(struct sleeb_state *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->entries[i].cache);
	free(s->entries);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

/*
 * The file's lines are written to the kernel: only its owner (the caller,
 * or root) may have written them, and nobody else may write to its
 * directory, where a file of their own could take its place. 0, or -EPERM
 * (or -errno from stat) with what is wrong in err.
 */
static int check_private(FILE *f, const char *path, struct sleeb_error *err)
{
	const char *slash = strrchr(path, '/');
	struct stat st, dst;
	char *dir;
	int r;

	if (fstat(fileno(f), &st) < 0)
		return sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return sleeb_error_set(err, EPERM, "%s: owned by uid %u, not %u or root: ignored; remove it", path,
				       (unsigned) st.st_uid, (unsigned) geteuid());
	if (!S_ISREG(st.st_mode))
		return sleeb_error_set(err, EPERM, "%s: not a regular file: ignored; remove it", path);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return sleeb_error_set(err, EPERM, "%s: mode %04o lets other users write it: ignored; remove it", path,
				       (unsigned) (st.st_mode & 07777));
	dir = slash ? strndup(path, slash == path ? 1 : (size_t) (slash - path)) : strdup(".");
	if (!dir)
		return sleeb_error_set(err, ENOMEM, "%s: out of memory", path);
	r = stat(dir, &dst);
	if (r < 0)
		r = sleeb_error_set(err, errno, "%s: %s", dir, strerror(errno));
	else if ((dst.st_uid != geteuid() && dst.st_uid != 0) || (dst.st_mode & (S_IWGRP | S_IWOTH)))
		r = sleeb_error_set(err, EPERM,
				    "%s: its directory %s (uid %u, mode %04o) lets other users replace it: ignored; make "
				    "the directory root's, mode 0755", path, dir, (unsigned) dst.st_uid,
				    (unsigned) (dst.st_mode & 07777));
	free(dir);
	return r;
}

/* One line into s. Returns 0, 1 when the line is bad ("path:line: what
 * is wrong" added to warnings), or -ENOMEM. */
static int parse_line(struct sleeb_state *s, char *line, const char *path, unsigned lineno,
		      struct sleeb_diag *warnings)
{
	char *save = NULL, *name, *tok[_SLEEB_TUNABLE_MAX];
	struct sleeb_error why = { 0 };
	struct sleeb_tunables t;
	const char *bad = NULL;
	int r;

	name = strtok_r(line, " \t", &save);
	for (int i = 0; i < _SLEEB_TUNABLE_MAX && !bad; i++) {
		tok[i] = strtok_r(NULL, " \t", &save);
		if (!tok[i] || sleeb_parse_u32(tok[i], &t.v[i]) < 0)
			bad = "expected '<cache> <queue> <batch> <shared>'";
	}
	if (!bad && strtok_r(NULL, " \t", &save))
		bad = "trailing fields";
	if (!bad && !sleeb_state_key_ok(name))
		bad = "invalid cache name";
	/* An original the kernel cannot take would fail every rollback. */
	if (!bad && sleeb_tunables_validate(&t, &why) < 0)
		bad = why.msg;
	if (!bad) {
		r = sleeb_state_remember(s, name, &t);
		return r < 0 ? r : 0;
	}
	if (warnings && sleeb_diag_add(warnings, path, lineno, "%s; line skipped", bad) < 0)
		return -ENOMEM;
	return 1;
}

int sleeb_state_load(struct sleeb_state *s, const char *path, struct sleeb_diag *warnings,
		     struct sleeb_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	ssize_t l;
	FILE *f;
	int r = 0, skipped = 0;

	memset(s, 0, sizeof(*s));
	s->path = strdup(path);
	if (!s->path)
		return sleeb_error_set(err, ENOMEM, "%s: out of memory", path);

	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));
	}
	r = check_private(f, path, err);
	if (r < 0) {
		fclose(f);
		return r;
	}
	while ((l = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r'))
			line[--l] = '\0';
		/* A comment is "#" alone or followed by a blank: a cache name
		 * has no blanks but may start with '#', and must read back. */
		if (l == 0 || (line[0] == '#' && (line[1] == '\0' || line[1] == ' ' || line[1] == '\t')))
			continue;
		/* getline() reads past a NUL, which would cut the line short. */
		if (memchr(line, '\0', (size_t) l)) {
			r = warnings ? sleeb_diag_add(warnings, path, lineno, "line contains a NUL byte; line skipped") : 0;
			skipped++;
		} else {
			r = parse_line(s, line, path, lineno, warnings);
			skipped += r == 1;
		}
		if (r < 0) {
			r = sleeb_error_set(err, ENOMEM, "%s: out of memory", path);
			break;
		}
	}
	if (r >= 0 && ferror(f))
		r = sleeb_error_set(err, EIO, "%s: read error", path);
	free(line);
	fclose(f);
	return r < 0 ? r : skipped;
}

int sleeb_state_keep_aside(const char *path, char **ret, struct sleeb_error *err)
{
	char *aside;

	if (asprintf(&aside, "%s.broken", path) < 0)
		return sleeb_error_set(err, ENOMEM, "%s: out of memory", path);
	/* A second name for the file: the next save renames a new file over
	 * path, and this one keeps the broken text. */
	if ((unlink(aside) < 0 && errno != ENOENT) || link(path, aside) < 0) {
		int r = sleeb_error_set(err, errno, "%s: cannot keep it as %s: %s", path, aside, strerror(errno));

		free(aside);
		return r;
	}
	*ret = aside;
	return 0;
}

int sleeb_mkdir_parents(const char *path)
{
	char *d = strdup(path), *p;
	int r = 0;

	if (!d)
		return -ENOMEM;
	p = strrchr(d, '/');
	if (!p) {
		free(d);
		return 0;
	}
	*p = '\0';
	for (p = d + 1; *d && r == 0; p++) {
		bool end = *p == '\0';

		if (*p != '/' && !end)
			continue;
		*p = '\0';
		if (mkdir(d, 0755) < 0 && errno != EEXIST)
			r = -errno;
		if (end)
			break;
		*p = '/';
	}
	free(d);
	return r;
}

int sleeb_state_save(const struct sleeb_state *s, struct sleeb_error *err)
{
	char *tmp = NULL;
	FILE *f;
	int fd, r;

	if (s->n == 0) {
		if (unlink(s->path) < 0 && errno != ENOENT)
			return sleeb_error_set(err, errno, "%s: %s", s->path, strerror(errno));
		return 0;
	}

	r = sleeb_mkdir_parents(s->path);
	if (r < 0)
		return sleeb_error_set(err, r, "%s: cannot create directory: %s", s->path, strerror(-r));

	if (asprintf(&tmp, "%s.XXXXXX", s->path) < 0)
		return sleeb_error_set(err, ENOMEM, "%s: out of memory", s->path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto fail_free;
	}
	f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		close(fd);
		goto fail_unlink;
	}
	fprintf(f, "%s\n", s->header ? s->header : SLEEB_STATE_HEADER);
	for (size_t i = 0; i < s->n; i++)
		fprintf(f, "%s %u %u %u\n", s->entries[i].cache, s->entries[i].orig.v[SLEEB_TUNABLE_QUEUE],
			s->entries[i].orig.v[SLEEB_TUNABLE_BATCH], s->entries[i].orig.v[SLEEB_TUNABLE_SHARED]);
	/* The originals need to survive a crash of sleebd, not of the
	 * machine: they live in /run (tmpfs), which a reboot empties and where
	 * the kernel tunables are back to their defaults anyway. The learned
	 * sizes live on a disk (/var/lib) and are meant to outlive a reboot:
	 * there the fsync before the rename keeps a power cut from leaving an
	 * empty file under the name. */
	if (fflush(f) != 0 || fsync(fileno(f)) < 0) {
		r = errno > 0 ? -errno : -EIO;
		fclose(f);
		goto fail_unlink;
	}
	if (fclose(f) != 0) {
		r = errno > 0 ? -errno : -EIO;
		goto fail_unlink;
	}
	if (rename(tmp, s->path) < 0) {
		r = -errno;
		goto fail_unlink;
	}
	free(tmp);
	return 0;

fail_unlink:
	unlink(tmp);
fail_free:
	free(tmp);
	return sleeb_error_set(err, r, "%s: cannot write state: %s", s->path, strerror(-r));
}
