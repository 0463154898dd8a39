/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* Drop-in directories with systemd's masking rules. */

/*
 * Lists "*.conf" in dirs (each prefixed with root by sleeb_prefix_path(),
 * as every prefixed path is: NULL, "" and "/" are the real root): a file in an earlier directory masks one of the same name in
 * a later one; the survivors are sorted by file name. *ret is a
 * NULL-terminated array of full paths (free with sleeb_strv_free).
 * Missing directories are fine. Returns 0, -ENOMEM, -ENAMETOOLONG, or
 * -errno from opendir() for a directory that exists but cannot be read.
 */
int sleeb_conf_files_list(const char *root, const char *const *dirs, char ***ret);
