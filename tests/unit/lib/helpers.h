/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* Helpers shared by the libsleeb and sleebctl unit tests. */

#include <check.h>
#include <stddef.h>
#include <sys/types.h>

#include "runner.h"

/* Source-tree test data (tests/data), set by meson. */
#ifndef SLEEB_TEST_DATA
#error "SLEEB_TEST_DATA must be defined"
#endif

/* A fresh directory under $TMPDIR (or /tmp); aborts the test on error. */
char *test_mkdtemp(void);

/* Copy a tree (cp -a) and return the new root (under a fresh temp dir). */
char *test_copy_tree(const char *src);

/* Remove a tree (rm -rf). */
void test_rm_tree(const char *path);

/* Write @content to @path, creating parent directories. */
void test_write_file(const char *path, const char *content);

/* Write @content to <root>/<rel>. */
void test_write_file_at(const char *root, const char *rel, const char *content);

/* printf into <root>/<rel>, creating parent directories. */
void test_writef_at(const char *root, const char *rel, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A cache's directory in a fake /sys/kernel/slab under @root: object_size,
 * and with @qbs ({queue, batch, shared}; NULL for a kernel without SLEEB)
 * the three tunables.
 */
void test_fake_slab_dir(const char *root, const char *cache, unsigned objsize, const unsigned qbs[3]);

/* Assert that the file at @path holds exactly @want. */
void test_assert_file_eq(const char *path, const char *want);

/* Read a whole file into a malloc'd string (NULL if it cannot be read). */
char *test_read_file(const char *path);

/* Join with "/" into a malloc'd string. */
char *test_path(const char *a, const char *b);

/*
 * In a forked child about to exec a daemon under test: stdout and stderr
 * appended to @logpath, and none of systemd's environment inherited (no
 * journal, notify socket, watchdog or socket activation), so the child
 * logs to stderr and talks to no service manager unless the test says so.
 */
void test_child_setup(const char *logpath);

/* Wait for @pid: its exit status, or 128 + the signal that killed it. */
int test_wait_exit(pid_t pid);

/* <root>/proc/slabinfo's text with cache's limit column (cpu_queue_size)
 * set to q, as the kernel shows a write to sysfs; free() it. */
char *test_slabinfo_with_queue(const char *root, const char *cache, unsigned q);
/* The same for column @column of its line (1: active_objs, 2: num_objs,
 * ...; ':' and the words count) set to @v, its width kept if it fits. */
char *test_slabinfo_with_column(const char *root, const char *cache, unsigned column, unsigned long long v);

/* Replaces <root>/<rel> with text atomically (a new file renamed over it),
 * as sysfs shows a new value to a reader that opens it again. */
void test_replace_at(const char *root, const char *rel, const char *text);
