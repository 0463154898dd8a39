/* SPDX-License-Identifier: GPL-2.0-only */
/* The control socket's accept loop (see control-accept.h). */

#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>

#include "control-accept.h"

int control_accept_some(int fd, control_serve_fn serve, void *userdata)
{
	int n = 0;

	/* Not until EAGAIN: a flood of clients would keep the loop here,
	 * and the interval timer from feeding the watchdog. */
	while (n < CONTROL_ACCEPTS_PER_WAKEUP) {
		int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return errno == EAGAIN ? n : -errno;
		}
		serve(userdata, c);
		n++;
	}
	return n;
}
