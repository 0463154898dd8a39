/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebctl learned (issue 31): the learned sizes listed, forgotten all at
 * once or by name, in the file when no sleebd runs and through the daemon
 * when one does, so that its next save cannot bring them back; unknown
 * names, a missing file and bad lines said precisely; the listing as JSON.
 *
 * Usage: test-sleebctl-learned SLEEBD SLEEBCTL
 */

#include <check.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "host.h"

#define CONF "[Daemon]\nInterval=100ms\n"
#define AUTO "[Cache]\nMatch=kmalloc-*\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=240\n"
#define HEADER "# sleebd learned v1\n"

#define assert_contains(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' not in:\n%s", (needle), (hay))
#define assert_lacks(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) == NULL, "'%s' unexpectedly in:\n%s", (needle), (hay))

static char out[16384], err[16384];

static void slurp(const char *path, char *buf, size_t len)
{
	char *t = test_read_file(path);

	snprintf(buf, len, "%s", t ? t : "");
	free(t);
	unlink(path);
}

/* Runs sleebctl --root ROOT --config-root ROOT ARGS... (NULL-terminated)
 * to its end; its stdout in out, stderr in err. Returns its exit status. */
static int ctl(const char *arg, ...)
{
	char outp[128], errp[128], *argv[24];
	va_list ap;
	int n = 0, status;
	pid_t pid;

	argv[n++] = (char *) sleebctl;
	argv[n++] = "--root";
	argv[n++] = root;
	argv[n++] = "learned";
	argv[n++] = "--config-root";
	argv[n++] = root;
	va_start(ap, arg);
	for (; arg && n < 23; arg = va_arg(ap, const char *))
		argv[n++] = (char *) arg;
	va_end(ap);
	argv[n] = NULL;
	snprintf(outp, sizeof(outp), "%s/ctl.out", root);
	snprintf(errp, sizeof(errp), "%s/ctl.err", root);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (!freopen(outp, "w", stdout) || !freopen(errp, "w", stderr))
			_exit(127);
		execv(sleebctl, argv);
		_exit(127);
	}
	status = test_wait_exit(pid);
	slurp(outp, out, sizeof(out));
	slurp(errp, err, sizeof(err));
	return status;
}

static const char *learned_file(void)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/var/lib/sleeb/learned", root);
	return path;
}

static char *learned_text(void)
{
	char *t = test_read_file(learned_file());

	return t ? t : strdup("(no file)");
}

START_TEST(test_list)
{
	make_tree(true);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\ngone-cache 16 8 32\n");
	ck_assert_int_eq(ctl(NULL), 0);
	assert_contains(out, learned_file());
	assert_contains(out, "last saved");
	ck_assert_msg(strstr(out, "CACHE") && strstr(out, "QUEUE") && strstr(out, "BATCH") && strstr(out, "SHARED"),
		      "no column heads in:\n%s", out);
	assert_contains(out, "kmalloc-64                  240    120    960  kmalloc-64\n");
	/* Learned, but not on this system now (a module's cache, unloaded). */
	assert_contains(out, "gone-cache                   16      8     32  -\n");
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_list_no_state)
{
	make_tree(true);
	ck_assert_int_eq(ctl(NULL), 0);
	assert_contains(out, "no learned sizes yet: ");
	assert_contains(out, learned_file());
	ck_assert_str_eq(err, "");
	/* Nothing to forget is not an error either, and creates nothing. */
	ck_assert_int_eq(ctl("--forget", NULL), 0);
	assert_contains(out, "no learned sizes to forget");
	ck_assert_int_ne(access(learned_file(), F_OK), 0);
	/* But a name is: it has no learned size. */
	ck_assert_int_eq(ctl("--forget", "kmalloc-64", NULL), 1);
	assert_contains(err, "kmalloc-64: no learned size (0 caches have one); nothing forgotten");
}
END_TEST

