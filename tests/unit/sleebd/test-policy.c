/* SPDX-License-Identifier: GPL-2.0-only */
/* Policy and sleebd.conf parsing: every error with file:line, masking, order. */

#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleeb/daemon-config.h"
#include "sleeb/defaults.h"
#include "sleeb/dropin.h"
#include "sleeb/policy.h"
#include "sleeb/root.h"
#include "runner.h"

static struct sleeb_policy pol;
static struct sleeb_diag diag;

static void setup(void)
{
	memset(&pol, 0, sizeof(pol));
	memset(&diag, 0, sizeof(diag));
}

static void teardown(void)
{
	sleeb_policy_done(&pol);
	sleeb_diag_done(&diag);
}

static int parse(const char *text)
{
	return sleeb_policy_load_buffer(&pol, "t.conf", text, strlen(text), &diag);
}

static bool has_msg(const char *want)
{
	for (size_t i = 0; i < diag.n; i++)
		if (strstr(diag.msgs[i], want))
			return true;
	return false;
}

#define ck_error(text, want)                                                           \
	do {                                                                           \
		ck_assert_int_eq(parse(text), -EINVAL);                                \
		ck_assert_msg(has_msg(want), "missing '%s' (got %zu msgs, first: %s)", \
			      want, diag.n, diag.n ? diag.msgs[0] : "-");              \
	} while (0)

START_TEST(test_good)
{
	ck_assert_int_eq(parse("# comment\n; other comment\n\n[Cache]\nMatch=kmalloc-* dentry\n"
			       "CpuQueueSize=256\nCpuBatchSize = 64\nSharedQueueSize=512\n"
			       "AutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=1024\nMinObjectSize=8\nMaxObjectSize=4K\n"),
			 0);
	ck_assert_uint_eq(diag.n, 0);
	ck_assert_uint_eq(pol.n_sections, 1);
	ck_assert_str_eq(pol.sections[0].match[0], "kmalloc-*");
	ck_assert_str_eq(pol.sections[0].match[1], "dentry");
	ck_assert_ptr_null(pol.sections[0].match[2]);
	ck_assert_int_eq(pol.sections[0].tunable[SLEEB_TUNABLE_BATCH].value, 64);
	ck_assert_uint_eq(pol.sections[0].tunable[SLEEB_TUNABLE_BATCH].origin.line, 7);
	ck_assert_str_eq(pol.sections[0].tunable[SLEEB_TUNABLE_BATCH].origin.file, "t.conf");
	ck_assert_int_eq(pol.sections[0].max_object_size.value, 4096);
	ck_assert_int_eq(pol.sections[0].autotune.value, 1);
}
END_TEST

START_TEST(test_later_key_wins)
{
	ck_assert_int_eq(parse("[Cache]\nMatch=a\nCpuQueueSize=10\nCpuQueueSize=default\nMatch=b c\n"), 0);
	ck_assert_int_eq(pol.sections[0].tunable[SLEEB_TUNABLE_QUEUE].value, SLEEB_VALUE_DEFAULT);
	ck_assert_uint_eq(pol.sections[0].tunable[SLEEB_TUNABLE_QUEUE].origin.line, 4);
	ck_assert_str_eq(pol.sections[0].match[0], "b");
	ck_assert_uint_eq(pol.sections[0].match_origin.line, 5);
}
END_TEST

START_TEST(test_err_unknown_section)
{
	ck_error("[Cache]\nMatch=a\n[Foo]\nBar=1\n", "t.conf:3: unknown section [Foo]");
	/* keys in an unknown section are not reported one by one */
	ck_assert_uint_eq(diag.n, 1);
}
END_TEST

START_TEST(test_err_unknown_key)
{
	ck_error("[Cache]\nMatch=a\nCpuQueue=5\n", "t.conf:3: unknown key 'CpuQueue'");
}
END_TEST

