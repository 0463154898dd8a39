/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/lock.c: the writers' lock and who holds it. */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

START_TEST(test_take_and_holder)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock"), want[64], *text;
	struct sleeb_lock_holder h = { .pid = -1 };
	struct sleeb_error err = { 0 };
	int fd, fd2;

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


/* The lock file is root's alone: 0600, owned by whoever takes the lock. */
START_TEST(test_created_private)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock");
	struct sleeb_lock_holder h;
	struct sleeb_error err = { 0 };
	struct stat st;
	int fd;

	fd = sleeb_lock_take(path, SLEEB_LOCK_DAEMON, 0, &h, &err);
	ck_assert_msg(fd >= 0, "%d %s", fd, err.msg);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_uint_eq(st.st_uid, geteuid());
	close(fd);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

/*
 * flock() works on a read-only descriptor: a lock file others may open
 * would let any user hold the lock and keep sleebd from starting. Such a
 * file is refused, with what is wrong and what to do.
 */
START_TEST(test_refuses_loose_file)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock"), want[512];
	struct sleeb_lock_holder h;
	struct sleeb_error err = { 0 };

	test_write_file(path, "");
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(sleeb_lock_take(path, SLEEB_LOCK_DAEMON, 0, &h, &err), -EPERM);
	snprintf(want, sizeof(want),
		 "%s: mode 0644 lets other users open it, and so hold the lock; remove it (or chmod 0600 it)",
		 path);
	ck_assert_str_eq(err.msg, want);

	if (geteuid() == 0) {
		ck_assert_int_eq(chmod(path, 0600), 0);
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		ck_assert_int_eq(sleeb_lock_take(path, SLEEB_LOCK_DAEMON, 0, &h, &err), -EPERM);
		snprintf(want, sizeof(want), "%s: owned by uid 65534, not %u: that user can hold the lock; remove it",
			 path, (unsigned) geteuid());
		ck_assert_str_eq(err.msg, want);
	}
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

/* A directory others may write to lets them put their own file there. */
START_TEST(test_refuses_open_directory)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock"), want[512];
	struct sleeb_lock_holder h;
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(chmod(dir, 01777), 0);
	ck_assert_int_eq(sleeb_lock_take(path, SLEEB_LOCK_DAEMON, 0, &h, &err), -EPERM);
	snprintf(want, sizeof(want),
		 "%s: its directory has mode 1777: other users may replace the lock file; make it 0755", path);
	ck_assert_str_eq(err.msg, want);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

/*
 * Without file locking there is no lock: an abstract socket stood in
 * once, but it is per network namespace, and sleebd.service has one of
 * its own (PrivateNetwork=yes), so sleebctl would take it too.
 */
START_TEST(test_no_file_locking)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "lock"), want[512];
	struct sleeb_lock_holder h;
	struct sleeb_error err = { 0 };

	sleeb_lock_flock = flock_enosys;
	ck_assert_int_eq(sleeb_lock_take(path, SLEEB_LOCK_DAEMON, 0, &h, &err), -ENOSYS);
	snprintf(want, sizeof(want),
		 "%s: cannot lock: this kernel has no file locking (CONFIG_FILE_LOCKING), which the writers' lock needs",
		 path);
	ck_assert_str_eq(err.msg, want);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_take_and_holder);
	tcase_add_test(tc, test_wait);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_created_private);
	tcase_add_test(tc, test_refuses_loose_file);
	tcase_add_test(tc, test_refuses_open_directory);
	tcase_add_test(tc, test_no_file_locking);
}

int main(void)
{
	return test_main("lock", add_tests);
}