START_TEST(test_list_bad_lines)
{
	char want[256];

	make_tree(true);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\nnot a line\ndentry 0 0 0 0\n");
	ck_assert_int_eq(ctl(NULL), 1);
	assert_contains(out, "kmalloc-64                  240    120    960");
	assert_lacks(out, "dentry");
	snprintf(want, sizeof(want), "%s:3: expected '<cache> <queue> <batch> <shared>'; line skipped", learned_file());
	assert_contains(err, want);
	snprintf(want, sizeof(want), "%s:4: trailing fields; line skipped", learned_file());
	assert_contains(err, want);
}
END_TEST

/* The file's mtime set to 2026-12-07T08:15:00Z, last_saved's value. */
static void set_saved_time(void)
{
	const struct timespec t[2] = { { 1796631300, 0 }, { 1796631300, 0 } };

	ck_assert_int_eq(utimensat(AT_FDCWD, learned_file(), t, 0), 0);
}

/* The JSON objects are checked whole: the tests use no JSON parser, and
 * the exact text pins the field names and their order for scripts. */
START_TEST(test_list_json)
{
	char link[160], want[512];

	make_tree(true);
	/* A second name for kmalloc-64, as a merged cache has. */
	snprintf(link, sizeof(link), "%s/sys/kernel/slab/dma-kmalloc-64", root);
	ck_assert_int_eq(symlink("kmalloc-64", link), 0);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\ngone-cache 16 8 32\n");
	set_saved_time();
	ck_assert_int_eq(ctl("--json", NULL), 0);
	snprintf(want, sizeof(want),
		 "{\"version\":1,\"path\":\"%s\",\"exists\":true,\"last_saved\":\"2026-12-07T08:15:00Z\","
		 "\"caches\":[{\"cache\":\"kmalloc-64\",\"queue\":240,\"batch\":120,\"shared\":960,"
		 "\"names\":[\"dma-kmalloc-64\",\"kmalloc-64\"]},"
		 /* Learned, but not on this system now: no names. */
		 "{\"cache\":\"gone-cache\",\"queue\":16,\"batch\":8,\"shared\":32,\"names\":[]}]}\n",
		 learned_file());
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
	/* -j is --json. */
	ck_assert_int_eq(ctl("-j", NULL), 0);
	ck_assert_str_eq(out, want);
}
END_TEST

START_TEST(test_list_json_no_state)
{
	char want[256];

	make_tree(true);
	ck_assert_int_eq(ctl("--json", NULL), 0);
	snprintf(want, sizeof(want), "{\"version\":1,\"path\":\"%s\",\"exists\":false,\"last_saved\":null,"
		 "\"caches\":[]}\n", learned_file());
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
	/* A file without a size is there, with its time, and lists nothing. */
	writef("var/lib/sleeb/learned", HEADER);
	set_saved_time();
	ck_assert_int_eq(ctl("--json", NULL), 0);
	snprintf(want, sizeof(want), "{\"version\":1,\"path\":\"%s\",\"exists\":true,"
		 "\"last_saved\":\"2026-12-07T08:15:00Z\",\"caches\":[]}\n", learned_file());
	ck_assert_str_eq(out, want);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_list_json_bad_lines)
{
	char want[512];

	make_tree(true);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\nnot a line\ndentry 0 0 0 0\n");
	set_saved_time();
	/* The good lines still as JSON on stdout; the status as the table's. */
	ck_assert_int_eq(ctl("--json", NULL), 1);
	snprintf(want, sizeof(want),
		 "{\"version\":1,\"path\":\"%s\",\"exists\":true,\"last_saved\":\"2026-12-07T08:15:00Z\","
		 "\"caches\":[{\"cache\":\"kmalloc-64\",\"queue\":240,\"batch\":120,\"shared\":960,"
		 "\"names\":[\"kmalloc-64\"]}]}\n",
		 learned_file());
	ck_assert_str_eq(out, want);
	snprintf(want, sizeof(want),
		 "sleebctl: %s:3: expected '<cache> <queue> <batch> <shared>'; line skipped\n"
		 "sleebctl: %s:4: trailing fields; line skipped\n", learned_file(), learned_file());
	ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(test_json_with_forget)
{
	const char *orig = HEADER "kmalloc-64 240 120 960\n";
	char *text;

	make_tree(true);
	writef("var/lib/sleeb/learned", "%s", orig);
	ck_assert_int_eq(ctl("--json", "--forget", NULL), 2);
	ck_assert_str_eq(out, "");
	ck_assert_str_eq(err, "sleebctl: learned: --json is for the listing only, not with --forget\n"
			      "Try 'sleebctl --help'.\n");
	ck_assert_int_eq(ctl("--forget", "kmalloc-64", "--json", NULL), 2);
	assert_contains(err, "learned: --json is for the listing only, not with --forget");
	/* Refused before anything is done: nothing forgotten. */
	text = learned_text();
	ck_assert_str_eq(text, orig);
	free(text);
}
END_TEST

START_TEST(test_forget_all)
{
	make_tree(true);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\ndentry 240 120 960\n");
	ck_assert_int_eq(ctl("--forget", NULL), 0);
	assert_contains(out, "forgot kmalloc-64: queue 240 batch 120 shared 960\n");
	assert_contains(out, "forgot dentry: queue 240 batch 120 shared 960\n");
	assert_contains(out, "their current sizes left as they are");
	ck_assert_int_ne(access(learned_file(), F_OK), 0);
	/* Forgetting writes nothing to the kernel. */
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 120);
	ck_assert_int_eq(ctl(NULL), 0);
	assert_contains(out, "no learned sizes yet");
}
END_TEST