START_TEST(test_err_bad_values)
{
	ck_error("[Cache]\nMatch=a\nCpuQueueSize=lots\n", "t.conf:3: CpuQueueSize=lots: not a number");
	ck_error("[Cache]\nMatch=a\nCpuQueueSize=10001\n", "t.conf:3: CpuQueueSize=10001: out of range");
	ck_error("[Cache]\nMatch=a\nCpuBatchSize=0\n", "t.conf:3: CpuBatchSize=0: out of range");
	ck_error("[Cache]\nMatch=a\nSharedQueueSize=-1\n", "t.conf:3: SharedQueueSize=-1");
	ck_error("[Cache]\nMatch=a\nAutoTune=maybe\n", "t.conf:3: AutoTune=maybe: not a boolean");
	ck_error("[Cache]\nMatch=a\nAutoTuneMax=0\n", "t.conf:3: AutoTuneMax=0: out of range");
	ck_error("[Cache]\nMatch=a\nAutoTuneMin=some\n", "t.conf:3: AutoTuneMin=some: not a number or \"default\"");
	ck_error("[Cache]\nMatch=a\nMinObjectSize=12Q\n", "t.conf:3: MinObjectSize=12Q: not a size");
	ck_error("[Cache]\nMatch=\n", "t.conf:2: Match= is empty");
}
END_TEST

START_TEST(test_err_missing_match)
{
	ck_error("\n[Cache]\nCpuQueueSize=5\n[Cache]\nMatch=x\n", "t.conf:2: [Cache] section without Match=");
	ck_assert_uint_eq(diag.n, 1);
}
END_TEST

START_TEST(test_err_batch_above_queue)
{
	ck_error("[Cache]\nMatch=a\nCpuQueueSize=10\nCpuBatchSize=11\n",
		 "t.conf:4: CpuBatchSize=11 is larger than CpuQueueSize=10 (line 3)");
}
END_TEST

START_TEST(test_err_shared_below_batch)
{
	ck_error("[Cache]\nMatch=a\nCpuBatchSize=8\nSharedQueueSize=4\n",
		 "t.conf:4: SharedQueueSize=4 is below CpuBatchSize=8 (line 3)");
	teardown();
	setup();
	/* 0 turns the shared queue off: fine */
	ck_assert_int_eq(parse("[Cache]\nMatch=a\nCpuBatchSize=8\nSharedQueueSize=0\n"), 0);
}
END_TEST

START_TEST(test_err_min_above_max)
{
	ck_error("[Cache]\nMatch=a\nAutoTuneMin=100\nAutoTuneMax=10\n",
		 "t.conf:3: AutoTuneMin=100 is above AutoTuneMax=10 (line 4)");
	ck_error("[Cache]\nMatch=a\nMaxObjectSize=1K\nMinObjectSize=2K\n",
		 "t.conf:4: MinObjectSize=2048 is above MaxObjectSize=1024 (line 3)");
}
END_TEST

START_TEST(test_err_syntax)
{
	ck_error("Match=a\n", "t.conf:1: assignment outside of any section");
	ck_error("[Cache]\nMatch=a\njunk\n", "t.conf:3: missing '='");
	ck_error("[Cache\nMatch=a\n", "t.conf:1: invalid section header");
	ck_error("[Cache]\nMatch=a\n=5\n", "t.conf:3: missing key name");
}
END_TEST

START_TEST(test_all_errors_reported)
{
	ck_assert_int_eq(parse("[Cache]\nMatch=a\nFoo=1\nCpuQueueSize=x\n[Bar]\n[Cache]\nCpuQueueSize=1\n"), -EINVAL);
	ck_assert_uint_eq(diag.n, 4);
	ck_assert(has_msg("t.conf:3:"));
	ck_assert(has_msg("t.conf:4:"));
	ck_assert(has_msg("t.conf:5:"));
	ck_assert(has_msg("t.conf:6:"));
}
END_TEST

START_TEST(test_nul_and_crlf)
{
	static const char buf[] = "[Cache]\r\nMatch=a\r\nCpu\0QueueSize=1\n";

	ck_assert_int_eq(sleeb_policy_load_buffer(&pol, "t.conf", buf, sizeof(buf) - 1, &diag), -EINVAL);
	ck_assert(has_msg("t.conf:3: line contains a NUL byte"));
	ck_assert_str_eq(pol.sections[0].match[0], "a");
}
END_TEST

