/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for the policy and sleebd.conf parsers: any input must
 * either parse or produce file:line diagnostics, never crash or leak, and
 * whatever parses must resolve to values the kernel accepts or -EINVAL.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/autotune.h"
#include "sleeb/daemon-config.h"
#include "sleeb/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "kmalloc-64", "dentry", "a", "", "ext4_inode_cache" };
	struct sleeb_policy pol = { 0 };
	struct sleeb_daemon_config cfg;
	struct sleeb_diag diag = { 0 };
	int r;

	r = sleeb_policy_load_buffer(&pol, "fuzz.conf", (const char *) data, size, &diag);
	if (r < 0 && r != -EINVAL && r != -ENOMEM)
		abort();
	/* Every diagnostic names the file. */
	for (size_t i = 0; i < diag.n; i++)
		if (strncmp(diag.msgs[i], "fuzz.conf:", 10) != 0)
			abort();
	if (r == 0 && diag.n != 0)
		abort();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		static const uint64_t sizes[] = { 8, 192, 4096, 16384, 1 << 20 };

		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			struct sleeb_effective e;
			struct sleeb_tunables cur = { { 120, 60, 480 } }, out;
			struct sleeb_error err = { 0 };

			sleeb_policy_effective(&pol, names[i], sizes[k], &e);
			r = sleeb_effective_resolve(&e, &cur, sizes[k], 4096, &out, &err);
			if (r == 0 && sleeb_tunables_validate(&out, NULL) != 0)
				abort();
		}
	}
	sleeb_policy_done(&pol);
	sleeb_diag_done(&diag);

	sleeb_daemon_config_init(&cfg);
	r = sleeb_daemon_config_load_buffer(&cfg, "fuzz.conf", (const char *) data, size, &diag);
	if (r < 0 && r != -EINVAL && r != -ENOMEM)
		abort();
	/* The auto-tune numbers stay in their ranges, whatever parsed. */
	if (cfg.autotune_target_trips < 1 || cfg.autotune_target_trips > SLEEB_AUTOTUNE_TRIPS_MAX ||
	    cfg.autotune_min_trip_rate > SLEEB_AUTOTUNE_RATE_MAX ||
	    cfg.autotune_trips_per_mib > SLEEB_AUTOTUNE_RATE_MAX || cfg.autotune_smoothing < 1 ||
	    cfg.autotune_smoothing > 100 || cfg.autotune_reap_shrink < 1 || cfg.autotune_reap_shrink > 100 ||
	    cfg.autotune_memory_low > 50 || cfg.autotune_memory_pressure > 100)
		abort();
	/* No rule between keys today: a complete set always passes. */
	r = sleeb_daemon_config_check(&cfg, &diag);
	if (r != 0)
		abort();
	for (size_t i = 0; i < diag.n; i++)
		if (strncmp(diag.msgs[i], "fuzz.conf:", 10) != 0)
			abort();
	sleeb_daemon_config_done(&cfg);
	sleeb_diag_done(&diag);
	return 0;
}
