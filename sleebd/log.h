/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * sleebd logging: structured journal entries when running under systemd
 * (JOURNAL_STREAM or INVOCATION_ID set), plain lines on stderr otherwise.
 */

#include <stdbool.h>
#include <syslog.h>

#include "sleeb/tunables.h"

/* Decides the sink once, from the environment. */
void log_setup(void);

/* Messages above this priority (LOG_DEBUG etc.) are dropped. */
void log_set_max_level(int prio);

/* Log a line; returns -abs(error) when error != 0, else 0, so callers can
 * write "return log_error_errno(r, ...)". The *_errno forms render the
 * error where fmt says %m (errno is set to it for the formatting) and send
 * it as ERRNO= to the journal: never pass strerror(-r) as well. */
int log_full(int prio, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define log_debug(...)   log_full(LOG_DEBUG, 0, __VA_ARGS__)
#define log_info(...)    log_full(LOG_INFO, 0, __VA_ARGS__)
#define log_notice(...)  log_full(LOG_NOTICE, 0, __VA_ARGS__)
#define log_warning(...) log_full(LOG_WARNING, 0, __VA_ARGS__)
#define log_error(...)   log_full(LOG_ERR, 0, __VA_ARGS__)
#define log_error_errno(e, ...) log_full(LOG_ERR, (e), __VA_ARGS__)
#define log_warning_errno(e, ...) log_full(LOG_WARNING, (e), __VA_ARGS__)

/*
 * One tunable change (or, with dry_run, a change that would be made):
 * journal fields CACHE=, OLD=, NEW= ("q/b/s" triples), DECISION= (the kind:
 * policy, unmatched, autotune-grow, autotune-shrink, drift, rollback; what
 * sleeb_decisions_total counts by) and REASON= (the why, in words).
 */
void log_change(const char *cache, const struct sleeb_tunables *old, const struct sleeb_tunables *new,
		const char *kind, const char *reason, bool dry_run);
