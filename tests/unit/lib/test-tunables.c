/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/tunables.c: rules, write ordering, rollback. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "sleeb/root.h"
#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"

#define T(q, b, s) ((struct sleeb_tunables) { .v = { (q), (b), (s) } })

START_TEST(test_names)
{
	enum sleeb_tunable t;

	ck_assert_str_eq(sleeb_tunable_attr(SLEEB_TUNABLE_QUEUE), "cpu_queue_size");
	ck_assert_str_eq(sleeb_tunable_attr(SLEEB_TUNABLE_BATCH), "cpu_batch_size");
	ck_assert_str_eq(sleeb_tunable_attr(SLEEB_TUNABLE_SHARED), "shared_queue_size");
	ck_assert_ptr_null(sleeb_tunable_attr(_SLEEB_TUNABLE_MAX));
	ck_assert_str_eq(sleeb_tunable_name(SLEEB_TUNABLE_SHARED), "shared");
	ck_assert_ptr_null(sleeb_tunable_name(_SLEEB_TUNABLE_MAX));
	ck_assert_int_eq(sleeb_tunable_from_string("batch", &t), 0);
	ck_assert_int_eq(t, SLEEB_TUNABLE_BATCH);
	ck_assert_int_eq(sleeb_tunable_from_string("shared_queue_size", &t), 0);
	ck_assert_int_eq(t, SLEEB_TUNABLE_SHARED);
	ck_assert_int_eq(sleeb_tunable_from_string("limit", &t), -EINVAL);
}
END_TEST

START_TEST(test_check_write)
{
	struct sleeb_tunables cur = T(120, 60, 480);
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_QUEUE, 0, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_QUEUE, 60, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_QUEUE, 10000, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_QUEUE, 59, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_queue_size: 59: below cpu_batch_size 60");
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_QUEUE, 10001, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_queue_size: 10001: must be 0 or 1..10000");
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_BATCH, 1, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_BATCH, 120, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_BATCH, 0, &err), -EINVAL);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_BATCH, 121, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_batch_size: 121: above cpu_queue_size 120");
	cur = T(120, 60, 80);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_BATCH, 81, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_batch_size: 81: above shared_queue_size 80");
	cur = T(120, 60, 480);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_SHARED, 0, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_SHARED, 60, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_SHARED, 10000, &err), 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_SHARED, 59, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "shared_queue_size: 59: below cpu_batch_size 60");
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_SHARED, 10001, &err), -EINVAL);
	cur = T(0, 60, 0);
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, SLEEB_TUNABLE_BATCH, 5, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_batch_size: 5: above cpu_queue_size 0 (queues are off)");
	ck_assert_int_eq(sleeb_tunables_check_write(&cur, _SLEEB_TUNABLE_MAX, 5, &err), -EINVAL);
}
END_TEST