START_TEST(test_effective)
{
	struct sleeb_effective e;
	struct sleeb_tunables cur = { { 120, 60, 480 } }, out;
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(parse("[Cache]\nMatch=kmalloc-*\nCpuQueueSize=256\nCpuBatchSize=32\n"
			       "[Cache]\nMatch=kmalloc-64\nCpuBatchSize=64\n"
			       "[Cache]\nMatch=*\nMinObjectSize=8K\nSharedQueueSize=0\nCpuQueueSize=default\n"),
			 0);
	sleeb_policy_effective(&pol, "kmalloc-64", 64, &e);
	ck_assert(e.matched);
	ck_assert_int_eq(e.tunable[SLEEB_TUNABLE_QUEUE].value, 256);
	ck_assert_int_eq(e.tunable[SLEEB_TUNABLE_BATCH].value, 64);
	ck_assert_uint_eq(e.tunable[SLEEB_TUNABLE_BATCH].origin.line, 7);
	ck_assert_int_eq(e.tunable[SLEEB_TUNABLE_SHARED].value, SLEEB_VALUE_UNSET);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 64, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[0], 256);
	ck_assert_uint_eq(out.v[1], 64);
	ck_assert_uint_eq(out.v[2], 480);

	sleeb_policy_effective(&pol, "big", 16384, &e);
	ck_assert(e.matched);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 16384, 4096, &out, &err), -EINVAL);
	cur = (struct sleeb_tunables) { { 8, 4, 0 } };
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 16384, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[0], 8);

	sleeb_policy_effective(&pol, "dentry", 192, &e);
	ck_assert(!e.matched);
}
END_TEST

START_TEST(test_kernel_defaults)
{
	struct sleeb_tunables t;
	static const struct { uint64_t size; uint32_t q, b, s; } cases[] = {
		{ 8, 120, 60, 480 },   { 256, 120, 60, 480 }, { 257, 54, 27, 216 }, { 1024, 54, 27, 216 },
		{ 1025, 24, 12, 96 },  { 4096, 24, 12, 96 },  { 4097, 8, 4, 0 },     { 131072, 8, 4, 0 },
		{ 131073, 1, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sleeb_kernel_defaults(cases[i].size, 4096, &t);
		ck_assert_uint_eq(t.v[0], cases[i].q);
		ck_assert_uint_eq(t.v[1], cases[i].b);
		ck_assert_uint_eq(t.v[2], cases[i].s);
	}
}
END_TEST

/* "default" batch and shared follow the queue (and batch) the policy sets
 * (found in the guest: CpuQueueSize=90 + CpuBatchSize=default gave 27). */
START_TEST(test_default_relative)
{
	struct sleeb_effective e;
	struct sleeb_tunables cur = { { 54, 27, 216 } }, out;
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(parse("[Cache]\nMatch=a\nCpuQueueSize=90\nCpuBatchSize=default\nSharedQueueSize=0\n"
			       "[Cache]\nMatch=b\nCpuQueueSize=200\nCpuBatchSize=default\nSharedQueueSize=default\n"
			       "[Cache]\nMatch=c\nCpuQueueSize=default\nCpuBatchSize=default\nSharedQueueSize=default\n"
			       "[Cache]\nMatch=d\nCpuQueueSize=4000\nCpuBatchSize=default\nSharedQueueSize=default\n"),
			 0);
	sleeb_policy_effective(&pol, "a", 512, &e);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 512, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[0], 90);
	ck_assert_uint_eq(out.v[1], 45);
	ck_assert_uint_eq(out.v[2], 0);
	sleeb_policy_effective(&pol, "b", 512, &e);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 512, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[0], 200);
	ck_assert_uint_eq(out.v[1], 100);
	ck_assert_uint_eq(out.v[2], 800);
	sleeb_policy_effective(&pol, "b", 8192, &e);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 8192, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[2], 0);
	sleeb_policy_effective(&pol, "c", 512, &e);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 512, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[0], 54);
	ck_assert_uint_eq(out.v[1], 27);
	ck_assert_uint_eq(out.v[2], 216);
	sleeb_policy_effective(&pol, "d", 64, &e);
	ck_assert_int_eq(sleeb_effective_resolve(&e, &cur, 64, 4096, &out, &err), 0);
	ck_assert_uint_eq(out.v[1], 2000);
	ck_assert_uint_eq(out.v[2], 10000);
}
END_TEST

