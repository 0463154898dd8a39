/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * sleebctl verbs.  Each verb lives in its own verb-<name>.c, is called
 * with argv[0] = the verb name (parse options with getopt_long; optind is
 * reset by main) and returns the process exit code.  To add a verb:
 * declare it here, add one line to the table in main.c and the file to
 * sleebctl/meson.build.
 *
 * Global options (--root DIR) are taken out of argv by main before the
 * verb runs, so verbs never see them.
 */

/* Exit codes of every verb except check, which uses the monitoring-plugin
 * codes 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN. */
#define SLEEBCTL_EXIT_OK      0
#define SLEEBCTL_EXIT_FAILURE 1   /* the operation failed (message on stderr) */
#define SLEEBCTL_EXIT_USAGE   2   /* bad command line */

struct sleebctl_verb {
	const char *name;
	const char *usage;    /* arguments, for --help */
	const char *summary;  /* one line, for --help */
	int (*run)(int argc, char *argv[]);
};

int verb_show(int argc, char *argv[]);
int verb_get(int argc, char *argv[]);
int verb_set(int argc, char *argv[]);
int verb_check(int argc, char *argv[]);
/* sleebd verbs (issue 7): verb-policy.c, verb-status.c, verb-reload.c */
int verb_policy(int argc, char *argv[]);
int verb_status(int argc, char *argv[]);
int verb_reload(int argc, char *argv[]);
/* issue 31: verb-learned.c */
int verb_learned(int argc, char *argv[]);

/* Print "sleebctl: " + message and return SLEEBCTL_EXIT_USAGE. */
int sleebctl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
