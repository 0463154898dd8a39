/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the libsleeb and sleebctl unit tests. */

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

char *test_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path;

	ck_assert_int_ge(asprintf(&path, "%s/sleeb-test-XXXXXX", tmp && *tmp ? tmp : "/tmp"), 0);
	ck_assert_ptr_nonnull(mkdtemp(path));
	return path;
}

/* Run argv without a shell (paths may contain anything). */
static int run(char *const argv[])
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The copy is the temporary directory itself, so that test_rm_tree() on the
 * returned path leaves nothing behind in TMPDIR.
 */
char *test_copy_tree(const char *src)
{
	char *dir = test_mkdtemp();

	ck_assert_int_eq(run((char *const[]) { "cp", "-a", "-T", (char *)src, dir, NULL }), 0);
	return dir;
}

void test_rm_tree(const char *path)
{
	run((char *const[]) { "rm", "-rf", (char *)path, NULL });
}

void test_write_file(const char *path, const char *content)
{
	char *dir = strdup(path), *slash;
	FILE *f;

	ck_assert_ptr_nonnull(dir);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		run((char *const[]) { "mkdir", "-p", dir, NULL });
	}
	free(dir);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "fopen %s: %s", path, strerror(errno));
	fputs(content, f);
	ck_assert_int_eq(fclose(f), 0);
}

void test_write_file_at(const char *root, const char *rel, const char *content)
{
	char *p = test_path(root, rel);

	test_write_file(p, content);
	free(p);
}

void test_writef_at(const char *root, const char *rel, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&s, fmt, ap), 0);
	va_end(ap);
	test_write_file_at(root, rel, s);
	free(s);
}

void test_fake_slab_dir(const char *root, const char *cache, unsigned objsize, const unsigned qbs[3])
{
	static const char *const attrs[3] = { "cpu_queue_size", "cpu_batch_size", "shared_queue_size" };
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/kernel/slab/%s/object_size", cache);
	test_writef_at(root, rel, "%u\n", objsize);
	for (int i = 0; qbs && i < 3; i++) {
		snprintf(rel, sizeof(rel), "sys/kernel/slab/%s/%s", cache, attrs[i]);
		test_writef_at(root, rel, "%u\n", qbs[i]);
	}
}

void test_assert_file_eq(const char *path, const char *want)
{
	char *got = test_read_file(path);

	ck_assert_msg(got != NULL, "cannot read %s", path);
	ck_assert_msg(strcmp(got, want) == 0, "%s holds '%s', want '%s'", path, got, want);
	free(got);
}

char *test_read_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r"), *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(m);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

char *test_path(const char *a, const char *b)
{
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s/%s", a, b), 0);
	return p;
}

void test_child_setup(const char *logpath)
{
	int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	unsetenv("JOURNAL_STREAM");
	unsetenv("INVOCATION_ID");
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	unsetenv("LISTEN_FDS");
}

int test_wait_exit(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

char *test_slabinfo_with_column(const char *root, const char *cache, unsigned column, unsigned long long v)
{
	char *path = test_path(root, "proc/slabinfo"), *text = test_read_file(path), *line, *t, *end, *out,
	     num[24];
	size_t clen = strlen(cache), width;

	ck_assert_ptr_nonnull(text);
	for (line = text; line && !(strncmp(line, cache, clen) == 0 && line[clen] == ' ');
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		;
	ck_assert_ptr_nonnull(line);
	/* The field's blanks before it and its digits: its printed width. */
	t = line + clen;
	for (unsigned i = 1;; i++) {
		char *start = t;

		while (*t == ' ')
			t++;
		end = t + strcspn(t, " \n");
		ck_assert_ptr_ne(end, t);
		if (i == column) {
			t = start;
			break;
		}
		t = end;
	}
	width = (size_t)(end - t);
	snprintf(num, sizeof(num), "%*llu", (int)(width > 1 ? width - 1 : 1), v);
	ck_assert_int_ge(asprintf(&out, "%.*s %s%s", (int)(t - text), text, num, end), 0);
	free(text);
	free(path);
	return out;
}

char *test_slabinfo_with_queue(const char *root, const char *cache, unsigned q)
{
	return test_slabinfo_with_column(root, cache, 8, q);  /* ": tunables <limit>" */
}

void test_replace_at(const char *root, const char *rel, const char *text)
{
	char *tmp, *path;

	ck_assert_int_ge(asprintf(&tmp, "%s/%s.new", root, rel), 0);
	path = test_path(root, rel);
	test_write_file(tmp, text);
	ck_assert_int_eq(rename(tmp, path), 0);
	free(tmp);
	free(path);
}
