/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * sleebd's control socket, as both ends see it (sleebd/control.c serves
 * it, sleebctl/control-client.c talks to it).
 *
 * The socket is SLEEB_CONTROL_SOCKET under --config-root. Anybody may
 * connect (mode 0666); sleebd checks the peer's credentials right after
 * accept() and answers only root. Protocol: the client sends one line,
 * "STATUS" or "RELOAD"; the daemon answers "OK" or "ERROR <why>" on the
 * first line, then free text, and closes.
 */

#define SLEEB_CONTROL_SOCKET "/run/sleeb/sleebd.sock"

/* What a refused client is told, after "ERROR ". */
#define SLEEB_CONTROL_ROOT_ONLY "permission denied: root only"

/* The longest command line the daemon reads, newline included. */
#define SLEEB_CONTROL_COMMAND_MAX 64
