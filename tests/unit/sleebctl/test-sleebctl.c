/* SPDX-License-Identifier: GPL-2.0-only */
/* CLI tests: run sleebctl(-test) against the fake trees and check output,
 * messages and exit codes. */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define SLEEB SLEEB_TEST_DATA "/fake-sleeb"
#define VANILLA SLEEB_TEST_DATA "/fake-vanilla"

struct result {
	int status;
	char *out;
	char *err;
};

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

/* Run sleebctl with a NULL-terminated argument list. */
static struct result run(const char *arg, ...)
{
	const char *bin = getenv("SLEEBCTL");
	char *dir = test_mkdtemp(), *outp = test_path(dir, "out"), *errp = test_path(dir, "err");
	const char *argv[32];
	struct result res;
	va_list ap;
	int n = 0, status;
	pid_t pid;

	ck_assert_msg(bin != NULL, "SLEEBCTL not set");
	argv[n++] = "sleebctl";
	va_start(ap, arg);
	for (; arg && n < 31; arg = va_arg(ap, const char *))
		argv[n++] = arg;
	va_end(ap);
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	res.status = WEXITSTATUS(status);
	res.out = test_read_file(outp);
	res.err = test_read_file(errp);
	test_rm_tree(dir);
	free(outp);
	free(errp);
	free(dir);
	return res;
}

#define assert_contains(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' not in:\n%s", (needle), (hay))
#define assert_lacks(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) == NULL, "'%s' unexpectedly in:\n%s", (needle), (hay))

