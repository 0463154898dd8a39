/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for sleebd/control-peer.c: the control socket's credential check. */

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "control-peer.h"
#include "runner.h"

START_TEST(test_root_allowed)
{
	char why[128] = "";
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(control_peer_allowed(sv[0], why, sizeof(why)), geteuid() == 0);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* The peer's uid is the one it connected with, read right after accept. */
START_TEST(test_nobody_refused)
{
	char why[128] = "";
	int sv[2], status;
	pid_t pid;

	if (geteuid() != 0)
		return;  /* cannot become somebody else */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* A socket made by nobody carries nobody's credentials. */
		if (setuid(65534) < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
			_exit(2);
		_exit(control_peer_allowed(sv[0], why, sizeof(why)) == 0 && strcmp(why, "uid 65534") == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* getsockopt() failing must be reported as such, not with a uid it never
 * read (the struct is uninitialized then). */
START_TEST(test_unreadable_credentials)
{
	char why[128] = "";
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(control_peer_allowed(p[0], why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "cannot read the peer's credentials: Socket operation on non-socket") &&
			      !strstr(why, "uid"),
		      "why: '%s'", why);
	close(p[0]);
	close(p[1]);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_root_allowed);
	tcase_add_test(tc, test_nobody_refused);
	tcase_add_test(tc, test_unreadable_credentials);
}

int main(void)
{
	return test_main("control-peer", add_tests);
}
