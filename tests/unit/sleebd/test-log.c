/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebd's logging (sleebd/log.c only): the error given to a *_errno call
 * is rendered once, by %m, and a message without %m does not grow one.
 */

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "runner.h"

/* Runs fn with stderr sent to a temporary file; returns what it wrote. */
static char *capture_stderr(void (*fn)(void))
{
	FILE *tmp = tmpfile();
	static char buf[2048];
	int saved;
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	fflush(stderr);
	saved = dup(2);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_eq(dup2(fileno(tmp), 2), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return buf;
}

static void log_enoent(void)
{
	errno = EPERM; /* whatever errno was before must not leak in */
	ck_assert_int_eq(log_error_errno(-ENOENT, "cannot write %s: %m", "/x/sleeb.prom"), -ENOENT);
}

static void log_positive(void)
{
	ck_assert_int_eq(log_warning_errno(EACCES, "control: %m"), -EACCES);
}

static void log_plain(void)
{
	ck_assert_int_eq(log_error_errno(-EINVAL, "%s", "/etc/sleeb/sleebd.conf:3: bad value"), -EINVAL);
}

START_TEST(test_errno_rendered_once)
{
	const char *want = strerror(ENOENT);
	char *out = capture_stderr(log_enoent);

	ck_assert_str_eq(out, "sleebd: cannot write /x/sleeb.prom: No such file or directory\n");
	/* once, not twice */
	ck_assert_ptr_null(strstr(strstr(out, want) + strlen(want), want));
}
END_TEST

START_TEST(test_errno_positive)
{
	ck_assert_str_eq(capture_stderr(log_positive), "sleebd: control: Permission denied\n");
}
END_TEST

START_TEST(test_no_percent_m_no_errno_text)
{
	ck_assert_str_eq(capture_stderr(log_plain), "sleebd: /etc/sleeb/sleebd.conf:3: bad value\n");
}
END_TEST

static void add_tests(TCase *tc)
{
	unsetenv("JOURNAL_STREAM");
	unsetenv("INVOCATION_ID");
	log_setup();
	tcase_add_test(tc, test_errno_rendered_once);
	tcase_add_test(tc, test_errno_positive);
	tcase_add_test(tc, test_no_percent_m_no_errno_text);
}

int main(void)
{
	return test_main("log", add_tests);
}
