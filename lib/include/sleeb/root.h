/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The root prefix.  Every path to /proc and /sys is built from one root,
 * "/" by default, so that the tools (--root DIR) and the tests can run
 * against a fake tree: DIR/proc/slabinfo, DIR/sys/kernel/slab/<cache>/<attr>.
 * This is the library's only global state.
 */

#include <stddef.h>

/*
 * Set the root directory (copied).  NULL or "" means "/".  Trailing
 * slashes are dropped.  Returns -ENAMETOOLONG if @dir does not fit
 * (PATH_MAX).
 */
int sleeb_root_set(const char *dir);

/* The current root ("/" unless set).  Never NULL. */
const char *sleeb_root_get(void);

/*
 * Build "<root>/<rel>" into @buf (@rel given with or without its leading
 * slash).  Returns the length, or -ENAMETOOLONG if it does not fit.
 */
int sleeb_root_path(char *buf, size_t len, const char *rel);

/*
 * The same for an explicit prefix rather than the root: "<prefix>/<rel>".
 * This is how every prefixed path is built, the --config-root ones too
 * (/etc, /run and /usr/lib).  NULL, "" and "/" mean the real root;
 * trailing slashes of @prefix are dropped.  Returns the length, or
 * -ENAMETOOLONG if it does not fit.
 */
int sleeb_prefix_path(char *buf, size_t len, const char *prefix, const char *rel);
