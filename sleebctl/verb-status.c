/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl status: what sleebd is doing (asks the daemon). */

#include "control-client.h"
#include "verbs.h"

int verb_status(int argc, char *argv[])
{
	return sleebctl_control_verb(argc, argv, "status", "STATUS", "STATUS JSON",
				     "Show sleebd's policy files, per-cache current and target values, drift\n"
				     "and the last decision with its reason (--json: as JSON).\n");
}
