/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/sysfs.c: paths, values, queue_stats, listing, writes. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "sleeb/cache.h"
#include "sleeb/root.h"
#include "sleeb/sysfs.h"
#include "sleeb/util.h"

START_TEST(test_paths)
{
	char buf[256];

	sleeb_root_set("/r");
	ck_assert_int_gt(sleeb_sysfs_path(buf, sizeof(buf), "kmalloc-64", "cpu_queue_size"), 0);
	ck_assert_str_eq(buf, "/r/sys/kernel/slab/kmalloc-64/cpu_queue_size");
	ck_assert_int_gt(sleeb_sysfs_path(buf, sizeof(buf), "dentry", NULL), 0);
	ck_assert_str_eq(buf, "/r/sys/kernel/slab/dentry");
	ck_assert_int_eq(sleeb_sysfs_path(buf, sizeof(buf), "../etc", "x"), -EINVAL);
	ck_assert_int_eq(sleeb_sysfs_path(buf, sizeof(buf), "..", "x"), -EINVAL);
	ck_assert_int_eq(sleeb_sysfs_path(buf, sizeof(buf), ".", "x"), -EINVAL);
	ck_assert_int_eq(sleeb_sysfs_path(buf, sizeof(buf), "", "x"), -EINVAL);
	ck_assert_int_eq(sleeb_sysfs_path(buf, sizeof(buf), "a", "b/c"), -EINVAL);
	ck_assert_int_eq(sleeb_sysfs_path(buf, 10, "a", "b"), -ENAMETOOLONG);
	sleeb_root_set(NULL);
}
END_TEST