/* ---- directories ---- */

static char root[64];

static void write_file(const char *rel, const char *text)
{
	char path[512], dir[512], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (s = dir + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(dir, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void rm_rf(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_masking_and_order)
{
	char **l;

	snprintf(root, sizeof(root), "/tmp/sleeb-policy-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	write_file("/usr/lib/sleeb/policy.d/50-a.conf", "[Cache]\nMatch=x\nCpuQueueSize=1\n");
	write_file("/usr/lib/sleeb/policy.d/10-b.conf", "[Cache]\nMatch=x\nCpuQueueSize=2\n");
	write_file("/run/sleeb/policy.d/50-a.conf", "[Cache]\nMatch=x\nCpuQueueSize=3\n");
	write_file("/etc/sleeb/policy.d/50-a.conf", "[Cache]\nMatch=x\nCpuQueueSize=4\n");
	write_file("/etc/sleeb/policy.d/90-c.conf", "[Cache]\nMatch=x\nCpuBatchSize=1\n");
	write_file("/run/sleeb/policy.d/20-d.conf", "[Cache]\nMatch=x\n");
	write_file("/etc/sleeb/policy.d/README", "not a policy\n");

	ck_assert_int_eq(sleeb_conf_files_list(root, sleeb_policy_dirs, &l), 0);
	ck_assert_ptr_nonnull(l[0]);
	ck_assert(strstr(l[0], "/usr/lib/sleeb/policy.d/10-b.conf"));
	ck_assert(strstr(l[1], "/run/sleeb/policy.d/20-d.conf"));
	ck_assert(strstr(l[2], "/etc/sleeb/policy.d/50-a.conf"));
	ck_assert(strstr(l[3], "/etc/sleeb/policy.d/90-c.conf"));
	ck_assert_ptr_null(l[4]);
	sleeb_strv_free(l);

	ck_assert_int_eq(sleeb_policy_load(&pol, root, &diag), 0);
	ck_assert_uint_eq(pol.n_files, 4);
	ck_assert_uint_eq(pol.n_sections, 4);
	{
		struct sleeb_effective e;

		sleeb_policy_effective(&pol, "x", 1, &e);
		/* 50-a.conf from /etc (4) masks /run (3) and /usr/lib (1), and is
		 * applied after 10-b.conf (2). */
		ck_assert_int_eq(e.tunable[SLEEB_TUNABLE_QUEUE].value, 4);
		ck_assert(strstr(e.tunable[SLEEB_TUNABLE_QUEUE].origin.file, "/etc/"));
	}
	rm_rf();
}
END_TEST

/*
 * Drop-in paths are built like every other prefixed path
 * (sleeb_prefix_path()): "DIR/" is "DIR", so that policy verify, the
 * origins sleebd logs and sleebd.conf's own path all name a file alike.
 */
START_TEST(test_dropin_paths_prefixed_as_all)
{
	char **l, slashed[80], want[PATH_MAX];

	snprintf(root, sizeof(root), "/tmp/sleeb-policy-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	write_file("/etc/sleeb/policy.d/50-a.conf", "[Cache]\nMatch=x\nCpuQueueSize=4\n");
	snprintf(slashed, sizeof(slashed), "%s/", root);
	ck_assert_int_gt(sleeb_prefix_path(want, sizeof(want), slashed, "/etc/sleeb/policy.d/50-a.conf"), 0);
	ck_assert_int_eq(sleeb_conf_files_list(slashed, sleeb_policy_dirs, &l), 0);
	ck_assert_ptr_nonnull(l[0]);
	ck_assert_str_eq(l[0], want);
	sleeb_strv_free(l);
	rm_rf();
}
END_TEST

/* Both kinds of file go through one loader: an unreadable file is one
 * "path: cannot read: ..." and the read's error, nothing remembered. */
START_TEST(test_unreadable_file_both_kinds)
{
	struct sleeb_daemon_config c;

	ck_assert_int_eq(sleeb_policy_load_file(&pol, "/nonexistent-sleeb/p.conf", &diag), -ENOENT);
	ck_assert_uint_eq(diag.n, 1);
	ck_assert_str_eq(diag.msgs[0], "/nonexistent-sleeb/p.conf: cannot read: No such file or directory");
	ck_assert_uint_eq(pol.n_files, 0);

	sleeb_daemon_config_init(&c);
	ck_assert_int_eq(sleeb_daemon_config_load_file(&c, "/nonexistent-sleeb/d.conf", &diag), -ENOENT);
	ck_assert_uint_eq(diag.n, 2);
	ck_assert_str_eq(diag.msgs[1], "/nonexistent-sleeb/d.conf: cannot read: No such file or directory");
	ck_assert_uint_eq(c.n_files, 0);
	sleeb_daemon_config_done(&c);
}
END_TEST

START_TEST(test_missing_dirs)
{
	char **l;

	ck_assert_int_eq(sleeb_conf_files_list("/nonexistent-sleeb-root", sleeb_policy_dirs, &l), 0);
	ck_assert_ptr_null(l[0]);
	sleeb_strv_free(l);
	ck_assert_int_eq(sleeb_policy_load(&pol, "/nonexistent-sleeb-root", &diag), 0);
}
END_TEST

/* ---- sleebd.conf ---- */

START_TEST(test_daemon_config)
{
	struct sleeb_daemon_config c;
	static const char good[] = "[Daemon]\nInterval=500ms\nRollback=no\nMaxQueuedMemory=64M\n"
				   "PrometheusTextfile=/var/lib/prom/sleeb.prom\n";

	sleeb_daemon_config_init(&c);
	ck_assert_uint_eq(c.interval_usec, 2000000);
	ck_assert(c.rollback);
	ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "d.conf", good, strlen(good), &diag), 0);
	ck_assert_uint_eq(c.interval_usec, 500000);
	ck_assert(!c.rollback);
	ck_assert_uint_eq(c.max_queued_bytes, 64u << 20);
	ck_assert_uint_eq(sleeb_daemon_config_budget(&c, 1000), 64u << 20);
	ck_assert_str_eq(c.prometheus_textfile, "/var/lib/prom/sleeb.prom");
	{
		static const char more[] = "[Daemon]\nMaxQueuedMemory=5%\nInterval=2s\n";

		ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "e.conf", more, strlen(more), &diag), 0);
	}
	ck_assert_uint_eq(c.max_queued_percent, 5);
	ck_assert_uint_eq(sleeb_daemon_config_budget(&c, 1000), 50);
	ck_assert_uint_eq(c.interval_usec, 2000000);
	ck_assert_uint_eq(c.interval_origin.line, 3);
	sleeb_daemon_config_done(&c);
}
END_TEST

static void daemon_error(const char *text, const char *want)
{
	struct sleeb_daemon_config c;

	sleeb_daemon_config_init(&c);
	ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "d.conf", text, strlen(text), &diag), -EINVAL);
	ck_assert_msg(has_msg(want), "missing '%s'", want);
	sleeb_daemon_config_done(&c);
}

