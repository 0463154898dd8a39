/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The systemd unit as configured for installation: a reload reports a
 * refused policy, and the sandbox grants no write access sleebd does not
 * use.
 *
 * Usage: test-sleebd-unit-file SLEEBD.SERVICE
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

static const char *unit_path;

/* The values of every "key=" line of the unit, one per line. */
static char *values(const char *key)
{
	static char out[4096];
	char line[1024];
	size_t klen = strlen(key);
	FILE *f = fopen(unit_path, "re");

	ck_assert_msg(f, "cannot open %s", unit_path);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == '=')
			strncat(out, line + klen + 1, sizeof(out) - strlen(out) - 1);
	fclose(f);
	return out;
}

/* systemctl reload must fail when sleebd refuses the policy: the command
 * has to wait for the daemon's answer, which kill -HUP does not. */
START_TEST(test_reload_waits_for_the_answer)
{
	const char *v = values("ExecReload");

	ck_assert_msg(strstr(v, "/sleebctl reload\n") && !strchr(strchr(v, '\n') + 1, '\n'),
		      "ExecReload=%s", v);
}
END_TEST

/* sleebd reads /proc/slabinfo and writes /sys/kernel/slab only. */
START_TEST(test_no_write_access_to_slabinfo)
{
	const char *v = values("ReadWritePaths");

	ck_assert_msg(strstr(v, "/sys/kernel/slab"), "ReadWritePaths=%s", v);
	ck_assert_msg(!strstr(v, "/proc/slabinfo"), "ReadWritePaths=%s", v);
}
END_TEST

/* After a daemon that died (SIGKILL, a crash, the start limit) the
 * originals come back from the state file; after a clean stop there is
 * none and the restore does nothing. */
START_TEST(test_stop_post_restores)
{
	const char *v = values("ExecStopPost");

	ck_assert_msg(strstr(v, "/sleebd --restore-only\n") && !strchr(strchr(v, '\n') + 1, '\n'),
		      "ExecStopPost=%s", v);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_reload_waits_for_the_answer);
	tcase_add_test(tc, test_no_write_access_to_slabinfo);
	tcase_add_test(tc, test_stop_post_restores);
}

int main(int argc, char *argv[])
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SLEEBD.SERVICE\n", argv[0]);
		return 2;
	}
	unit_path = argv[1];
	return test_main("unit-file", add_tests);
}
