/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/lock.c: the writers' lock and who holds it. */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "sleeb/lock.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* A child that takes the lock as who, says so on a pipe, holds it for
 * hold_ms and exits. */
static pid_t holder_child(const char *path, const char *who, int hold_ms)
{
	int p[2];
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sleeb_lock_holder h;
		int fd = sleeb_lock_take(path, who, 0, &h, NULL);

		if (fd < 0 || write(p[1], "x", 1) != 1)
			_exit(1);
		usleep((useconds_t) hold_ms * 1000);
		_exit(0);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

static int child_exit(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A kernel without CONFIG_FILE_LOCKING. */
static int flock_enosys(int fd, int op)
{
	(void) fd;
	(void) op;
	errno = ENOSYS;
	return -1;
}

/* Loop tests run twice: with flock(), then on a kernel without it. */
static void pick_lock(int i)
{
	if (i == 1)
		sleeb_lock_flock = flock_enosys;
}

START_TEST(test_take_and_holder)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock"), want[64], *text;
	struct sleeb_lock_holder h = { .pid = -1 };
	struct sleeb_error err = { 0 };
	int fd, fd2;

	pick_lock(_i);
	fd = sleeb_lock_take(path, SLEEB_LOCK_SET, 0, &h, &err);
	ck_assert_msg(fd >= 0, "%d %s", fd, err.msg);
	snprintf(want, sizeof(want), "%ld " SLEEB_LOCK_SET "\n", (long) getpid());
	text = test_read_file(path);
	ck_assert_str_eq(text, want);
	free(text);

	/* flock() is per open file: even this process cannot take it twice. */
	fd2 = sleeb_lock_take(path, SLEEB_LOCK_ONCE, 0, &h, &err);
	ck_assert_int_eq(fd2, -EBUSY);
	ck_assert_int_eq(h.pid, getpid());
	ck_assert_str_eq(h.who, SLEEB_LOCK_SET);
	ck_assert(!sleeb_lock_holder_is_daemon(&h));

	close(fd);
	fd = sleeb_lock_take(path, SLEEB_LOCK_DAEMON, 0, &h, &err);
	ck_assert_int_ge(fd, 0);
	snprintf(want, sizeof(want), "%ld " SLEEB_LOCK_DAEMON "\n", (long) getpid());
	text = test_read_file(path);
	ck_assert_str_eq(text, want);    /* the shorter line left nothing behind */
	free(text);
	close(fd);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

/* A short holder is waited for; a daemon is not. */
START_TEST(test_wait)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock");
	struct sleeb_lock_holder h;
	struct sleeb_error err = { 0 };
	long long t0, t;
	pid_t pid;
	int fd;

	pick_lock(_i);
	pid = holder_child(path, SLEEB_LOCK_ONCE, 300);
	t0 = now_ms();
	fd = sleeb_lock_take(path, SLEEB_LOCK_SET, 5000000, &h, &err);
	t = now_ms() - t0;
	ck_assert_msg(fd >= 0, "%d %s", fd, err.msg);
	ck_assert_msg(t >= 150 && t < 3000, "took %lld ms", t);
	ck_assert_int_eq(child_exit(pid), 0);
	close(fd);

	pid = holder_child(path, SLEEB_LOCK_ONCE, 2000);
	fd = sleeb_lock_take(path, SLEEB_LOCK_SET, 200000, &h, &err);
	ck_assert_int_eq(fd, -EBUSY);
	ck_assert_int_eq(h.pid, pid);
	ck_assert_str_eq(h.who, SLEEB_LOCK_ONCE);
	kill(pid, SIGKILL);
	child_exit(pid);

	pid = holder_child(path, SLEEB_LOCK_DAEMON, 3000);
	t0 = now_ms();
	fd = sleeb_lock_take(path, SLEEB_LOCK_ONCE, 5000000, &h, &err);
	t = now_ms() - t0;
	ck_assert_int_eq(fd, -EBUSY);
	ck_assert_msg(t < 1000, "waited %lld ms for a daemon", t);
	ck_assert_int_eq(h.pid, pid);
	ck_assert(sleeb_lock_holder_is_daemon(&h));
	kill(pid, SIGKILL);
	child_exit(pid);

	/* The kernel lets go of a killed holder's lock. */
	fd = sleeb_lock_take(path, SLEEB_LOCK_ONCE, 0, &h, &err);
	ck_assert_int_ge(fd, 0);
	close(fd);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_errors)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "no/such/lock"), want[512];
	struct sleeb_lock_holder h;
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_lock_take(path, SLEEB_LOCK_SET, 0, &h, &err), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	ck_assert_str_eq(err.msg, want);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_loop_test(tc, test_take_and_holder, 0, 2);
	tcase_add_loop_test(tc, test_wait, 0, 2);
	tcase_add_test(tc, test_errors);
}

int main(void)
{
	return test_main("lock", add_tests);
}