START_TEST(test_daemon_config_errors)
{
	daemon_error("[Daemon]\nInterval=soon\n", "d.conf:2: Interval=soon: not a time span");
	daemon_error("[Daemon]\nInterval=1ms\n", "d.conf:2: Interval=1ms: out of range");
	daemon_error("[Daemon]\nRollback=perhaps\n", "d.conf:2: Rollback=perhaps: not a boolean");
	daemon_error("[Daemon]\nMaxQueuedMemory=150%\n", "d.conf:2: MaxQueuedMemory=150%");
	daemon_error("[Daemon]\nMaxQueuedMemory=lots\n", "d.conf:2: MaxQueuedMemory=lots: not a size");
	daemon_error("[Daemon]\nPrometheusTextfile=rel/path\n", "d.conf:2: PrometheusTextfile=rel/path: not an absolute");
	daemon_error("[Daemon]\nSpeed=11\n", "d.conf:2: unknown key 'Speed' in [Daemon]");
	daemon_error("[Cache]\nMatch=x\n", "d.conf:1: unknown section [Cache]");
}
END_TEST

START_TEST(test_daemon_autotune_keys)
{
	struct sleeb_daemon_config c;
	static const char good[] = "[Daemon]\nAutoTuneTargetTrips=20\nAutoTuneMinTripRate=0\nAutoTuneSmoothing=100\n"
				   "AutoTuneReapShrink=75\nAutoTuneMemoryLow=0\nAutoTuneMemoryPressure=40\n"
				   "AutoTuneTripsPerMiB=0\n";
	static const char reset[] = "[Daemon]\nAutoTuneTargetTrips=\nAutoTuneMemoryPressure=\n";

	sleeb_daemon_config_init(&c);
	ck_assert_uint_eq(c.autotune_target_trips, 4);
	ck_assert_uint_eq(c.autotune_min_trip_rate, 50);
	ck_assert_uint_eq(c.autotune_trips_per_mib, 50);
	ck_assert_uint_eq(c.autotune_smoothing, 50);
	ck_assert_uint_eq(c.autotune_reap_shrink, 50);
	ck_assert_uint_eq(c.autotune_memory_low, 5);
	ck_assert_uint_eq(c.autotune_memory_pressure, 10);
	ck_assert_uint_eq(c.max_queued_percent, 10);
	ck_assert_ptr_null(c.autotune_target_trips_origin.file);
	ck_assert_int_eq(sleeb_daemon_config_check(&c, &diag), 0);

	ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "d.conf", good, strlen(good), &diag), 0);
	ck_assert_uint_eq(diag.n, 0);
	ck_assert_uint_eq(c.autotune_target_trips, 20);
	ck_assert_uint_eq(c.autotune_min_trip_rate, 0);
	ck_assert_uint_eq(c.autotune_smoothing, 100);
	ck_assert_uint_eq(c.autotune_reap_shrink, 75);
	ck_assert_uint_eq(c.autotune_memory_low, 0);
	ck_assert_uint_eq(c.autotune_memory_pressure, 40);
	ck_assert_uint_eq(c.autotune_trips_per_mib, 0);
	ck_assert_uint_eq(c.autotune_trips_per_mib_origin.line, 8);
	ck_assert_str_eq(c.autotune_target_trips_origin.file, "d.conf");
	ck_assert_uint_eq(c.autotune_target_trips_origin.line, 2);
	ck_assert_uint_eq(c.autotune_memory_pressure_origin.line, 7);

	/* empty: back to the default */
	ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "e.conf", reset, strlen(reset), &diag), 0);
	ck_assert_uint_eq(c.autotune_target_trips, 4);
	ck_assert_uint_eq(c.autotune_memory_pressure, 10);
	ck_assert_uint_eq(c.autotune_reap_shrink, 75);

	/* MaxQueuedMemory: empty is the default, infinity no budget */
	{
		static const char inf[] = "[Daemon]\nMaxQueuedMemory=infinity\n", def[] = "[Daemon]\nMaxQueuedMemory=\n";

		ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "g.conf", inf, strlen(inf), &diag), 0);
		ck_assert_uint_eq(sleeb_daemon_config_budget(&c, 1000000), 0);
		ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "h.conf", def, strlen(def), &diag), 0);
		ck_assert_uint_eq(sleeb_daemon_config_budget(&c, 1000000), 100000);
	}

	/* the ends of the ranges */
	{
		static const char ends[] = "[Daemon]\nAutoTuneTargetTrips=1000\nAutoTuneMinTripRate=1000000\n"
					   "AutoTuneSmoothing=1\nAutoTuneReapShrink=100\nAutoTuneMemoryLow=50\n"
					   "AutoTuneMemoryPressure=100\nAutoTuneTripsPerMiB=1000000\n";

		ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "f.conf", ends, strlen(ends), &diag), 0);
	}
	ck_assert_uint_eq(c.autotune_target_trips, 1000);
	ck_assert_uint_eq(c.autotune_min_trip_rate, 1000000);
	ck_assert_uint_eq(c.autotune_trips_per_mib, 1000000);
	ck_assert_uint_eq(c.autotune_smoothing, 1);
	ck_assert_uint_eq(c.autotune_memory_low, 50);
	ck_assert_uint_eq(diag.n, 0);
	sleeb_daemon_config_done(&c);
}
END_TEST

