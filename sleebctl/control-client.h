/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <getopt.h>

/* Client side of sleebd's control socket (see sleebd/control.h). */

/*
 * Sends cmd ("STATUS", "RELOAD", ...: sleeb/control.h) to the daemon listening under
 * config_root (NULL: /) and copies the body of the answer to stdout.
 * Returns the verb's exit code: 0 when the daemon said OK, 1 otherwise
 * (message on stderr: not running, permission denied, the daemon's error).
 */
int sleebctl_control_call(const char *config_root, const char *cmd);

/*
 * A whole verb that only asks the daemon: parses the verb's options
 * (its table: --config-root, --help, and --json for verbs with json_cmd),
 * --json when json_cmd is not NULL (then sent instead of cmd) and --help
 * (printing help after the usage line), refuses extra arguments, then
 * sends cmd. Returns the verb's exit code.
 */
int sleebctl_control_verb(int argc, char *argv[], const struct option *options, const char *verb,
			  const char *cmd, const char *json_cmd, const char *help);
