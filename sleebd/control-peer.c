/* SPDX-License-Identifier: GPL-2.0-only */
/* The control socket's credential check (see control-peer.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "control-peer.h"

int control_peer_allowed(int fd, char *why, size_t len)
{
	struct ucred cred;
	socklen_t sl = sizeof(cred);

	/* cred is only meaningful when getsockopt() succeeded. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &sl) < 0) {
		snprintf(why, len, "cannot read the peer's credentials: %s", strerror(errno));
		return 0;
	}
	if (cred.uid != 0) {
		snprintf(why, len, "uid %u", (unsigned) cred.uid);
		return 0;
	}
	return 1;
}