/* Exactly one diagnostic, exactly want; the values stay at their defaults. */
static void daemon_error_exact(const char *text, const char *want)
{
	struct sleeb_daemon_config c, def;

	sleeb_diag_done(&diag);
	sleeb_daemon_config_init(&c);
	sleeb_daemon_config_init(&def);
	ck_assert_int_eq(sleeb_daemon_config_load_buffer(&c, "d.conf", text, strlen(text), &diag), -EINVAL);
	ck_assert_msg(diag.n == 1 && strcmp(diag.msgs[0], want) == 0, "want '%s', got %zu msgs, first: %s", want,
		      diag.n, diag.n ? diag.msgs[0] : "-");
	ck_assert_uint_eq(c.autotune_target_trips, def.autotune_target_trips);
	ck_assert_uint_eq(c.autotune_min_trip_rate, def.autotune_min_trip_rate);
	ck_assert_uint_eq(c.autotune_trips_per_mib, def.autotune_trips_per_mib);
	ck_assert_uint_eq(c.autotune_smoothing, def.autotune_smoothing);
	ck_assert_uint_eq(c.autotune_reap_shrink, def.autotune_reap_shrink);
	ck_assert_uint_eq(c.autotune_memory_low, def.autotune_memory_low);
	ck_assert_uint_eq(c.autotune_memory_pressure, def.autotune_memory_pressure);
	sleeb_daemon_config_done(&c);
	sleeb_daemon_config_done(&def);
}