START_TEST(test_validate)
{
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_tunables_validate(&T(0, 0, 0), &err), 0);  /* vanilla */
	ck_assert_int_eq(sleeb_tunables_validate(&T(0, 60, 480), &err), 0);
	ck_assert_int_eq(sleeb_tunables_validate(&T(1, 1, 0), &err), 0);
	ck_assert_int_eq(sleeb_tunables_validate(&T(10000, 10000, 10000), &err), 0);
	ck_assert_int_eq(sleeb_tunables_validate(&T(120, 60, 60), &err), 0);
	ck_assert_int_eq(sleeb_tunables_validate(&T(10001, 1, 0), &err), -EINVAL);
	ck_assert_int_eq(sleeb_tunables_validate(&T(100, 10001, 0), &err), -EINVAL);
	ck_assert_int_eq(sleeb_tunables_validate(&T(100, 10, 10001), &err), -EINVAL);
	ck_assert_int_eq(sleeb_tunables_validate(&T(100, 0, 0), &err), -EINVAL);
	ck_assert_int_eq(sleeb_tunables_validate(&T(100, 101, 0), &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_batch_size: 101: not in 1..cpu_queue_size 100");
	ck_assert_int_eq(sleeb_tunables_validate(&T(100, 50, 49), &err), -EINVAL);
	ck_assert_str_eq(err.msg, "shared_queue_size: 49: below cpu_batch_size 50");
	ck_assert_int_eq(sleeb_tunables_validate(&T(0, 0, 5), &err), -EINVAL);
	ck_assert_int_eq(sleeb_tunables_validate(&T(0, 50, 49), &err), -EINVAL);
}
END_TEST

static int plan(struct sleeb_tunables cur, struct sleeb_tunables target,
		struct sleeb_tunables_step *steps, struct sleeb_error *err)
{
	return sleeb_tunables_plan(&cur, &target, steps, err);
}

START_TEST(test_plan_orders)
{
	struct sleeb_tunables_step st[SLEEB_TUNABLES_STEPS_MAX];
	struct sleeb_error err = { 0 };

	/* Grow: queue first; shared before batch, because batch may not
	 * pass a non-zero shared. */
	ck_assert_int_eq(plan(T(10, 5, 5), T(100, 50, 50), st, &err), 3);
	ck_assert_int_eq(st[0].which, SLEEB_TUNABLE_QUEUE);
	ck_assert_int_eq(st[1].which, SLEEB_TUNABLE_SHARED);
	ck_assert_int_eq(st[2].which, SLEEB_TUNABLE_BATCH);
	/* Shrink: batch before queue, shared after batch. */
	ck_assert_int_eq(plan(T(100, 50, 50), T(10, 5, 5), st, &err), 3);
	ck_assert_int_eq(st[0].which, SLEEB_TUNABLE_BATCH);
	ck_assert_uint_eq(st[0].value, 5);
	ck_assert_int_eq(st[1].which, SLEEB_TUNABLE_QUEUE);
	ck_assert_int_eq(st[2].which, SLEEB_TUNABLE_SHARED);
	/* Shared off first when batch grows past it. */
	ck_assert_int_eq(plan(T(100, 10, 20), T(100, 50, 0), st, &err), 2);
	ck_assert_int_eq(st[0].which, SLEEB_TUNABLE_SHARED);
	ck_assert_int_eq(st[1].which, SLEEB_TUNABLE_BATCH);
	/* Unchanged: nothing to write. */
	ck_assert_int_eq(plan(T(120, 60, 480), T(120, 60, 480), st, &err), 0);
	/* Turning queues on from a vanilla-looking 0 0 0. */
	ck_assert_int_eq(plan(T(0, 0, 0), T(64, 32, 0), st, &err), 2);
	ck_assert_int_eq(st[0].which, SLEEB_TUNABLE_QUEUE);
	/* Invalid target: refused before any write. */
	ck_assert_int_eq(plan(T(120, 60, 0), T(10, 60, 0), st, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "cpu_batch_size: 60: not in 1..cpu_queue_size 10");
	/* Batch cannot change while queues are off: open the queue first,
	 * then close it again. */
	ck_assert_int_eq(plan(T(0, 60, 0), T(0, 30, 0), st, &err), 3);
	ck_assert_int_eq(st[0].which, SLEEB_TUNABLE_QUEUE);
	ck_assert_uint_eq(st[0].value, 60);
	ck_assert_int_eq(st[1].which, SLEEB_TUNABLE_BATCH);
	ck_assert_int_eq(st[2].which, SLEEB_TUNABLE_QUEUE);
	ck_assert_uint_eq(st[2].value, 0);
	/* Queue off with a big batch, target a small queue and batch. */
	ck_assert_int_eq(plan(T(0, 10, 10), T(5, 2, 0), st, &err), 4);
	/* Only an inconsistent current state can leave no order. */
	ck_assert_int_eq(plan(T(0, 20000, 0), T(0, 30, 0), st, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "no valid order of writes"), "%s", err.msg);
}
END_TEST

/* Exhaustive over a small value set: a plan exists whenever both ends are
 * valid, every write passes the kernel rule, every intermediate state is
 * valid, and the last one is the target. */
START_TEST(test_plan_exhaustive)
{
	static const uint32_t vals[] = { 0, 1, 2, 5, 10, 10000 };
	const size_t n = sizeof(vals) / sizeof(vals[0]);
	size_t a, b, c, d, e, f;
	unsigned plans = 0;

	for (a = 0; a < n; a++) for (b = 0; b < n; b++) for (c = 0; c < n; c++)
	for (d = 0; d < n; d++) for (e = 0; e < n; e++) for (f = 0; f < n; f++) {
		struct sleeb_tunables cur = T(vals[a], vals[b], vals[c]);
		struct sleeb_tunables target = T(vals[d], vals[e], vals[f]);
		struct sleeb_tunables_step st[SLEEB_TUNABLES_STEPS_MAX];
		int r, i;

		if (sleeb_tunables_validate(&cur, NULL) < 0)
			continue;
		r = sleeb_tunables_plan(&cur, &target, st, NULL);
		if (sleeb_tunables_validate(&target, NULL) < 0) {
			ck_assert_int_eq(r, -EINVAL);
			continue;
		}
		/* Batch 0 exists only as the never-tuned 0 0 0; no write
		 * can set it. */
		if (target.v[SLEEB_TUNABLE_BATCH] == 0 && cur.v[SLEEB_TUNABLE_BATCH] != 0) {
			ck_assert_int_eq(r, -EINVAL);
			continue;
		}
		ck_assert_msg(r >= 0, "no plan %u/%u/%u -> %u/%u/%u", cur.v[0], cur.v[1],
			      cur.v[2], target.v[0], target.v[1], target.v[2]);
		plans++;
		for (i = 0; i < r; i++) {
			ck_assert_int_eq(sleeb_tunables_check_write(&cur, st[i].which, st[i].value, NULL), 0);
			cur.v[st[i].which] = st[i].value;
			/* Starting from 0 0 0 (never tuned) batch is 0 until
			 * written; every other intermediate state is valid. */
			if (cur.v[SLEEB_TUNABLE_BATCH] != 0)
				ck_assert_int_eq(sleeb_tunables_validate(&cur, NULL), 0);
		}
		ck_assert_mem_eq(&cur, &target, sizeof(cur));
	}
	ck_assert_uint_gt(plans, 1000);
}
END_TEST

/* A recording writer that fails the Nth write (1-based) or the Nth and
 * every later one. */
struct recorder {
	struct sleeb_tunables state;
	int fail_at;
	bool fail_after;
	int calls;
	char log[512];
};

static int record_write(const char *cache, enum sleeb_tunable which, uint32_t value,
			void *userdata, struct sleeb_error *err)
{
	struct recorder *rec = userdata;
	size_t len = strlen(rec->log);

	rec->calls++;
	snprintf(rec->log + len, sizeof(rec->log) - len, "%s%s=%u", len ? " " : "",
		 sleeb_tunable_name(which), value);
	if (rec->calls == rec->fail_at || (rec->fail_after && rec->calls > rec->fail_at))
		return sleeb_error_set(err, rec->calls == rec->fail_at ? EINVAL : EBUSY,
				       "%s: %s: %u: %s", cache, sleeb_tunable_attr(which), value,
				       rec->calls == rec->fail_at ? "Invalid argument" : "Device or resource busy");
	/* The fake kernel enforces the same rule as the real one. */
	ck_assert_int_eq(sleeb_tunables_check_write(&rec->state, which, value, NULL), 0);
	rec->state.v[which] = value;
	return 0;
}

START_TEST(test_apply_ok)
{
	struct recorder rec = { .state = T(10, 5, 5) };
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_tunables_apply("c", &T(10, 5, 5), &T(100, 50, 50), record_write, &rec,
					      &err), 0);
	ck_assert_str_eq(rec.log, "queue=100 shared=50 batch=50");
	ck_assert_mem_eq(&rec.state, &T(100, 50, 50), sizeof(rec.state));
}
END_TEST

START_TEST(test_apply_rollback)
{
	struct recorder rec = { .state = T(100, 50, 50), .fail_at = 3 };
	struct sleeb_error err = { 0 };

	/* batch 5, queue 10 succeed; shared 5 fails; undo queue then batch. */
	ck_assert_int_eq(sleeb_tunables_apply("kmalloc-64", &T(100, 50, 50), &T(10, 5, 5),
					      record_write, &rec, &err), -EINVAL);
	ck_assert_str_eq(rec.log, "batch=5 queue=10 shared=5 queue=100 batch=50");
	ck_assert_str_eq(err.msg, "kmalloc-64: shared_queue_size: 5: Invalid argument; "
		         "rolled back to queue=100 batch=50 shared=50");
	ck_assert_mem_eq(&rec.state, &T(100, 50, 50), sizeof(rec.state));
}
END_TEST

START_TEST(test_apply_first_write_fails)
{
	struct recorder rec = { .state = T(10, 5, 0), .fail_at = 1 };
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_tunables_apply("c", &T(10, 5, 0), &T(20, 5, 0), record_write, &rec,
					      &err), -EINVAL);
	ck_assert_str_eq(rec.log, "queue=20");
	ck_assert_str_eq(err.msg, "c: cpu_queue_size: 20: Invalid argument; rolled back to queue=10 batch=5 shared=0");
}
END_TEST

