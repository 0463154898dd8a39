/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl reload: make sleebd re-read its policy (like SIGHUP, but with the answer). */

#include <getopt.h>
#include <stdio.h>

#include "control-client.h"
#include "verbs.h"

int verb_reload(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config-root", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *config_root = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case 'C':
			config_root = optarg;
			break;
		case 'h':
			printf("Usage: sleebctl reload [--config-root DIR]\n"
			       "Make sleebd re-read sleebd.conf and the policy; a policy with errors is\n"
			       "refused (errors printed, exit 1) and the old one stays in force.\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return sleebctl_usage_error("reload takes no arguments");
	return sleebctl_control_call(config_root, "RELOAD");
}
