/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl: global options and the verb table. */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/root.h"
#include "sleeb/util.h"
#include "verbs.h"

#ifndef SLEEB_VERSION
#define SLEEB_VERSION "unknown"
#endif

static const struct sleebctl_verb verbs[] = {
	{ "show",  "[--sort KEY] [--json] [GLOB...]", "list caches with sizes, queues and aliases", verb_show },
	{ "get",   "[--json] CACHE", "show one cache's attributes, tunables and queue counters", verb_get },
	{ "set",   "GLOB... [--queue N] [--batch N] [--shared N] [--dry-run] [--config-root DIR]",
	  "change queue tunables safely, rolling back on failure", verb_set },
	{ "check", "[--json] [--warn-*/--crit-* VALUE] [--samples N --interval DURATION] [--timeout SECONDS]",
	  "slab health check with monitoring-plugin exit codes", verb_check },
	{ "policy", "verify [--config-root DIR] [FILE...] | show [--config-root DIR] [--all] [--json] [GLOB...]",
	  "check sleebd policy files; show effective settings per cache with file:line", verb_policy },
	{ "status", "[--config-root DIR] [--json]", "ask sleebd for its policy files, per-cache values and last decisions",
	  verb_status },
	{ "reload", "[--config-root DIR]", "make sleebd re-read its policy (refused if it has errors)",
	  verb_reload },
	{ "learned", "[--config-root DIR] [--json] | --forget [--config-root DIR] [CACHE...]",
	  "list the queue sizes sleebd learned, or forget them", verb_learned },
};

int sleebctl_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'sleebctl --help'.\n", stderr);
	return SLEEBCTL_EXIT_USAGE;
}

static void help(void)
{
	size_t i;

	printf("Usage: sleebctl [--root DIR] VERB [OPTIONS...]\n\n"
	       "Inspect and tune SLEEB slab queues.\n\n"
	       "Global options:\n"
	       "  --root DIR   read DIR/proc and DIR/sys instead of /proc and /sys\n"
	       "  -h, --help   show this help\n"
	       "  --version    show the version\n\n"
	       "Verbs:\n");
	for (i = 0; i < SLEEB_ELEMENTSOF(verbs); i++)
		printf("  %-7s %s\n          %s\n", verbs[i].name, verbs[i].usage, verbs[i].summary);
	printf("\nSee sleebctl(8).\n");
}

/*
 * Take --root DIR / --root=DIR out of argv wherever it appears before
 * "--", so that both "sleebctl --root X show" and "sleebctl show --root X"
 * work and verbs need not know about it.  Returns the new argc or -1.
 */
static int take_root_option(int argc, char *argv[])
{
	int i, out = 1;

	for (i = 1; i < argc; i++) {
		const char *dir = NULL;

		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--root") == 0) {
			if (i + 1 >= argc) {
				sleebctl_usage_error("--root needs a directory");
				return -1;
			}
			dir = argv[++i];
		} else if (strncmp(argv[i], "--root=", 7) == 0) {
			dir = argv[i] + 7;
		} else {
			argv[out++] = argv[i];
			continue;
		}
		if (sleeb_root_set(dir) < 0) {
			sleebctl_usage_error("--root: %s: path too long", dir);
			return -1;
		}
	}
	argv[out] = NULL;
	return out;
}

int main(int argc, char *argv[])
{
	size_t i;

#ifdef SLEEBCTL_TEST_HOOKS
	/* sleebctl-test only: a test's FIFO stands in for a slow /proc/slabinfo. */
	sleeb_root_allow_fifos = getenv("SLEEB_TEST_ALLOW_FIFOS") != NULL;
#endif
	argc = take_root_option(argc, argv);
	if (argc < 0)
		return SLEEBCTL_EXIT_USAGE;
	if (argc < 2)
		return sleebctl_usage_error("missing verb");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		help();
		return SLEEBCTL_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("sleebctl %s\n", SLEEB_VERSION);
		return SLEEBCTL_EXIT_OK;
	}
	for (i = 0; i < SLEEB_ELEMENTSOF(verbs); i++) {
		if (strcmp(argv[1], verbs[i].name) == 0) {
			optind = 0;  /* full getopt reset for the verb */
			return verbs[i].run(argc - 1, argv + 1);
		}
	}
	if (argv[1][0] == '-')
		return sleebctl_usage_error("unknown option '%s' (options go after the verb)", argv[1]);
	return sleebctl_usage_error("unknown verb '%s'", argv[1]);
}
