/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl reload: make sleebd re-read its policy (like SIGHUP, but with the answer). */

#include <stddef.h>

#include "control-client.h"
#include "verbs.h"

int verb_reload(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config-root", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};

	return sleebctl_control_verb(argc, argv, options, "reload", "RELOAD", NULL,
				     "Make sleebd re-read sleebd.conf and the policy; a policy with errors is\n"
				     "refused (errors printed, exit 1) and the old one stays in force.\n");
}
