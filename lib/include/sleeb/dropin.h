/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* Drop-in directories with systemd's masking rules. */

struct sleeb_diag;

/*
 * Lists "*.conf" in dirs (each prefixed with root by sleeb_prefix_path(),
 * as every prefixed path is: NULL, "" and "/" are the real root): a file in an earlier directory masks one of the same name in
 * a later one; the survivors are sorted by file name. *ret is a
 * NULL-terminated array of full paths (free with sleeb_strv_free).
 * Missing directories are fine. Returns 0, -ENOMEM, -ENAMETOOLONG, or
 * -errno from opendir() for a directory that exists but cannot be read.
 */
int sleeb_conf_files_list(const char *root, const char *const *dirs, char ***ret);

/*
 * Loads, in the order above, every file sleeb_conf_files_list() finds with
 * load_one (a policy file, a sleebd.conf drop-in). A file that does not
 * load is in diag and the rest still load. A listing that fails is one
 * diagnostic under label ("policy.d"). Returns 0, -EINVAL when some file
 * was bad, -ENOMEM (loading stops), or the listing's -errno.
 */
int sleeb_conf_load_dropins(const char *root, const char *const *dirs, const char *label,
			    int (*load_one)(void *userdata, const char *path, struct sleeb_diag *diag),
			    void *userdata, struct sleeb_diag *diag);