/* Validate JSON with python3 if it is there (it is not a build dependency). */
static void assert_json(const char *text)
{
	char *dir, *p, *cmd;

	if (system("command -v python3 >/dev/null 2>&1") != 0)
		return;
	dir = test_mkdtemp();
	p = test_path(dir, "j");
	test_write_file(p, text);
	ck_assert_int_ge(asprintf(&cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'", p), 0);
	ck_assert_msg(system(cmd) == 0, "invalid JSON:\n%s", text);
	free(cmd);
	test_rm_tree(dir);
	free(p);
	free(dir);
}

/* Line number (0-based) of the row starting with @name, or -1. */
static int row_of(const char *out, const char *name)
{
	const char *line = out;
	int i = 0;

	while (line && *line) {
		if (strncmp(line, name, strlen(name)) == 0 && line[strlen(name)] == ' ')
			return i;
		line = strchr(line, '\n');
		if (line)
			line++;
		i++;
	}
	return -1;
}

static char *attr_path(const char *root, const char *cache, const char *attr)
{
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s/sys/kernel/slab/%s/%s", root, cache, attr), 0);
	return p;
}

static void assert_attr(const char *root, const char *cache, const char *attr, const char *want)
{
	char *p = attr_path(root, cache, attr), *v = test_read_file(p);

	ck_assert_ptr_nonnull(v);
	ck_assert_msg(strcmp(v, want) == 0, "%s/%s is '%s', want '%s'", cache, attr, v, want);
	free(v);
	free(p);
}

START_TEST(test_global)
{
	struct result r;

	r = run("--help", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "Usage: sleebctl [--root DIR] VERB");
	assert_contains(r.out, "check");
	result_free(&r);
	r = run("--version", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "sleebctl ");
	result_free(&r);
	r = run(NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.err, "missing verb");
	result_free(&r);
	r = run("frobnicate", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.err, "unknown verb 'frobnicate'");
	result_free(&r);
	r = run("--root", NULL);
	ck_assert_int_eq(r.status, 2);
	result_free(&r);
	/* --root works before and after the verb, and as --root=DIR. */
	r = run("show", "--root=" SLEEB, NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "leaky_buffers");
	result_free(&r);
}
END_TEST

START_TEST(test_show)
{
	struct result r;

	r = run("--root", SLEEB, "show", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "NAME");
	assert_contains(r.out, "OBJ-SIZE");
	assert_contains(r.out, "dmaengine-unmap-2,ip_mrt_cache");
	assert_lacks(r.out, "n/a");
	/* Default sort: total objects, largest first. */
	ck_assert_int_eq(row_of(r.out, "dentry"), 1);
	ck_assert_int_eq(row_of(r.out, "leaky_buffers"), 2);
	/* A name longer than 17 columns is shown whole. */
	ck_assert_int_gt(row_of(r.out, "ext4_groupinfo_4k_and_then_some"), 0);
	result_free(&r);

	r = run("--root", SLEEB, "show", "--sort", "name", NULL);
	ck_assert_int_eq(row_of(r.out, "dentry"), 1);
	ck_assert_int_eq(row_of(r.out, "sleeb-debug"), 9);
	result_free(&r);
	r = run("--root", SLEEB, "show", "-s", "s", NULL);  /* slabtop's letter */
	ck_assert_int_eq(row_of(r.out, "leaky_buffers"), 1);
	ck_assert_int_eq(row_of(r.out, "kmalloc-4k"), 2);
	result_free(&r);
	r = run("--root", SLEEB, "show", "--sort", "memory", NULL);
	ck_assert_int_eq(row_of(r.out, "leaky_buffers"), 1);
	result_free(&r);
	r = run("--root", SLEEB, "show", "--sort", "queue", "kmalloc-*", NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(row_of(r.out, "kmalloc-128"), 1);
	ck_assert_int_eq(row_of(r.out, "kmalloc-64"), 2);
	ck_assert_int_eq(row_of(r.out, "dentry"), -1);
	result_free(&r);

	/* An alias finds the merged cache's row. */
	r = run("--root", SLEEB, "show", "ip_mrt_cache", NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_int_eq(row_of(r.out, "kmalloc-64"), 1);
	ck_assert_int_eq(row_of(r.out, "kmalloc-128"), -1);
	result_free(&r);

	r = run("--root", SLEEB, "show", "--sort", "bogus", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.err, "unknown sort key 'bogus'");
	result_free(&r);
	r = run("--root", SLEEB, "show", "nothing*", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "no cache matches");
	result_free(&r);
	r = run("--root", "/nonexistent", "show", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "/nonexistent/proc/slabinfo: No such file or directory");
	result_free(&r);
}
END_TEST

START_TEST(test_show_json_and_vanilla)
{
	struct result r;

	r = run("--root", SLEEB, "show", "--json", "kmalloc-64", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_json(r.out);
	assert_contains(r.out, "\"sleeb_kernel\":true");
	assert_contains(r.out, "\"name\":\"kmalloc-64\",\"object_size\":64,\"active_objects\":3000,"
			"\"total_objects\":3072,\"use_percent\":97");
	assert_contains(r.out, "\"queue\":{\"cpu_queue_size\":120,\"cpu_batch_size\":60,"
			"\"shared_queue_size\":480,\"shared_available\":240}");
	assert_contains(r.out, "\"aliases\":[\"dmaengine-unmap-2\",\"ip_mrt_cache\"]");
	result_free(&r);

	r = run("--root", VANILLA, "show", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "n/a");
	assert_contains(r.out, "this kernel has no SLEEB queues");
	result_free(&r);
	r = run("--root", VANILLA, "show", "--json", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_json(r.out);
	assert_contains(r.out, "\"sleeb_kernel\":false");
	assert_contains(r.out, "\"queue\":null");
	result_free(&r);
}
END_TEST

START_TEST(test_get)
{
	struct result r;

	r = run("--root", SLEEB, "get", "ip_mrt_cache", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "ip_mrt_cache\n");
	assert_contains(r.out, "  cpu_queue_size     120\n");
	assert_contains(r.out, "  alias names        dmaengine-unmap-2,kmalloc-64\n");
	assert_contains(r.out, "    alloc_refill       1000\n");
	result_free(&r);
	r = run("--root", SLEEB, "get", "--json", "dentry", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_json(r.out);
	assert_contains(r.out, "\"cpu_batch_size\":60");
	assert_contains(r.out, "\"queue_stats\":{\"alloc_refill\":5000,");
	result_free(&r);
	r = run("--root", VANILLA, "get", "dentry", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.out, "cpu_queue_size     n/a");
	assert_contains(r.err, "dentry: this kernel has no SLEEB queues");
	result_free(&r);
	r = run("--root", SLEEB, "get", "nope", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "nope: no such cache");
	result_free(&r);
	r = run("--root", SLEEB, "get", NULL);
	ck_assert_int_eq(r.status, 2);
	result_free(&r);
}
END_TEST

START_TEST(test_set)
{
	char *root = test_copy_tree(SLEEB);
	struct result r;

	/* Dry run: plan shown, nothing written. */
	r = run("--root", root, "set", "kmalloc-1k", "--queue", "240", "--batch", "120", "--dry-run", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "kmalloc-1k: would write cpu_queue_size=240, cpu_batch_size=120");
	assert_attr(root, "kmalloc-1k", "cpu_queue_size", "54\n");
	result_free(&r);

	r = run("--root", root, "set", "kmalloc-1k", "--queue", "240", "--batch", "120", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "kmalloc-1k: queue=240 batch=120 shared=216 (was queue=54 batch=27 shared=216)");
	assert_attr(root, "kmalloc-1k", "cpu_queue_size", "240\n");
	assert_attr(root, "kmalloc-1k", "cpu_batch_size", "120\n");
	result_free(&r);

	/* Shrink: batch must go first, shared after it. */
	r = run("--root", root, "set", "dentry", "--queue", "8", "--batch", "4", "--shared", "4", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_attr(root, "dentry", "cpu_queue_size", "8\n");
	assert_attr(root, "dentry", "cpu_batch_size", "4\n");
	assert_attr(root, "dentry", "shared_queue_size", "4\n");
	result_free(&r);

	/* An alias glob reaches the merged cache, written once. */
	r = run("--root", root, "set", "ip_mrt*", "kmalloc-64", "--shared", "0", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_attr(root, ":0000064", "shared_queue_size", "0\n");
	ck_assert_msg(strchr(r.out, '\n') == r.out + strlen(r.out) - 1, "written twice:\n%s", r.out);
	result_free(&r);

	r = run("--root", root, "set", "kmalloc-64", "--shared", "0", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "kmalloc-64: unchanged");
	result_free(&r);

	/* Invalid values: refused before any write, exit 1. */
	r = run("--root", root, "set", "kmalloc-4k", "--batch", "100", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "kmalloc-4k: cpu_batch_size: 100: not in 1..cpu_queue_size 24");
	assert_attr(root, "kmalloc-4k", "cpu_batch_size", "12\n");
	result_free(&r);
	r = run("--root", root, "set", "kmalloc-4k", "--queue", "10001", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "cpu_queue_size: 10001: must be 0 or 1..10000");
	result_free(&r);

	/* Usage errors: exit 2. */
	r = run("--root", root, "set", "kmalloc-4k", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.err, "nothing to set");
	result_free(&r);
	r = run("--root", root, "set", "--queue", "5", NULL);
	ck_assert_int_eq(r.status, 2);
	result_free(&r);
	r = run("--root", root, "set", "x", "--queue", "five", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.err, "set: --queue: 'five' is not a number");
	result_free(&r);
	/* A number too large for the option is out of range, not "not a number". */
	r = run("--root", root, "set", "x", "--queue", "99999999999", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.err, "set: --queue: '99999999999' is out of range");
	result_free(&r);
	r = run("--root", root, "set", "nosuch*", "--queue", "5", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "nosuch*: no such cache");
	result_free(&r);

	test_rm_tree(root);
	free(root);
}
END_TEST

START_TEST(test_set_rollback)
{
	char *root = test_copy_tree(SLEEB);
	struct result r;

	/* kmalloc-4k 24/12/96 -> 240/120/480: queue, shared, batch; the
	 * batch write is rejected with EINVAL; shared and queue restored. */
	setenv("SLEEBCTL_TEST_FAIL_WRITE", "cpu_batch_size:120:22", 1);
	r = run("--root", root, "set", "kmalloc-4k", "--queue", "240", "--batch", "120", "--shared",
		"480", NULL);
	unsetenv("SLEEBCTL_TEST_FAIL_WRITE");
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "kmalloc-4k: cpu_batch_size: 120: Invalid argument; rolled back to "
			"queue=24 batch=12 shared=96");
	assert_attr(root, "kmalloc-4k", "cpu_queue_size", "24\n");
	assert_attr(root, "kmalloc-4k", "cpu_batch_size", "12\n");
	assert_attr(root, "kmalloc-4k", "shared_queue_size", "96\n");
	result_free(&r);

	/* EOPNOTSUPP from the kernel is reported as such; other caches in
	 * the same command are still set, and the exit code is 1. */
	setenv("SLEEBCTL_TEST_FAIL_WRITE", "cpu_queue_size:16:95", 1);
	r = run("--root", root, "set", "sleeb-debug", "inode_cache", "--queue", "16", "--batch", "8",
		NULL);
	unsetenv("SLEEBCTL_TEST_FAIL_WRITE");
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "sleeb-debug: cpu_queue_size: 16: Operation not supported; rolled back");
	assert_contains(r.err, "inode_cache: cpu_queue_size: 16: Operation not supported; rolled back "
			"to queue=54 batch=27 shared=216");
	assert_attr(root, "inode_cache", "cpu_batch_size", "27\n");
	result_free(&r);

	/* Rollback failing too is said plainly. */
	setenv("SLEEBCTL_TEST_FAIL_WRITE", "shared_queue_size:480:22,cpu_queue_size:24:16", 1);
	r = run("--root", root, "set", "kmalloc-4k", "--queue", "240", "--shared", "480", NULL);
	unsetenv("SLEEBCTL_TEST_FAIL_WRITE");
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "kmalloc-4k: shared_queue_size: 480: Invalid argument; rollback failed: "
			"kmalloc-4k: cpu_queue_size: 24: Device or resource busy");
	assert_attr(root, "kmalloc-4k", "cpu_queue_size", "240\n");
	result_free(&r);

	test_rm_tree(root);
	free(root);

	r = run("--root", VANILLA, "set", "dentry", "--queue", "5", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "this kernel has no SLEEB queues");
	assert_contains(r.err, "nothing changed");
	result_free(&r);
}
END_TEST

/*
 * A kernel with queue_sizes: the sizes go there as one line, one resize,
 * and the three single files are not written (here they keep their old
 * values, where sysfs would show the new ones).
 */
START_TEST(test_set_queue_sizes)
{
	char *root = test_copy_tree(SLEEB), *p;
	struct result r;

	test_write_file_at(root, "sys/kernel/slab/kmalloc-1k/queue_sizes", "54 27 216\n");
	r = run("--root", root, "set", "kmalloc-1k", "--queue", "240", "--batch", "120", "--dry-run", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "kmalloc-1k: would write queue_sizes=240 120 216 (queue=54");
	assert_attr(root, "kmalloc-1k", "queue_sizes", "54 27 216\n");
	result_free(&r);

	r = run("--root", root, "set", "kmalloc-1k", "--queue", "240", "--batch", "120", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, "kmalloc-1k: queue=240 batch=120 shared=216 (was queue=54 batch=27 shared=216)");
	assert_attr(root, "kmalloc-1k", "queue_sizes", "240 120 216\n");
	assert_attr(root, "kmalloc-1k", "cpu_queue_size", "54\n");
	assert_attr(root, "kmalloc-1k", "cpu_batch_size", "27\n");
	assert_attr(root, "kmalloc-1k", "shared_queue_size", "216\n");
	result_free(&r);

	/* The kernel's error is the one write's: its path and errno, and no
	 * rollback, for the kernel changed nothing. */
	p = attr_path(root, "dentry", "queue_sizes");
	ck_assert_int_eq(mkdir(p, 0755), 0);
	r = run("--root", root, "set", "dentry", "--queue", "8", "--batch", "4", "--shared", "4", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.err, "/sys/kernel/slab/dentry/queue_sizes: 8 4 4: Is a directory");
	assert_lacks(r.err, "rolled back");
	assert_attr(root, "dentry", "cpu_queue_size", "120\n");
	result_free(&r);
	free(p);

	test_rm_tree(root);
	free(root);
}
END_TEST

static const char *first_line_end(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? nl : s + strlen(s);
}

START_TEST(test_check)
{
	char *root;
	struct result r;

	/* Defaults: leaky_buffers wastes 148M >= 64M: WARNING, summary first. */
	r = run("--root", SLEEB, "check", NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strncmp(r.out, "SLEEB WARNING - 1 problem: leaky_buffers: waste", 47) == 0, "%s", r.out);
	ck_assert_ptr_nonnull(memchr(r.out, '|', (size_t)(first_line_end(r.out) - r.out)));
	assert_contains(r.out, "\nWARNING waste: leaky_buffers: waste 148.4M");
	result_free(&r);

	r = run("--root", SLEEB, "check", "--warn-waste", "0", "--crit-waste", "0", NULL);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strncmp(r.out, "SLEEB OK - 9 caches, slab 185.5M (9% of MemTotal 1.9G)", 54) == 0, "%s", r.out);
	result_free(&r);
	r = run("--root", SLEEB, "check", "--crit-waste", "100M", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.out, "SLEEB CRITICAL - ");
	result_free(&r);
	r = run("--root", SLEEB, "check", "--warn-waste", "0", "--crit-waste", "0", "--warn-slab", "5%",
		"--crit-slab", "50", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.out, "WARNING slab: slab memory 185.5M is 9% of MemTotal 1.9G >= 5%");
	result_free(&r);

	/* Several samples on a static tree: no growth, no thrash. */
	r = run("--root", SLEEB, "check", "--samples", "3", "--interval", "10ms",
		"--warn-growth", "1", "--warn-thrash", "1", "--warn-waste", "0", "--crit-waste", "0", NULL);
	ck_assert_int_eq(r.status, 0);
	result_free(&r);

	r = run("--root", SLEEB, "check", "--json", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_json(r.out);
	assert_contains(r.out, "{\"version\":1,\"status\":\"WARNING\",\"exit_code\":1,\"summary\":");
	assert_contains(r.out, "\"problems\":[{\"status\":\"WARNING\",\"check\":\"waste\","
			"\"cache\":\"leaky_buffers\",\"value\":155648000,\"threshold\":67108864,");
	result_free(&r);

	/* Broken invariants: CRITICAL. */
	root = test_copy_tree(SLEEB);
	test_write_file_at(root, "sys/kernel/slab/inode_cache/cpu_batch_size", "500\n");
	r = run("--root", root, "check", NULL);
	ck_assert_int_eq(r.status, 2);
	assert_contains(r.out, "CRITICAL invariant: inode_cache: tunables break the invariants: "
			"cpu_batch_size: 500: not in 1..cpu_queue_size 54");
	result_free(&r);
	test_rm_tree(root);
	free(root);
}
END_TEST

/* Replace a file atomically, as the kernel's files never appear half-written. */
static void replace_file(const char *root, const char *rel, const char *content)
{
	char *p = test_path(root, rel), *tmp;

	ck_assert_int_ge(asprintf(&tmp, "%s.new", p), 0);
	test_write_file(tmp, content);
	ck_assert_int_eq(rename(tmp, p), 0);
	free(tmp);
	free(p);
}

static char *slabinfo_with(unsigned leaky_active)
{
	char *text;

	ck_assert_int_ge(asprintf(&text,
		"slabinfo - version: 2.1\n"
		"kmalloc-64          3000   3072     64   64    1 : tunables  120   60  480 : slabdata     48     48    240\n"
		"leaky_buffers     %6u  20000   8192    4    8 : tunables    8    4    0 : slabdata   5000   5000      0\n",
		leaky_active), 0);
	return text;
}

/* Samples really are re-read: a cache growing at every sample is named
 * with its rate, and queue_stats deltas give the thrash rate. */
START_TEST(test_check_samples)
{
	char *root = test_copy_tree(SLEEB), *text;
	struct result r;
	pid_t pid;
	int status;

	text = slabinfo_with(1000);
	replace_file(root, "proc/slabinfo", text);
	free(text);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Samples at t = 0, 1 s, 2 s; change the files halfway between. */
		usleep(500000);
		text = slabinfo_with(1500);
		replace_file(root, "proc/slabinfo", text);
		replace_file(root, "sys/kernel/slab/:0000064/queue_stats",
			     "alloc_refill 100000\nfree_drain 900\n");
		usleep(1000000);
		text = slabinfo_with(2000);
		replace_file(root, "proc/slabinfo", text);
		replace_file(root, "sys/kernel/slab/:0000064/queue_stats",
			     "alloc_refill 200000\nfree_drain 50900\n");
		_exit(0);
	}
	r = run("--root", root, "check", "--samples", "3", "--interval", "1s", "--warn-waste", "0",
		"--crit-waste", "0", NULL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(r.status, 2);
	/* 1000 objects of 8 KiB in ~2 s: ~4M/s, over the 1M/s default. */
	assert_contains(r.out, "CRITICAL growth: leaky_buffers: leak suspected: active objects grew "
			"in every one of 3 samples, 1000 -> 2000, ");
	/* (199000 refills + 50000 drains) in ~2 s: ~124500/s. */
	assert_contains(r.out, "CRITICAL thrash: kmalloc-64: queue thrash: ");
	assert_lacks(r.out, "growth: kmalloc-64");
	result_free(&r);
	test_rm_tree(root);
	free(root);
}
END_TEST

/*
 * show and a check of one sample print no counters: they do
 * not read queue_stats (on a kernel each read sums every cpu's counters).
 * Here one is a FIFO, which sleebctl refuses to read ("not a regular
 * file"): only a check of two samples, whose thrash rate needs it, may
 * touch it.
 */
START_TEST(test_no_counters_read_unless_shown)
{
	char *root = test_copy_tree(SLEEB), *fifo = test_path(root, "sys/kernel/slab/:0000064/queue_stats");
	struct result r;

	unsetenv("SLEEB_TEST_ALLOW_FIFOS");
	ck_assert_int_eq(unlink(fifo), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);

	r = run("--root", root, "show", NULL);
	ck_assert_msg(r.status == 0, "show: exit %d: %s", r.status, r.err);
	result_free(&r);
	r = run("--root", root, "check", NULL);
	ck_assert_msg(r.status == 1, "check: exit %d: %s", r.status, r.out);
	assert_lacks(r.out, "queue_stats");
	result_free(&r);
	r = run("--root", root, "check", "--samples", "2", "--interval", "10ms", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "queue_stats");
	result_free(&r);

	test_rm_tree(root);
	free(root);
	free(fifo);
}
END_TEST

START_TEST(test_check_unknown)
{
	struct result r;

	r = run("--root", "/nonexistent", "check", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "SLEEB UNKNOWN - /nonexistent/proc/slabinfo: No such file or directory");
	result_free(&r);
	r = run("--root", SLEEB, "check", "--samples", "0", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "SLEEB UNKNOWN - --samples: '0'");
	result_free(&r);
	r = run("--root", SLEEB, "check", "--interval", "soon", NULL);
	ck_assert_int_eq(r.status, 3);
	result_free(&r);
	r = run("--root", SLEEB, "check", "--warn-waste", "lots", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "--warn-waste: invalid value 'lots'");
	result_free(&r);
	r = run("--root", SLEEB, "check", "--bogus", NULL);
	ck_assert_int_eq(r.status, 3);
	result_free(&r);
	r = run("--root", SLEEB, "check", "--json", "--crit-slab", "200", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_json(r.out);
	assert_contains(r.out, "\"status\":\"UNKNOWN\",\"exit_code\":3");
	result_free(&r);
}
END_TEST

/* The perfdata follows the monitoring-plugins guidelines,
 * 'label'=value[UOM];[warn];[crit];[min];[max]: thresholds as ranges that
 * say exactly when the check alerts (value >= T is "@T:"), none where the
 * threshold is disabled or does not apply, min 0, max where one exists. */
START_TEST(test_check_perfdata)
{
	struct result r;
	const char *bar;

	r = run("--root", SLEEB, "check", NULL);
	ck_assert_int_eq(r.status, 1);
	bar = strstr(r.out, " | ");
	ck_assert_ptr_nonnull(bar);
	ck_assert_msg(strncmp(bar, " | caches=9;;;0 slab_bytes=194560000B;;;0;2062745600 "
			      "waste_bytes=155922904B;;;0 slab_percent=9%;@10:;@25:;0;100 problems=1;;;0 "
			      "waste_max_bytes=155648000B;@67108864:;@268435456:;0\n",
			      (size_t)(strchr(bar, '\n') - bar + 1)) == 0, "%s", r.out);
	result_free(&r);

	/* A disabled threshold leaves its field empty; rates need two samples. */
	r = run("--root", SLEEB, "check", "--warn-waste", "0", "--crit-slab", "0", "--samples", "2",
		"--interval", "10ms", "--warn-growth", "0", "--crit-thrash", "0", NULL);
	ck_assert_int_eq(r.status, 0);
	assert_contains(r.out, " slab_percent=9%;@10:;;0;100 ");
	assert_contains(r.out, " waste_max_bytes=155648000B;;@268435456:;0 "
			"growth_max_bytes_per_second=0;;@1048576:;0 thrash_max_per_second=0;@10000:;;0\n");
	result_free(&r);
}
END_TEST

/* --json has the worst cache's values the perfdata has (the values the
 * per-cache thresholds apply to); the rates only with two samples. */
START_TEST(test_check_json_worst)
{
	struct result r;

	r = run("--root", SLEEB, "check", "--json", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_json(r.out);
	assert_contains(r.out, "\"waste_max_bytes\":155648000,\"growth_max_bytes_per_second\":null,"
			"\"thrash_max_per_second\":null,");
	result_free(&r);
	r = run("--root", SLEEB, "check", "--json", "--samples", "2", "--interval", "10ms", NULL);
	assert_json(r.out);
	assert_contains(r.out, "\"waste_max_bytes\":155648000,\"growth_max_bytes_per_second\":0,"
			"\"thrash_max_per_second\":0,");
	result_free(&r);
}
END_TEST

/*
 * --timeout while sleeping between samples: the message names the sample
 * being waited for, not the one already read. /proc/slabinfo is a FIFO
 * that a child fills once, after 1 s: sample 1 is read at 1 s, sample 2
 * is due at 2.5 s, the alarm rings at 2 s.
 */
START_TEST(test_check_timeout_between_samples)
{
	char *root = test_copy_tree(SLEEB), *fifo = test_path(root, "proc/slabinfo");
	char *content = test_read_file(fifo);
	struct result r;
	pid_t child;

	ck_assert_int_eq(unlink(fifo), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* sleebctl-test takes the FIFO for a slow /proc/slabinfo. */
	setenv("SLEEB_TEST_ALLOW_FIFOS", "1", 1);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		int fd = open(fifo, O_WRONLY);

		sleep(1);
		_exit(fd >= 0 && write(fd, content, strlen(content)) == (ssize_t)strlen(content) ? 0 : 1);
	}
	r = run("--root", root, "check", "--samples", "2", "--interval", "1500ms", "--timeout", "2", NULL);
	ck_assert_int_eq(r.status, 3);
	ck_assert_str_eq(r.out, "SLEEB UNKNOWN - no result within --timeout 2 s "
				"(waiting to read the caches, sample 2 of 2)\n");
	result_free(&r);
	waitpid(child, NULL, 0);
	test_rm_tree(root);
	free(content);
	free(fifo);
	free(root);
}
END_TEST

/* --timeout: a check that does not finish in time says so, UNKNOWN (3). */
START_TEST(test_check_timeout)
{
	char *root = test_copy_tree(SLEEB), *fifo = test_path(root, "proc/slabinfo");
	struct timespec a, b;
	struct result r;
	double secs;

	/* A /proc/slabinfo that never answers: a FIFO nobody writes. */
	ck_assert_int_eq(unlink(fifo), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* sleebctl-test takes the FIFO for a slow /proc/slabinfo. */
	setenv("SLEEB_TEST_ALLOW_FIFOS", "1", 1);
	clock_gettime(CLOCK_MONOTONIC, &a);
	r = run("--root", root, "check", "--timeout", "1", NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	ck_assert_int_eq(r.status, 3);
	ck_assert_str_eq(r.out, "SLEEB UNKNOWN - no result within --timeout 1 s (reading the caches, sample 1 of 1)\n");
	ck_assert_msg(secs >= 0.9 && secs < 5, "took %.2f s", secs);
	result_free(&r);

	r = run("--root", root, "check", "--json", "--timeout=1", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_json(r.out);
	assert_contains(r.out, "\"status\":\"UNKNOWN\",\"exit_code\":3,\"summary\":\"no result within --timeout 1 s");
	result_free(&r);

	/* Sampling alone would outlast it: refused at once. */
	r = run("--root", SLEEB, "check", "--samples", "3", "--interval", "1s", "--timeout", "2", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "SLEEB UNKNOWN - --timeout 2 s is too short for --samples 3 --interval 1s (2s of sampling)\n");
	result_free(&r);

	/* (samples - 1) x interval past 2^64 us wrapped to 0 s of sampling,
	 * which "fitted" in any timeout: the check then slept for ages. */
	r = run("--root", SLEEB, "check", "--samples", "3", "--interval", "9223372036854775808us", "--timeout", "1",
		NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "SLEEB UNKNOWN - --timeout 1 s is too short for --samples 3 --interval ");
	result_free(&r);

	r = run("--root", SLEEB, "check", "--timeout", "0", NULL);
	ck_assert_int_eq(r.status, 3);
	assert_contains(r.out, "SLEEB UNKNOWN - --timeout: '0': need 1..86400 seconds\n");
	result_free(&r);
	r = run("--root", SLEEB, "check", "--timeout", "10s", NULL);
	ck_assert_int_eq(r.status, 3);
	result_free(&r);

	/* In time: the usual answer. */
	r = run("--root", SLEEB, "check", "--timeout", "10", NULL);
	ck_assert_int_eq(r.status, 1);
	assert_contains(r.out, "SLEEB WARNING - ");
	result_free(&r);
	test_rm_tree(root);
	free(fifo);
	free(root);
}
END_TEST

/* Every tree under tests/data with a proc/slabinfo (hand-made or captured
 * from a guest) must show, check and get without an UNKNOWN. */
START_TEST(test_all_data_trees)
{
	DIR *d = opendir(SLEEB_TEST_DATA);
	struct dirent *de;
	unsigned trees = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		char *root, *slabinfo, *first, *name, *sp;
		struct result r;

		if (de->d_name[0] == '.')
			continue;
		root = test_path(SLEEB_TEST_DATA, de->d_name);
		slabinfo = test_path(root, "proc/slabinfo");
		if (access(slabinfo, R_OK) != 0) {
			free(slabinfo);
			free(root);
			continue;
		}
		trees++;
		r = run("--root", root, "show", NULL);
		ck_assert_msg(r.status == 0, "%s: show: %s", de->d_name, r.err);
		/* The first cache row's name, for get. */
		first = strchr(r.out, '\n');
		ck_assert_ptr_nonnull(first);
		name = strdup(first + 1);
		sp = strchr(name, ' ');
		if (sp)
			*sp = '\0';
		result_free(&r);
		r = run("--root", root, "show", "--json", NULL);
		ck_assert_int_eq(r.status, 0);
		assert_json(r.out);
		result_free(&r);
		r = run("--root", root, "check", "--json", NULL);
		ck_assert_msg(r.status <= 2, "%s: check: %s", de->d_name, r.out);
		assert_json(r.out);
		result_free(&r);
		if (*name) {
			r = run("--root", root, "get", name, NULL);
			/* 1 is fine on a kernel without SLEEB, or a cache that
			 * has no sysfs directory in the snapshot. */
			ck_assert_msg(r.status <= 1, "%s: get %s: %s", de->d_name, name, r.err);
			result_free(&r);
		}
		free(name);
		free(slabinfo);
		free(root);
	}
	closedir(d);
	ck_assert_uint_ge(trees, 2);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_global);
	tcase_add_test(tc, test_show);
	tcase_add_test(tc, test_show_json_and_vanilla);
	tcase_add_test(tc, test_get);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_set_rollback);
	tcase_add_test(tc, test_set_queue_sizes);
	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_check_unknown);
	tcase_add_test(tc, test_no_counters_read_unless_shown);
	tcase_add_test(tc, test_check_samples);
	tcase_add_test(tc, test_check_perfdata);
	tcase_add_test(tc, test_check_timeout);
	tcase_add_test(tc, test_check_timeout_between_samples);
	tcase_add_test(tc, test_check_json_worst);
	tcase_add_test(tc, test_all_data_trees);
}

int main(void)
{
	return test_main("sleebctl", add_tests);
}
