/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The control socket's accept loop, on its own: the event loop's other
 * sources (the interval timer, which feeds the watchdog) must get their
 * turn however many clients are waiting.
 */

/*
 * Clients taken per wake-up of the listening socket. The socket stays
 * readable while more wait, so sd-event comes back to it after the
 * sources that are due.
 */
#define CONTROL_ACCEPTS_PER_WAKEUP 16

typedef void (*control_serve_fn)(void *userdata, int fd);

/*
 * Accepts clients waiting on the non-blocking listening socket @fd,
 * CONTROL_ACCEPTS_PER_WAKEUP at most, handing each (non-blocking,
 * close-on-exec) to @serve, which takes the descriptor. Returns how many
 * were accepted, or -errno when accept() failed for want of resources
 * (EMFILE, ENOBUFS, ...; those accepted before were served).
 */
int control_accept_some(int fd, control_serve_fn serve, void *userdata);
