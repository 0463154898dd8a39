/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The root prefix.  Every path to /proc and /sys is built from one root,
 * "/" by default, so that the tools (--root DIR) and the tests can run
 * against a fake tree: DIR/proc/slabinfo, DIR/sys/kernel/slab/<cache>/<attr>.
 * Nothing is resolved outside the root: every /proc and /sys file is
 * opened with sleeb_root_open() below, from a descriptor of the root, so
 * that a link in a tree under --root (a merged cache's directory is one)
 * cannot lead out of it.  The root and its descriptor are the library's
 * only global state.
 */

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sleeb/error.h"

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

/*
 * The root directory itself, opened (O_PATH) at its first use and kept
 * until the root changes: every path below is resolved from this one
 * descriptor. Returns it (do not close it) or -errno.
 */
int sleeb_root_fd(void);

/*
 * Opens "<root>/<rel>" (@rel with or without its leading slash) with
 * openat(2) @flags (O_CLOEXEC is added), resolved inside the root as if
 * it were "/": absolute symlink targets and ".." stop at the root
 * (openat2(2) RESOLVE_IN_ROOT, no magic links). Where the kernel has no
 * openat2 (ENOSYS), or a seccomp filter refuses it (EPERM), the same
 * resolution is done one component at a time. O_NOFOLLOW applies to the
 * last component, as with open(2). Returns the descriptor or -errno
 * (-ELOOP: more than 40 links, or a link last with O_NOFOLLOW).
 */
int sleeb_root_open(const char *rel, int flags);

/*
 * The same for a file to read or write (a sysfs attribute, /proc/slabinfo):
 * opened with O_NONBLOCK, so that a FIFO planted in a tree under --root
 * cannot block the open, and refused unless it is a regular file (sysfs
 * and procfs files are), with O_NONBLOCK cleared again. Returns the
 * descriptor, or -errno with "<root>/<rel>: reason" in @err (-EBADFD:
 * not a regular file).
 */
int sleeb_root_open_file(const char *rel, int flags, struct sleeb_error *err);

/*
 * opendir(3) and fopen(3) (for reading) of "<root>/<rel>" the same way.
 * NULL with -errno in *@r; fopen's message, "<root>/<rel>: reason", in
 * @err.
 */
DIR *sleeb_root_opendir(const char *rel, int *r);
FILE *sleeb_root_fopen(const char *rel, int *r, struct sleeb_error *err);

/*
 * For tests: the openat2(2) system call, or a stand-in (one failing with
 * ENOSYS exercises the component-by-component resolution).
 */
struct open_how;
extern long (*sleeb_root_openat2)(int dirfd, const char *path, struct open_how *how, size_t size);

/*
 * For tests only: accept FIFOs where sleeb_root_open_file() wants a
 * regular file, so that a test can stand a slow sysfs file in with a FIFO
 * it feeds. The installed programs never set it.
 */
extern bool sleeb_root_allow_fifos;
