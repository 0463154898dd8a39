/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Drop-in directories: "*.conf" in /etc, /run and /usr/lib, a file in an
 * earlier directory masking one of the same name in a later one, as
 * systemd does (see sleeb/dropin.h).
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/dropin.h"
#include "sleeb/ini.h"
#include "sleeb/root.h"

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

	for (size_t d = 0; dirs[d]; d++) {
		struct dirent **names = NULL;
		char path_buf[PATH_MAX], *dir;
		int k;

		/* As every prefixed path is built: "DIR/" is "DIR". */
		r = sleeb_prefix_path(path_buf, sizeof(path_buf), root, dirs[d]);
		if (r < 0)
			goto fail;
		dir = strdup(path_buf);
		if (!dir) {
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
			r = sleeb_strv_push(&l, &n, path);
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

/* ---- loading every file of a drop-in set --------------------------------- */

int sleeb_conf_load_dropins(const char *root, const char *const *dirs, const char *label,
			    int (*load_one)(void *userdata, const char *path, struct sleeb_diag *diag),
			    void *userdata, struct sleeb_diag *diag)
{
	char **files;
	int r, ret = 0;

	r = sleeb_conf_files_list(root, dirs, &files);
	if (r < 0) {
		int k = sleeb_diag_add(diag, label, 0, "cannot list its directories under %s: %s",
				       root && *root ? root : "/", strerror(-r));
		return k < 0 ? k : r;
	}
	/* A bad file is reported and skipped; the others still load. */
	for (char **f = files; *f; f++) {
		r = load_one(userdata, *f, diag);
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
