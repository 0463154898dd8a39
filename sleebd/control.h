/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The control socket (path and protocol: sleeb/control.h): root only
 * (SO_PEERCRED), socket-activation aware.
 */

#include "sleeb/control.h"

typedef struct Manager Manager;

/* Takes the socket from systemd or binds m->socket_path. Returns 0 or -errno. */
int control_open(Manager *m);
void control_close(Manager *m);
