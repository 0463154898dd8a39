/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* Who may use the control socket: root only, by the peer's credentials. */

#include <stddef.h>

/*
 * Checks the credentials of the peer connected on fd (SO_PEERCRED: who
 * connected, whatever it does later). Returns 1 for root, 0 otherwise,
 * with why (for the log) naming the refused peer: "uid 1000", or why its
 * credentials could not be read.
 */
int control_peer_allowed(int fd, char *why, size_t len);