START_TEST(test_apply_rollback_fails)
{
	struct recorder rec = { .state = T(10, 5, 5), .fail_at = 2, .fail_after = true };
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_tunables_apply("c", &T(10, 5, 5), &T(100, 50, 50), record_write, &rec,
					      &err), -EINVAL);
	ck_assert_str_eq(rec.log, "queue=100 shared=50 queue=10");
	ck_assert_str_eq(err.msg, "c: shared_queue_size: 50: Invalid argument; rollback failed: "
			 "c: cpu_queue_size: 10: Device or resource busy");
}
END_TEST

START_TEST(test_apply_invalid_target)
{
	struct recorder rec = { .state = T(10, 5, 5) };
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_tunables_apply("c", &T(10, 5, 5), &T(10, 50, 50), record_write, &rec,
					      &err), -EINVAL);
	ck_assert_int_eq(rec.calls, 0);
	ck_assert_str_eq(err.msg, "c: cpu_batch_size: 50: not in 1..cpu_queue_size 10");
}
END_TEST

START_TEST(test_read_and_apply_sysfs)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb"), *p;
	struct sleeb_tunables cur;
	struct sleeb_error err = { 0 };

	sleeb_root_set(root);
	ck_assert_int_eq(sleeb_tunables_read("kmalloc-1k", &cur, &err), 0);
	ck_assert_mem_eq(&cur, &T(54, 27, 216), sizeof(cur));
	ck_assert_int_eq(sleeb_tunables_apply("kmalloc-1k", &cur, &T(240, 120, 0), NULL, NULL, &err), 0);
	ck_assert_int_eq(sleeb_tunables_read("kmalloc-1k", &cur, &err), 0);
	ck_assert_mem_eq(&cur, &T(240, 120, 0), sizeof(cur));

	/* Make shared_queue_size unwritable even for root (a directory with
	 * the old value readable nowhere): the write fails with EISDIR after
	 * queue and batch were written, and both are restored. */
	ck_assert_int_eq(sleeb_tunables_read("dentry", &cur, &err), 0);
	p = test_path(root, "sys/kernel/slab/dentry/shared_queue_size");
	ck_assert_int_eq(remove(p), 0);
	ck_assert_int_eq(mkdir(p, 0755), 0);
	ck_assert_int_eq(sleeb_tunables_apply("dentry", &T(120, 60, 480), &T(1000, 500, 500), NULL,
					      NULL, &err), -EISDIR);
	ck_assert_str_eq(err.msg, "dentry: shared_queue_size: 500: Is a directory; rolled back to "
			 "queue=120 batch=60 shared=480");
	free(p);
	p = test_path(root, "sys/kernel/slab/dentry/cpu_queue_size");
	test_assert_file_eq(p, "120\n");
	free(p);
	p = test_path(root, "sys/kernel/slab/dentry/cpu_batch_size");
	test_assert_file_eq(p, "60\n");
	free(p);

	ck_assert_int_eq(sleeb_tunables_read("nope", &cur, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "nope: no such cache"), "%s", err.msg);
	p = test_path(root, "sys/kernel/slab/inode_cache/cpu_batch_size");
	test_write_file(p, "99999999999\n");
	ck_assert_int_eq(sleeb_tunables_read("inode_cache", &cur, &err), -ERANGE);
	free(p);

	/* One cache without the attributes on a SLEEB kernel. */
	p = test_path(root, "sys/kernel/slab/kmalloc-4k/cpu_queue_size");
	ck_assert_int_eq(remove(p), 0);
	free(p);
	ck_assert_int_eq(sleeb_tunables_read("kmalloc-4k", &cur, &err), -EOPNOTSUPP);
	ck_assert_str_eq(err.msg, "kmalloc-4k: this cache has no SLEEB queue attributes (no cpu_queue_size)");

	sleeb_root_set(SLEEB_TEST_DATA "/fake-vanilla");
	ck_assert_int_eq(sleeb_tunables_read("kmalloc-1k", &cur, &err), -EOPNOTSUPP);
	ck_assert_str_eq(err.msg, "kmalloc-1k: this kernel has no SLEEB queues (no cpu_queue_size attribute)");
	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(root);
}
END_TEST

