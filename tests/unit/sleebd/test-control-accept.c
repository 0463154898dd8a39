/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for sleebd/control-accept.c: the control socket's accept loop. */

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control-accept.h"
#include "runner.h"

#define FLOOD 40

static void count_and_close(void *userdata, int fd)
{
	(*(unsigned *) userdata)++;
	close(fd);
}

/*
 * A flood of clients does not keep the loop in accept(): one wake-up
 * takes CONTROL_ACCEPTS_PER_WAKEUP of them and returns with the rest
 * still waiting (the interval timer, which feeds the watchdog, runs in
 * between), and the next wake-ups take the rest.
 */
START_TEST(test_accepts_capped_per_wakeup)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd, clients[FLOOD], r;
	unsigned served = 0;

	snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "sleeb-test-accept-%d", (int) getpid());
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *) &sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(lfd, FLOOD), 0);
	for (int i = 0; i < FLOOD; i++) {
		clients[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ck_assert_int_ge(clients[i], 0);
		ck_assert_int_eq(connect(clients[i], (struct sockaddr *) &sa, sizeof(sa)), 0);
	}

	r = control_accept_some(lfd, count_and_close, &served);
	ck_assert_int_eq(r, CONTROL_ACCEPTS_PER_WAKEUP);
	ck_assert_uint_eq(served, CONTROL_ACCEPTS_PER_WAKEUP);
	/* The rest wait for the next wake-ups. */
	ck_assert_int_eq(control_accept_some(lfd, count_and_close, &served), CONTROL_ACCEPTS_PER_WAKEUP);
	ck_assert_int_eq(control_accept_some(lfd, count_and_close, &served),
			 FLOOD - 2 * CONTROL_ACCEPTS_PER_WAKEUP);
	ck_assert_int_eq(control_accept_some(lfd, count_and_close, &served), 0);
	ck_assert_uint_eq(served, FLOOD);
	for (int i = 0; i < FLOOD; i++)
		close(clients[i]);
	close(lfd);
}
END_TEST

/* A listening socket that fails accept() says why (EBADF here). */
START_TEST(test_accept_error)
{
	unsigned served = 0;

	ck_assert_int_eq(control_accept_some(-1, count_and_close, &served), -EBADF);
	ck_assert_uint_eq(served, 0);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_accepts_capped_per_wakeup);
	tcase_add_test(tc, test_accept_error);
}

int main(void)
{
	return test_main("sleebd-control-accept", add_tests);
}
