/* SPDX-License-Identifier: GPL-2.0-only */
/* Rollback state file: round trip, first value wins, errors. */

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "sleeb/ini.h"
#include "sleeb/state.h"

static char dir[64], path[192];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/sleeb-state-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run/sleeb/state", dir);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_round_trip)
{
	struct sleeb_state s, t;
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 120, 60, 480 } }, b = { { 8, 4, 0 } }, later = { { 1, 1, 0 } };

	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), 0);       /* missing: empty */
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &a), 1);
	ck_assert_int_eq(sleeb_state_remember(&s, ":a-0000104", &b), 1);
	/* the first value seen is the original; later ones are ours */
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &later), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "bad name", &a), -EINVAL);
	ck_assert_int_eq(sleeb_state_remember(&s, "", &a), -EINVAL);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);             /* creates run/sleeb/ */

	ck_assert_int_eq(sleeb_state_load(&t, path, NULL, &err), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_ptr_nonnull(sleeb_state_find(&t, "kmalloc-64"));
	ck_assert_mem_eq(&sleeb_state_find(&t, "kmalloc-64")->orig, &a, sizeof(a));
	ck_assert_mem_eq(&sleeb_state_find(&t, ":a-0000104")->orig, &b, sizeof(b));
	ck_assert_ptr_null(sleeb_state_find(&t, "dentry"));

	ck_assert_int_eq(sleeb_state_forget(&t, "kmalloc-64"), 1);
	ck_assert_int_eq(sleeb_state_forget(&t, "kmalloc-64"), 0);
	ck_assert_int_eq(sleeb_state_save(&t, &err), 0);
	sleeb_state_done(&s);
	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), 0);
	ck_assert_uint_eq(s.n, 1);

	/* empty state: the file goes away */
	ck_assert_int_eq(sleeb_state_forget(&s, ":a-0000104"), 1);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	sleeb_state_done(&s);
	sleeb_state_done(&t);
}
END_TEST

/* A bad line costs that line: the others' originals stay, each bad one is
 * said as file:line, and the file can be kept aside before a rewrite. */
START_TEST(test_malformed)
{
	static const char text[] = "# sleebd state v1\nkmalloc-64 120 60 480\ndentry 1 x 3\n"
				   "inode_cache 10 60 480\nfilp 8 4 3 9\nbuffer_head 8 4 0\n";
	struct sleeb_diag w = { 0 };
	struct sleeb_state s;
	struct sleeb_error err = { 0 };
	char *aside = NULL, *kept;

	snprintf(path, sizeof(path), "%s/state", dir);
	test_write_file(path, text);
	ck_assert_int_eq(sleeb_state_load(&s, path, &w, &err), 3);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_mem_eq(&sleeb_state_find(&s, "kmalloc-64")->orig, &((struct sleeb_tunables) { { 120, 60, 480 } }),
			 sizeof(struct sleeb_tunables));
	ck_assert_ptr_nonnull(sleeb_state_find(&s, "buffer_head"));
	ck_assert_uint_eq(w.n, 3);
	ck_assert_msg(strstr(w.msgs[0], "/state:3: expected '<cache> <queue> <batch> <shared>'; line skipped"), "%s",
		      w.msgs[0]);
	ck_assert_msg(strstr(w.msgs[1], "/state:4: cpu_batch_size: 60: not in 1..cpu_queue_size 10; line skipped"),
		      "%s", w.msgs[1]);
	ck_assert_msg(strstr(w.msgs[2], "/state:5: trailing fields; line skipped"), "%s", w.msgs[2]);
	sleeb_diag_done(&w);

	/* Kept aside, and the save that follows leaves it as it was. */
	ck_assert_int_eq(sleeb_state_keep_aside(path, &aside, &err), 0);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);
	test_assert_file_eq(aside, text);
	kept = test_read_file(path);
	ck_assert_ptr_nonnull(kept);
	ck_assert_msg(!strstr(kept, "dentry") && strstr(kept, "kmalloc-64 120 60 480"), "%s", kept);
	free(kept);
	free(aside);
	sleeb_state_done(&s);
}
END_TEST

/* fuzz-state found it: a name starting with '#' (storable: remember()
 * takes it) was written at the start of a line and read back as a
 * comment, so its original was lost across a restart. Comments are "#"
 * followed by a blank or nothing; names have no blanks. */
START_TEST(test_hash_name_round_trip)
{
	struct sleeb_state s, t;
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 6, 6, 8 } }, b = { { 120, 60, 480 } };
	FILE *f;

	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "#odd", &a), 1);
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &b), 1);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);
	ck_assert_int_eq(sleeb_state_load(&t, path, NULL, &err), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_ptr_nonnull(sleeb_state_find(&t, "#odd"));
	ck_assert_mem_eq(&sleeb_state_find(&t, "#odd")->orig, &a, sizeof(a));
	sleeb_state_done(&t);
	sleeb_state_done(&s);

	/* Comments: "# ...", "#\t..." and a lone "#". */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# sleebd state v1\n#\n#\tnote\n#odd 6 6 8\n", f);
	fclose(f);
	ck_assert_int_eq(sleeb_state_load(&t, path, NULL, &err), 0);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_str_eq(t.entries[0].cache, "#odd");
	sleeb_state_done(&t);

	/* A cache named "#" alone would be written as "# 8 4 3", a comment:
	 * it cannot be stored (the 10 M run found "\t# 8 4 3"). */
	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "#", &a), -EINVAL);
	sleeb_state_done(&s);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# sleebd state v1\n\t# 8 4 3\n", f);
	fclose(f);
	{
		struct sleeb_diag w = { 0 };

		ck_assert_int_eq(sleeb_state_load(&t, path, &w, &err), 1);
		ck_assert_uint_eq(t.n, 0);
		ck_assert_uint_eq(w.n, 1);
		ck_assert_msg(strstr(w.msgs[0], "/state:2: invalid cache name"), "got %s", w.msgs[0]);
		sleeb_diag_done(&w);
	}
	sleeb_state_done(&t);
}
END_TEST

