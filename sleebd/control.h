/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The control socket (/run/sleeb/sleebd.sock): root only (SO_PEERCRED),
 * socket-activation aware. Protocol: the client sends one line, "STATUS"
 * or "RELOAD"; the daemon answers "OK" or "ERROR <why>" on the first line,
 * then free text, and closes.
 */

typedef struct Manager Manager;

#define SLEEB_CONTROL_SOCKET "/run/sleeb/sleebd.sock"

/* Takes the socket from systemd or binds m->socket_path. Returns 0 or -errno. */
int control_open(Manager *m);
void control_close(Manager *m);