START_TEST(test_daemon_autotune_errors)
{
	daemon_error_exact("[Daemon]\nAutoTuneTargetTrips=0\n",
			   "d.conf:2: AutoTuneTargetTrips=0: out of range (1..1000)");
	daemon_error_exact("[Daemon]\n\nAutoTuneTargetTrips=1001\n",
			   "d.conf:3: AutoTuneTargetTrips=1001: out of range (1..1000)");
	daemon_error_exact("[Daemon]\nAutoTuneTargetTrips=4.5\n", "d.conf:2: AutoTuneTargetTrips=4.5: not a number");
	daemon_error_exact("[Daemon]\nAutoTuneMinTripRate=1000001\n",
			   "d.conf:2: AutoTuneMinTripRate=1000001: out of range (0..1000000)");
	daemon_error_exact("[Daemon]\nAutoTuneMinTripRate=-1\n", "d.conf:2: AutoTuneMinTripRate=-1: not a number");
	daemon_error_exact("[Daemon]\nAutoTuneTripsPerMiB=1000001\n",
			   "d.conf:2: AutoTuneTripsPerMiB=1000001: out of range (0..1000000)");
	daemon_error_exact("[Daemon]\nAutoTuneTripsPerMiB=0.5\n", "d.conf:2: AutoTuneTripsPerMiB=0.5: not a number");
	daemon_error_exact("[Daemon]\nAutoTuneSmoothing=0\n", "d.conf:2: AutoTuneSmoothing=0: out of range (1..100)");
	daemon_error_exact("[Daemon]\nAutoTuneReapShrink=101\n",
			   "d.conf:2: AutoTuneReapShrink=101: out of range (1..100)");
	daemon_error_exact("[Daemon]\nAutoTuneMemoryLow=51\n", "d.conf:2: AutoTuneMemoryLow=51: out of range (0..50)");
	daemon_error_exact("[Daemon]\nAutoTuneMemoryPressure=x\n",
			   "d.conf:2: AutoTuneMemoryPressure=x: not a number");
	daemon_error_exact("[Daemon]\nAutoTuneHighMark=5\n", "d.conf:2: unknown key 'AutoTuneHighMark' in [Daemon]");
}
END_TEST

