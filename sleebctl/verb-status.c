/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl status: what sleebd is doing (asks the daemon). */

#include <getopt.h>
#include <stdio.h>

#include "control-client.h"
#include "verbs.h"

int verb_status(int argc, char *argv[])
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
			printf("Usage: sleebctl status [--config-root DIR]\n"
			       "Show sleebd's policy files, per-cache current and target values and\n"
			       "the last decision with its reason.\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return sleebctl_usage_error("status takes no arguments");
	return sleebctl_control_call(config_root, "STATUS");
}
