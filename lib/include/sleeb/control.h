/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * sleebd's control socket, as both ends see it (sleebd/control.c serves
 * it, sleebctl/control-client.c talks to it).
 *
 * The socket is SLEEB_CONTROL_SOCKET under --config-root. Anybody may
 * connect (mode 0666); sleebd checks the peer's credentials right after
 * accept() and answers only root. Protocol: the client sends one line,
 * "STATUS", "STATUS JSON", "RELOAD" or SLEEB_CONTROL_FORGET_LEARNED
 * followed by the cache names, each after one blank (none: every cache);
 * the daemon answers "OK" or "ERROR <why>" on the first line, then free
 * text, and closes.
 */

#define SLEEB_CONTROL_SOCKET "/run/sleeb/sleebd.sock"

/* What a refused client is told, after "ERROR ". */
#define SLEEB_CONTROL_ROOT_ONLY "permission denied: root only"

/* Drops learned sizes (sleeb/learned-forget.h) in the daemon and its file. */
#define SLEEB_CONTROL_FORGET_LEARNED "LEARNED FORGET"

/* The room the daemon has for a command line, newline included; the
 * longest it takes is one byte shorter. Enough for a few dozen cache
 * names to forget in one call; bounded, since anybody may connect. */
#define SLEEB_CONTROL_COMMAND_MAX 4096