START_TEST(test_parse_value)
{
	static const struct {
		const char *s;
		int r;
		uint64_t v;
	} cases[] = {
		{ "120\n", 0, 120 },
		{ "120", 0, 120 },
		{ "3000 N0=2000 N1=1000\n", 0, 3000 },
		{ "7 C0=3 C1=4", 0, 7 },
		{ "0\n", 0, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ " 1\n", -EINVAL, 0 },
		{ "1\n\n", -EINVAL, 0 },
		{ "1x\n", -EINVAL, 0 },
		{ "-1\n", -EINVAL, 0 },
		{ "18446744073709551616\n", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;

		ck_assert_msg(sleeb_sysfs_parse_value(cases[i].s, strlen(cases[i].s), &v) == cases[i].r,
			      "case %zu", i);
		if (cases[i].r == 0)
			ck_assert_uint_eq(v, cases[i].v);
	}
}
END_TEST

static int qs_parse(const char *text, struct sleeb_queue_stats *qs, struct sleeb_error *err)
{
	return sleeb_queue_stats_parse(text, strlen(text), "qs", qs, err);
}

START_TEST(test_queue_stats)
{
	struct sleeb_queue_stats qs;
	struct sleeb_error err = { 0 };
	unsigned i;

	ck_assert_int_eq(qs_parse("alloc_refill 1\nfree_drain 2\nshared_alloc_hit 3\n"
				  "shared_alloc_miss 4\nshared_free 5\nshared_overflow 6\n"
				  "remote_free 7\nremote_alloc 8\nreap_drained 9\nresize 10\n"
				  "fastpath_ops 11\narray_fail 12\nrefill_nomem 13\nbulk_alloc 14\n"
				  "bulk_free 15\nresize_drained 16\nbrand_new_counter 17\n\n", &qs, &err), 0);
	ck_assert_uint_eq(qs.present, (1u << _SLEEB_QSTAT_MAX) - 1);
	for (i = 0; i < _SLEEB_QSTAT_MAX; i++)
		ck_assert_uint_eq(qs.value[i], i + 1);
	ck_assert_str_eq(sleeb_queue_stat_name(SLEEB_QSTAT_RESIZE), "resize");
	ck_assert_ptr_null(sleeb_queue_stat_name(_SLEEB_QSTAT_MAX));
	/* Per-cpu breakdown after the total, no final newline, tabs. */
	ck_assert_int_eq(qs_parse("alloc_refill\t5 C0=2 C1=3", &qs, &err), 0);
	ck_assert_uint_eq(qs.value[SLEEB_QSTAT_ALLOC_REFILL], 5);
	ck_assert_uint_eq(qs.present, 1u << SLEEB_QSTAT_ALLOC_REFILL);

	ck_assert_int_eq(qs_parse("alloc_refill 1\nalloc_refill 2\n", &qs, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "qs:2: duplicate counter alloc_refill");
	ck_assert_int_eq(qs_parse("free_drain\n", &qs, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "qs:1: expected 'name value'");
	ck_assert_int_eq(qs_parse("free_drain x\n", &qs, &err), -EINVAL);
	ck_assert_int_eq(qs_parse("free_drain 1x\n", &qs, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "qs:1: trailing garbage after value");
	ck_assert_int_eq(qs_parse("resize 1\nfree_drain 99999999999999999999\n", &qs, &err), -ERANGE);
	ck_assert_str_eq(err.msg, "qs:2: free_drain: value out of range");
	ck_assert_int_eq(sleeb_queue_stats_parse("a 1\n\0", 5, "qs", &qs, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "qs:2: NUL byte in line");
}
END_TEST

START_TEST(test_read_fake_tree)
{
	struct sleeb_queue_stats qs;
	struct sleeb_error err = { 0 };
	char buf[64];
	uint64_t v;

	sleeb_root_set(SLEEB_TEST_DATA "/fake-sleeb");
	ck_assert_int_eq(sleeb_sysfs_read_u64("kmalloc-64", "cpu_queue_size", &v, &err), 0);
	ck_assert_uint_eq(v, 120);
	ck_assert_int_eq(sleeb_sysfs_read_u64("dentry", "objects", &v, &err), 0);
	ck_assert_uint_eq(v, 20000);
	ck_assert_int_eq(sleeb_sysfs_read_string("dentry", "object_size", buf, sizeof(buf), &err), 3);
	ck_assert_str_eq(buf, "192");
	ck_assert_int_eq(sleeb_sysfs_read_u64("nope", "objects", &v, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "/sys/kernel/slab/nope/objects: No such file"), "%s", err.msg);
	ck_assert_int_eq(sleeb_sysfs_read_u64("../..", "objects", &v, &err), -EINVAL);
	ck_assert(sleeb_sysfs_has_attr("kmalloc-64", "queue_stats"));
	ck_assert(!sleeb_sysfs_has_attr("kmalloc-64", "nope"));
	ck_assert_int_eq(sleeb_sysfs_read_queue_stats("kmalloc-64", &qs, &err), 0);
	ck_assert_uint_eq(qs.value[SLEEB_QSTAT_ALLOC_REFILL], 1000);

	sleeb_root_set(SLEEB_TEST_DATA "/fake-vanilla");
	ck_assert_int_eq(sleeb_sysfs_read_queue_stats("kmalloc-64", &qs, &err), -ENOENT);
	ck_assert(!sleeb_sysfs_has_attr("kmalloc-64", "cpu_queue_size"));
	sleeb_root_set(NULL);
}
END_TEST

START_TEST(test_unparsable_attribute)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb");
	char *attr = test_path(root, "sys/kernel/slab/dentry/cpu_queue_size");
	struct sleeb_error err = { 0 };
	uint64_t v;

	test_write_file(attr, "lots\n");
	sleeb_root_set(root);
	ck_assert_int_eq(sleeb_sysfs_read_u64("dentry", "cpu_queue_size", &v, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "dentry: cpu_queue_size: 'lots' is not a number");
	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(attr);
	free(root);
}
END_TEST

START_TEST(test_list_and_aliases)
{
	struct sleeb_sysfs_list l;
	struct sleeb_error err = { 0 };
	char buf[256];

	sleeb_root_set(SLEEB_TEST_DATA "/fake-sleeb");
	/* 9 caches, kmalloc-64 and kmalloc-128 as links + 3 more alias links
	 * + 2 merged directories. */
	ck_assert_int_eq(sleeb_sysfs_list_caches(&l, &err), 14);
	ck_assert_str_eq(l.entries[0].name, ":0000064");  /* sorted */
	ck_assert_str_eq(sleeb_sysfs_list_id(&l, "ip_mrt_cache"), ":0000064");
	ck_assert_str_eq(sleeb_sysfs_list_id(&l, "dentry"), "dentry");
	ck_assert_ptr_null(sleeb_sysfs_list_id(&l, "nope"));
	ck_assert_int_eq(sleeb_sysfs_list_aliases(&l, "kmalloc-64", buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "dmaengine-unmap-2,ip_mrt_cache");
	ck_assert_int_eq(sleeb_sysfs_list_aliases(&l, "ip_mrt_cache", buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "dmaengine-unmap-2,kmalloc-64");
	ck_assert_int_eq(sleeb_sysfs_list_aliases(&l, "dentry", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(sleeb_sysfs_list_aliases(&l, "kmalloc-64", buf, 10), -ENOBUFS);
	sleeb_sysfs_list_free(&l);

	sleeb_root_set("/nonexistent");
	ck_assert_int_eq(sleeb_sysfs_list_caches(&l, &err), -ENOENT);
	sleeb_root_set(NULL);
}
END_TEST

START_TEST(test_write)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb"), *p;
	struct sleeb_error err = { 0 };
	uint64_t v;

	sleeb_root_set(root);
	/* Through an alias: lands in the merged directory. */
	ck_assert_int_eq(sleeb_sysfs_write_u64("ip_mrt_cache", "cpu_queue_size", 7, &err), 0);
	ck_assert_int_eq(sleeb_sysfs_read_u64("kmalloc-64", "cpu_queue_size", &v, &err), 0);
	ck_assert_uint_eq(v, 7);
	/* A shorter value leaves no tail of the old one in a fake tree. */
	ck_assert_int_eq(sleeb_sysfs_write_u64("dentry", "cpu_queue_size", 1, &err), 0);
	p = test_path(root, "sys/kernel/slab/dentry/cpu_queue_size");
	test_assert_file_eq(p, "1\n");
	free(p);

	/* Errors carry the errno and "cache: attr: value: reason". Root can
	 * write anything, but not below a regular file or into a directory. */
	ck_assert_int_eq(sleeb_sysfs_write_u64("dentry", "object_size/x", 1, &err), -EINVAL);
	ck_assert_int_eq(sleeb_sysfs_write_u64("nope", "cpu_queue_size", 5, &err), -ENOENT);
	ck_assert_str_eq(err.msg, "nope: cpu_queue_size: 5: No such file or directory");
	p = test_path(root, "sys/kernel/slab/dentry/cpu_batch_size");
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	ck_assert_int_eq(sleeb_sysfs_write_u64("dentry", "cpu_batch_size", 9, &err), -EISDIR);
	ck_assert_str_eq(err.msg, "dentry: cpu_batch_size: 9: Is a directory");
	free(p);
	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(root);
}
END_TEST

/* Under --root a planted link must not turn a write by root into a write
 * to (let alone a truncation of) any file it points at. */
START_TEST(test_write_refuses_symlink)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb"), *p, *victim;
	struct sleeb_error err = { 0 };

	sleeb_root_set(root);
	victim = test_path(root, "victim");
	test_write_file(victim, "precious data\n");
	p = test_path(root, "sys/kernel/slab/dentry/cpu_queue_size");
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(symlink(victim, p), 0);
	ck_assert_int_eq(sleeb_sysfs_write_u64("dentry", "cpu_queue_size", 1, &err), -ELOOP);
	ck_assert_str_eq(err.msg, "dentry: cpu_queue_size: 1: is a symbolic link, not a sysfs attribute");
	test_assert_file_eq(victim, "precious data\n");
	free(p);
	free(victim);
	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(root);
}
END_TEST


/*
 * A cache directory under --root that is a link out of the tree, with an
 * absolute target or with ".." past the root, a victim directory with an
 * attribute behind it; and a merged cache's link in sysfs's own relative
 * style ("../slab/:0000064"), which must keep working.
 */
struct escape {
	char *root, *victim, *victim_attr;
};

static void escape_setup(struct escape *e)
{
	char target[512], *link;

	e->root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb");
	e->victim = test_mkdtemp();
	e->victim_attr = test_path(e->victim, "cpu_queue_size");
	test_write_file(e->victim_attr, "777\n");
	link = test_path(e->root, "sys/kernel/slab/evil_abs");
	ck_assert_int_eq(symlink(e->victim, link), 0);
	free(link);
	snprintf(target, sizeof(target), "../../../../%s", strrchr(e->victim, '/') + 1);
	link = test_path(e->root, "sys/kernel/slab/evil_dots");
	ck_assert_int_eq(symlink(target, link), 0);
	free(link);
	link = test_path(e->root, "sys/kernel/slab/kmalloc-64");
	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(symlink("../slab/:0000064", link), 0);
	free(link);
	sleeb_root_set(e->root);
}

static void escape_teardown(struct escape *e)
{
	sleeb_root_set(NULL);
	test_rm_tree(e->root);
	test_rm_tree(e->victim);
	free(e->root);
	free(e->victim);
	free(e->victim_attr);
}

static void assert_stays_inside(void)
{
	static const char *const links[] = { "evil_abs", "evil_dots" };
	struct sleeb_error err = { 0 };
	struct escape e;
	uint64_t v;

	escape_setup(&e);
	for (size_t i = 0; i < SLEEB_ELEMENTSOF(links); i++) {
		/* Resolved inside the tree, the target is not there. */
		ck_assert_int_eq(sleeb_sysfs_write_u64(links[i], "cpu_queue_size", 5, &err), -ENOENT);
		ck_assert_int_eq(sleeb_sysfs_read_u64(links[i], "cpu_queue_size", &v, &err), -ENOENT);
		ck_assert(!sleeb_sysfs_has_attr(links[i], "cpu_queue_size"));
	}
	test_assert_file_eq(e.victim_attr, "777\n");
	/* sysfs's own relative links still lead where they should. */
	ck_assert_int_eq(sleeb_sysfs_read_u64("kmalloc-64", "cpu_queue_size", &v, &err), 0);
	ck_assert_uint_eq(v, 120);
	ck_assert_int_eq(sleeb_sysfs_write_u64("kmalloc-64", "cpu_queue_size", 30, &err), 0);
	ck_assert_int_eq(sleeb_sysfs_read_u64("ip_mrt_cache", "cpu_queue_size", &v, &err), 0);
	ck_assert_uint_eq(v, 30);
	escape_teardown(&e);
}

START_TEST(test_link_out_of_root)
{
	assert_stays_inside();
}
END_TEST

static long openat2_enosys(int dirfd, const char *path, struct open_how *how, size_t size)
{
	(void)dirfd;
	(void)path;
	(void)how;
	(void)size;
	errno = ENOSYS;
	return -1;
}

/* The same without openat2(2): the component-by-component walk. */
START_TEST(test_link_out_of_root_without_openat2)
{
	long (*saved)(int, const char *, struct open_how *, size_t) = sleeb_root_openat2;

	sleeb_root_openat2 = openat2_enosys;
	assert_stays_inside();
	sleeb_root_openat2 = saved;
}
END_TEST

/* A snapshot reads no value from outside the tree either. */
START_TEST(test_snapshot_stays_inside)
{
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	struct escape e;
	char *p;

	escape_setup(&e);
	/* kmalloc-64 itself leads out now. */
	p = test_path(e.root, "sys/kernel/slab/kmalloc-64");
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(symlink(e.victim, p), 0);
	free(p);
	test_write_file_at(e.victim, "cpu_batch_size", "7\n");
	test_write_file_at(e.victim, "shared_queue_size", "7\n");
	test_write_file_at(e.victim, "object_size", "64\n");
	ck_assert_msg(sleeb_cache_set_load(&set, &err) >= 0, "%s", err.msg);
	for (size_t i = 0; i < set.n; i++)
		ck_assert_msg(set.caches[i].tunables.v[SLEEB_TUNABLE_QUEUE] != 777, "%s read from outside the tree",
			      set.caches[i].si.name);
	sleeb_cache_set_free(&set);
	escape_teardown(&e);
}
END_TEST

/*
 * A FIFO planted as an attribute blocks neither a read nor a write
 * (sysfs attributes are regular files): a precise error instead.
 */
START_TEST(test_fifo_attribute_refused)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb"), *p, want[512];
	struct sleeb_error err = { 0 };
	uint64_t v;

	p = test_path(root, "sys/kernel/slab/dentry/cpu_queue_size");
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	sleeb_root_set(root);
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO)", p);
	ck_assert_int_eq(sleeb_sysfs_read_u64("dentry", "cpu_queue_size", &v, &err), -EBADFD);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(sleeb_sysfs_write_u64("dentry", "cpu_queue_size", 5, &err), -EBADFD);
	ck_assert_str_eq(err.msg, want);
	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(p);
	free(root);
}
END_TEST

/* A line attribute (queue_sizes): one write, errors with the path. */
START_TEST(test_write_string)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb"), *p, *want = NULL;
	struct sleeb_error err = { 0 };

	sleeb_root_set(root);
	p = test_path(root, "sys/kernel/slab/kmalloc-64/queue_sizes");
	test_write_file(p, "120 60 480\n");
	ck_assert_int_eq(sleeb_sysfs_write_string("ip_mrt_cache", "queue_sizes", "8 4 0", &err), 0);
	test_assert_file_eq(p, "8 4 0\n");
	free(p);

	p = test_path(root, "sys/kernel/slab/dentry/queue_sizes");
	ck_assert_int_eq(sleeb_sysfs_write_string("dentry", "queue_sizes", "1 1 0", &err), -ENOENT);
	ck_assert_int_ge(asprintf(&want, "%s: 1 1 0: No such file or directory", p), 0);
	ck_assert_str_eq(err.msg, want);
	free(want);
	ck_assert_int_eq(symlink("../kmalloc-1k/object_size", p), 0);
	ck_assert_int_eq(sleeb_sysfs_write_string("dentry", "queue_sizes", "1 1 0", &err), -ELOOP);
	free(p);
	p = test_path(root, "sys/kernel/slab/kmalloc-1k/object_size");
	test_assert_file_eq(p, "1024\n");
	free(p);
	ck_assert_int_eq(sleeb_sysfs_write_string("dentry", "a/b", "1", &err), -EINVAL);
	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(root);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_parse_value);
	tcase_add_test(tc, test_queue_stats);
	tcase_add_test(tc, test_read_fake_tree);
	tcase_add_test(tc, test_unparsable_attribute);
	tcase_add_test(tc, test_list_and_aliases);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_write_refuses_symlink);
	tcase_add_test(tc, test_link_out_of_root);
	tcase_add_test(tc, test_link_out_of_root_without_openat2);
	tcase_add_test(tc, test_snapshot_stays_inside);
	tcase_add_test(tc, test_fifo_attribute_refused);
	tcase_add_test(tc, test_write_string);
}

int main(void)
{
	return test_main("sysfs", add_tests);
}