/* The old auto-tuning keys fail, naming what replaced them. */
START_TEST(test_daemon_autotune_replaced)
{
	daemon_error_exact("[Daemon]\nAutoTuneGrowRate=200\n",
			   "d.conf:2: AutoTuneGrowRate= was replaced by AutoTuneTargetTrips= (slow-path trips per "
			   "1000 operations a cache is sized for) and AutoTuneMinTripRate= (trips per second a change "
			   "must save)");
	daemon_error_exact("[Daemon]\nInterval=1s\nAutoTuneIdleFlow=20\n",
			   "d.conf:3: AutoTuneIdleFlow= was replaced by AutoTuneReapShrink= (a quiet cache is no "
			   "longer shrunk: queues shrink when the reaper returns most of what refills bring in, when "
			   "memory is short, AutoTuneMemoryLow= and AutoTuneMemoryPressure=, or to keep within "
			   "MaxQueuedMemory=)");
	daemon_error_exact("[Daemon]\nAutoTuneGrowAfter=3\n",
			   "d.conf:2: AutoTuneGrowAfter= was replaced by AutoTuneSmoothing= (the weight of the newest "
			   "interval in the averages the decision reads; it decides in one interval)");
	daemon_error_exact("[Daemon]\nAutoTuneShrinkAfter=\n",
			   "d.conf:2: AutoTuneShrinkAfter= was replaced by AutoTuneSmoothing= (the weight of the "
			   "newest interval in the averages the decision reads; it decides in one interval)");
	daemon_error_exact("[Daemon]\nAutoTuneCooldown=5\n",
			   "d.conf:2: AutoTuneCooldown= was replaced by AutoTuneSmoothing= (the averages restart after "
			   "every change, so a change is decided from what the new sizes do)");
}
END_TEST

START_TEST(test_daemon_dropins)
{
	struct sleeb_daemon_config c;

	snprintf(root, sizeof(root), "/tmp/sleeb-conf-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	write_file("/etc/sleeb/sleebd.conf", "[Daemon]\nInterval=5s\nRollback=no\n");
	write_file("/usr/lib/sleeb/sleebd.conf.d/10-x.conf", "[Daemon]\nInterval=7s\n");
	write_file("/etc/sleeb/sleebd.conf.d/20-y.conf", "[Daemon]\nRollback=yes\n");
	sleeb_daemon_config_init(&c);
	ck_assert_int_eq(sleeb_daemon_config_load(&c, root, &diag), 0);
	ck_assert_uint_eq(c.interval_usec, 7000000);
	ck_assert(c.rollback);
	ck_assert_uint_eq(c.n_files, 3);
	sleeb_daemon_config_done(&c);
	rm_rf();
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_later_key_wins);
	tcase_add_test(tc, test_err_unknown_section);
	tcase_add_test(tc, test_err_unknown_key);
	tcase_add_test(tc, test_err_bad_values);
	tcase_add_test(tc, test_err_missing_match);
	tcase_add_test(tc, test_err_batch_above_queue);
	tcase_add_test(tc, test_err_shared_below_batch);
	tcase_add_test(tc, test_err_min_above_max);
	tcase_add_test(tc, test_err_syntax);
	tcase_add_test(tc, test_all_errors_reported);
	tcase_add_test(tc, test_nul_and_crlf);
	tcase_add_test(tc, test_effective);
	tcase_add_test(tc, test_kernel_defaults);
	tcase_add_test(tc, test_default_relative);
	tcase_add_test(tc, test_masking_and_order);
	tcase_add_test(tc, test_dropin_paths_prefixed_as_all);
	tcase_add_test(tc, test_unreadable_file_both_kinds);
	tcase_add_test(tc, test_missing_dirs);
	tcase_add_test(tc, test_daemon_config);
	tcase_add_test(tc, test_daemon_config_errors);
	tcase_add_test(tc, test_daemon_autotune_keys);
	tcase_add_test(tc, test_daemon_autotune_errors);
	tcase_add_test(tc, test_daemon_autotune_replaced);
	tcase_add_test(tc, test_daemon_dropins);
}

int main(void)
{
	return test_main("policy", add_tests);
}