START_TEST(test_forget_one)
{
	struct stat st;
	char *text;

	make_tree(true);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\ndentry 16 8 32\n");
	ck_assert_int_eq(ctl("--forget", "kmalloc-64", NULL), 0);
	assert_contains(out, "forgot kmalloc-64: queue 240 batch 120 shared 960\n");
	assert_lacks(out, "dentry");
	text = learned_text();
	ck_assert_str_eq(text, HEADER "dentry 16 8 32\n");
	free(text);
	/* Rewritten as sleebd writes it: its owner's alone. */
	ck_assert_int_eq(stat(learned_file(), &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
}
END_TEST

START_TEST(test_forget_unknown)
{
	const char *orig = HEADER "kmalloc-64 240 120 960\ngone-cache 16 8 32\n";
	char *text;

	make_tree(true);
	writef("var/lib/sleeb/learned", "%s", orig);
	ck_assert_int_eq(ctl("--forget", "kmalloc-64", "no-such-cache", NULL), 1);
	assert_contains(err, "no-such-cache: no such cache, and no learned size under that name; nothing forgotten");
	/* A cache that exists but learned nothing is not a typo. */
	ck_assert_int_eq(ctl("--forget", "big-cache", NULL), 1);
	assert_contains(err, "big-cache: no learned size (2 caches have one); nothing forgotten");
	ck_assert_int_eq(ctl("--forget", "a b", NULL), 1);
	assert_contains(err, "'a b': not a cache name");
	/* All or nothing: kmalloc-64, named with the unknown one, stays. */
	text = learned_text();
	ck_assert_str_eq(text, orig);
	free(text);
	/* A name not on this system now, but learned, can be forgotten. */
	ck_assert_int_eq(ctl("--forget", "gone-cache", NULL), 0);
	assert_contains(out, "forgot gone-cache");
}
END_TEST

START_TEST(test_forget_keeps_bad_lines)
{
	char path[160], *text;

	make_tree(true);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 240 120 960\nnot a line\ndentry 16 8 32\n");
	ck_assert_int_eq(ctl("--forget", "dentry", NULL), 0);
	assert_contains(err, ":3: expected '<cache> <queue> <batch> <shared>'; line skipped");
	assert_contains(err, "1 bad line skipped, the file kept as ");
	text = learned_text();
	ck_assert_str_eq(text, HEADER "kmalloc-64 240 120 960\n");
	free(text);
	/* The skipped line is not lost: a person may still read it. */
	snprintf(path, sizeof(path), "%s.broken", learned_file());
	ck_assert(file_contains(path, "not a line"));
}
END_TEST

START_TEST(test_forget_refuses_others_file)
{
	const char *orig = HEADER "kmalloc-64 240 120 960\n";
	char *text;

	make_tree(true);
	writef("var/lib/sleeb/learned", "%s", orig);
	ck_assert_int_eq(chmod(learned_file(), 0666), 0);
	ck_assert_int_eq(ctl("--forget", NULL), 1);
	assert_contains(err, "mode 0666 lets other users write it");
	ck_assert_int_eq(ctl(NULL), 1);
	assert_contains(err, "mode 0666 lets other users write it");
	text = learned_text();
	ck_assert_str_eq(text, orig);
	free(text);
}
END_TEST

/*
 * With sleebd running, the forget goes through it: a forget made in the
 * file alone would come back with the daemon's next save of what it holds
 * in memory (here: kmalloc-64 growing, which saves the file).
 */
START_TEST(test_forget_through_daemon)
{
	char sock[128], *text;
	pid_t pid;

	make_tree(true);
	writef("etc/sleeb/sleebd.conf", CONF);
	writef("etc/sleeb/policy.d/10-auto.conf", AUTO);
	writef("var/lib/sleeb/learned", HEADER "kmalloc-64 200 100 800\ngone-cache 16 8 32\n");
	snprintf(sock, sizeof(sock), "%s/run/sleeb/sleebd.sock", root);
	pid = spawn(sleebd, "--root", root, "--config-root", root, NULL);
	ck_assert(wait_tunables("kmalloc-64", 200, 100, 800));
	for (int i = 0; i < 500 && access(sock, F_OK) != 0; i++)
		usleep(10000);

	ck_assert_int_eq(ctl("--forget", "gone-cache", "no-such-cache", NULL), 1);
	assert_contains(err, "sleebd: no-such-cache: no such cache, and no learned size under that name; nothing forgotten");
	ck_assert_int_eq(ctl("--forget", "gone-cache", NULL), 0);
	assert_contains(out, "forgot gone-cache: queue 16 batch 8 shared 32\n");
	ck_assert(file_contains(logpath, "gone-cache: learned size forgotten"));
	text = learned_text();
	ck_assert_str_eq(text, HEADER "kmalloc-64 200 100 800\n");
	free(text);

	host_grow_kmalloc64();
	for (int i = 0; i < 500 && !file_contains(learned_file(), "kmalloc-64 240 120 800"); i++)
		usleep(10000);
	text = learned_text();
	ck_assert_str_eq(text, HEADER "kmalloc-64 240 120 800\n");
	free(text);

	ck_assert_int_eq(ctl("--forget", NULL), 0);
	assert_contains(out, "forgot kmalloc-64: queue 240 batch 120 shared 800\n");
	ck_assert_int_ne(access(learned_file(), F_OK), 0);
	/* Left alone by the forget; the stop still restores the original. */
	ck_assert_int_eq(attr("kmalloc-64", "cpu_queue_size"), 240);
	host_stop(pid);
	ck_assert(wait_tunables("kmalloc-64", 120, 60, 480));
	ck_assert_int_eq(ctl(NULL), 0);
	assert_contains(out, "no learned sizes yet");
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_list_no_state);
	tcase_add_test(tc, test_list_bad_lines);
	tcase_add_test(tc, test_list_json);
	tcase_add_test(tc, test_list_json_no_state);
	tcase_add_test(tc, test_list_json_bad_lines);
	tcase_add_test(tc, test_json_with_forget);
	tcase_add_test(tc, test_forget_all);
	tcase_add_test(tc, test_forget_one);
	tcase_add_test(tc, test_forget_unknown);
	tcase_add_test(tc, test_forget_keeps_bad_lines);
	tcase_add_test(tc, test_forget_refuses_others_file);
	tcase_add_test(tc, test_forget_through_daemon);
}

int main(int argc, char *argv[])
{
	return host_main(argc, argv, "sleebctl-learned", add_tests);
}