START_TEST(test_unwritable)
{
	struct sleeb_state s;
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 120, 60, 480 } };

	/* /proc refuses new directories, even to root: an error, not a crash */
	ck_assert_int_eq(sleeb_state_load(&s, "/proc/sleeb-no-such-dir/state", NULL, &err), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &a), 1);
	ck_assert_int_lt(sleeb_state_save(&s, &err), 0);
	ck_assert(strstr(err.msg, "/proc/sleeb-no-such-dir/state"));
	sleeb_state_done(&s);
}
END_TEST

/* Learned sizes (issue 31): the same lines under their own header; the
 * last value counts; a bad line costs that line. */
START_TEST(test_learned)
{
	static const char text[] = "# sleebd learned v1\nkmalloc-64 240 120 960\n:a-0000104 16 8 x\n"
				   "dentry 480 240 1920\n";
	struct sleeb_state s, t;
	struct sleeb_diag w = { 0 };
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 240, 120, 960 } }, b = { { 480, 240, 1920 } };
	char *saved;

	snprintf(path, sizeof(path), "%s/var/lib/sleeb/learned", dir);
	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), 0);
	s.header = SLEEB_LEARNED_HEADER;
	ck_assert_int_eq(sleeb_state_set(&s, "kmalloc-64", &b), 1);
	ck_assert_int_eq(sleeb_state_set(&s, "kmalloc-64", &a), 1);       /* replaced: the last counts */
	ck_assert_int_eq(sleeb_state_set(&s, "kmalloc-64", &a), 0);       /* unchanged */
	ck_assert_int_eq(sleeb_state_set(&s, "bad name", &a), -EINVAL);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);                  /* creates var/lib/sleeb/ */
	saved = test_read_file(path);
	ck_assert_ptr_nonnull(saved);
	ck_assert_str_eq(saved, "# sleebd learned v1\nkmalloc-64 240 120 960\n");
	free(saved);
	sleeb_state_done(&s);

	test_write_file(path, text);
	ck_assert_int_eq(sleeb_state_load(&t, path, &w, &err), 1);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_mem_eq(&sleeb_state_find(&t, "kmalloc-64")->orig, &a, sizeof(a));
	ck_assert_mem_eq(&sleeb_state_find(&t, "dentry")->orig, &b, sizeof(b));
	ck_assert_uint_eq(w.n, 1);
	ck_assert_msg(strstr(w.msgs[0], "/learned:3: expected '<cache> <queue> <batch> <shared>'; line skipped"),
		      "%s", w.msgs[0]);
	sleeb_diag_done(&w);
	sleeb_state_done(&t);

	/* A file from before the learned sizes (a v1 or v2 rollback state)
	 * still loads as it did. */
	snprintf(path, sizeof(path), "%s/state", dir);
	test_write_file(path, "# sleebd state v1\nkmalloc-64 120 60 480\n");
	ck_assert_int_eq(sleeb_state_load(&t, path, NULL, &err), 0);
	ck_assert_uint_eq(t.n, 1);
	sleeb_state_done(&t);
}
END_TEST

/* Their lines go to the kernel: a file or directory others can write is
 * refused, with why, and nothing of it is used. */
START_TEST(test_loose_file_refused)
{
	struct sleeb_state s;
	struct sleeb_error err = { 0 };
	char sub[160];

	snprintf(path, sizeof(path), "%s/learned", dir);
	test_write_file(path, "kmalloc-64 240 120 960\n");
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), -EPERM);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_msg(strstr(err.msg, "/learned: mode 0666 lets other users write it: ignored; remove it"), "%s",
		      err.msg);
	sleeb_state_done(&s);

	snprintf(sub, sizeof(sub), "%s/open", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(chmod(sub, 0777), 0);
	snprintf(path, sizeof(path), "%s/learned", sub);
	test_write_file(path, "kmalloc-64 240 120 960\n");
	ck_assert_int_eq(chmod(path, 0600), 0);
	ck_assert_int_eq(sleeb_state_load(&s, path, NULL, &err), -EPERM);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_msg(strstr(err.msg, "/open (uid ") && strstr(err.msg, "mode 0777) lets other users replace it"),
		      "%s", err.msg);
	sleeb_state_done(&s);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_hash_name_round_trip);
	tcase_add_test(tc, test_unwritable);
	tcase_add_test(tc, test_learned);
	tcase_add_test(tc, test_loose_file_refused);
}

int main(void)
{
	return test_main("state", add_tests);
}