/*
 * A kernel with queue_sizes takes the three sizes in one write. The single
 * files keep their values in a fake tree, so any write to them shows.
 */
START_TEST(test_apply_queue_sizes)
{
	char *root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb"), *p;
	struct sleeb_error err = { 0 };
	const char *const single[] = { "cpu_queue_size", "cpu_batch_size", "shared_queue_size" };
	const char *const was[] = { "54\n", "27\n", "216\n" };
	char *want;
	size_t i;

	sleeb_root_set(root);
	test_write_file_at(root, "sys/kernel/slab/kmalloc-1k/queue_sizes", "54 27 216\n");
	ck_assert_int_eq(sleeb_tunables_apply("kmalloc-1k", &T(54, 27, 216), &T(240, 120, 0), NULL,
					      NULL, &err), 0);
	p = test_path(root, "sys/kernel/slab/kmalloc-1k/queue_sizes");
	test_assert_file_eq(p, "240 120 0\n");
	free(p);
	for (i = 0; i < 3; i++) {
		p = test_path(root, "sys/kernel/slab/kmalloc-1k");
		want = test_path(p, single[i]);
		test_assert_file_eq(want, was[i]);
		free(want);
		free(p);
	}

	/* An invalid target is refused before the write. */
	ck_assert_int_eq(sleeb_tunables_apply("kmalloc-1k", &T(240, 120, 0), &T(10, 20, 0), NULL,
					      NULL, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "kmalloc-1k: cpu_batch_size: 20: not in 1..cpu_queue_size 10");

	/* The kernel's refusal: the path and its errno, nothing to roll back. */
	p = test_path(root, "sys/kernel/slab/dentry/queue_sizes");
	ck_assert_int_eq(mkdir(p, 0755), 0);
	ck_assert_int_eq(sleeb_tunables_apply("dentry", &T(120, 60, 480), &T(1000, 500, 500), NULL,
					      NULL, &err), -EISDIR);
	want = NULL;
	ck_assert_int_ge(asprintf(&want, "%s: 1000 500 500: Is a directory", p), 0);
	ck_assert_str_eq(err.msg, want);
	free(want);
	free(p);
	p = test_path(root, "sys/kernel/slab/dentry/cpu_queue_size");
	test_assert_file_eq(p, "120\n");
	free(p);

	sleeb_root_set(NULL);
	test_rm_tree(root);
	free(root);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_check_write);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_plan_orders);
	tcase_add_test(tc, test_plan_exhaustive);
	tcase_add_test(tc, test_apply_ok);
	tcase_add_test(tc, test_apply_rollback);
	tcase_add_test(tc, test_apply_first_write_fails);
	tcase_add_test(tc, test_apply_rollback_fails);
	tcase_add_test(tc, test_apply_invalid_target);
	tcase_add_test(tc, test_read_and_apply_sysfs);
	tcase_add_test(tc, test_apply_queue_sizes);
}

int main(void)
{
	return test_main("tunables", add_tests);
}
