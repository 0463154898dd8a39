/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl status: what sleebd is doing (asks the daemon). */

#include <stddef.h>

#include "control-client.h"
#include "verbs.h"

int verb_status(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config-root", required_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};

	return sleebctl_control_verb(argc, argv, options, "status", "STATUS", "STATUS JSON",
				     "Show sleebd's policy files, per-cache current and target values, drift\n"
				     "and the last decision with its reason (--json: as JSON).\n");
}
