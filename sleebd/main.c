/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebd: policy-driven SLEEB queue tuning daemon. */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "manager.h"
#include "sleeb/lock.h"
#include "sleeb/root.h"
#include "sleeb/state.h"

/* How long to wait for a `sleebd --once` or `sleebctl set` to finish. */
#define LOCK_WAIT_SEC 10

/* The lock holder's name for --restore-only (sleeb/lock.h). */
#define LOCK_RESTORE_ONLY "sleebd --restore-only"

/*
 * --restore-only, the unit's ExecStopPost=: after a daemon that died
 * (SIGKILL, a crash, the watchdog) nothing else puts the originals back
 * until the next start, which the start limit may never allow. Without a
 * state file (a clean stop removed it) there is nothing to do. Returns 0
 * or -errno (logged).
 */
static int restore_only(Manager *m)
{
	int r;

	if (access(m->state_path, F_OK) < 0) {
		if (errno != ENOENT)
			return log_error_errno(errno, "%s: %m", m->state_path);
		log_debug("%s: none, nothing to restore", m->state_path);
		return 0;
	}
	/* Rollback=no: the tuned values are meant to outlive sleebd. A
	 * configuration that no longer loads does not keep the originals
	 * from coming back. */
	if (manager_load_config(m) == 0 && !m->config.rollback) {
		log_info("Rollback=no: leaving the tuned values in place");
		return 0;
	}
	r = manager_load_state(m);
	if (r < 0)
		return r;
	log_info("restoring the originals of %zu caches from %s", m->state.n, m->state_path);
	return manager_restore_all(m);
}

static void help(void)
{
	printf("Usage: sleebd [OPTIONS]\n\n"
	       "Tune SLEEB slab queues from policy files.\n\n"
	       "  -h --help               Show this help\n"
	       "     --version            Show the version\n"
	       "     --root=DIR           Prefix for /proc and /sys (tests)\n"
	       "     --config-root=DIR    Prefix for /etc, /run and /usr/lib (tests)\n"
	       "     --once               Apply the policy once and exit\n"
	       "     --dry-run            Decide and log, write nothing\n"
	       "     --restore-only       Restore the originals of the state file and exit\n"
	       "     --debug              Log debug messages\n\n"
	       "See sleebd(8), sleebd.conf(5) and sleeb-policy(5).\n");
}

/* Returns 1 to continue, 0 to exit successfully, -EINVAL on bad usage. */
static int parse_argv(int argc, char *argv[], struct options *o)
{
	enum { ARG_VERSION = 0x100, ARG_ROOT, ARG_CONFIG_ROOT, ARG_ONCE, ARG_DRY_RUN, ARG_RESTORE_ONLY, ARG_DEBUG };
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, ARG_VERSION },
		{ "root", required_argument, NULL, ARG_ROOT },
		{ "config-root", required_argument, NULL, ARG_CONFIG_ROOT },
		{ "once", no_argument, NULL, ARG_ONCE },
		{ "dry-run", no_argument, NULL, ARG_DRY_RUN },
		{ "restore-only", no_argument, NULL, ARG_RESTORE_ONLY },
		{ "debug", no_argument, NULL, ARG_DEBUG },
		{}
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", options, NULL)) >= 0) {
		switch (c) {
		case 'h':
			help();
			return 0;
		case ARG_VERSION:
			printf("sleebd " SLEEB_VERSION "\n");
			return 0;
		case ARG_ROOT:
			o->root = optarg;
			break;
		case ARG_CONFIG_ROOT:
			o->config_root = optarg;
			break;
		case ARG_ONCE:
			o->once = true;
			break;
		case ARG_DRY_RUN:
			o->dry_run = true;
			break;
		case ARG_RESTORE_ONLY:
			o->restore_only = true;
			break;
		case ARG_DEBUG:
			log_set_max_level(LOG_DEBUG);
			break;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sleebd: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (o->restore_only && (o->once || o->dry_run)) {
		fprintf(stderr, "sleebd: --restore-only cannot be combined with --%s\n", o->once ? "once" : "dry-run");
		return -EINVAL;
	}
	return 1;
}

/*
 * Takes the writers' lock (sleeb/lock.h) before the state file is read:
 * for good as a daemon, for the one pass with --once. Returns the
 * descriptor that holds it, or -errno (logged).
 */
static int take_lock(const struct options *o)
{
	struct sleeb_lock_holder holder = { 0 };
	struct sleeb_error err = { 0 };
	char path[4096];
	int r;

	r = sleeb_prefix_path(path, sizeof(path), o->config_root, SLEEB_LOCK_PATH);
	if (r >= 0)
		r = sleeb_mkdir_parents(path);
	if (r < 0)
		return log_error_errno(r, "%s: cannot create its directory: %m", path);
	r = sleeb_lock_take(path, o->restore_only ? LOCK_RESTORE_ONLY : o->once ? SLEEB_LOCK_ONCE : SLEEB_LOCK_DAEMON,
			    LOCK_WAIT_SEC * UINT64_C(1000000), &holder, &err);
	if (r != -EBUSY) {
		if (r < 0)
			log_error_errno(r, "%s", err.msg);
		return r;
	}
	if (!sleeb_lock_holder_is_daemon(&holder))
		log_error("%s, still after %d s; giving up", err.msg, LOCK_WAIT_SEC);
	else if (o->restore_only)
		log_error("sleebd (pid %ld) is running; --restore-only would undo its tuning under it, nothing done",
			  holder.pid);
	else if (o->once)
		log_error("sleebd (pid %ld) is running and applies the policy itself; --once would race it, "
			  "nothing done (to apply a changed policy, use 'sleebctl reload')", holder.pid);
	else
		log_error("another sleebd (pid %ld) is running with this configuration root; refusing to start",
			  holder.pid);
	return r;
}

static int run(int argc, char *argv[])
{
	struct options o = { 0 };
	Manager *m = NULL;
	int r, lock_fd = -1;

	log_setup();
	r = parse_argv(argc, argv, &o);
	if (r <= 0)
		return r < 0 ? 2 : 0;

#ifdef SLEEBD_TEST_HOOKS
	/* sleebd-test only: a test's FIFO stands in for a slow queue_stats. */
	sleeb_root_allow_fifos = getenv("SLEEB_TEST_ALLOW_FIFOS") != NULL;
#endif
	r = sleeb_root_set(o.root);
	if (r < 0)
		return log_error_errno(r, "--root: %m"), 1;
	/* A dry run of --once writes nothing; a daemon, dry or not, also
	 * owns the control socket, which a second one would take over. */
	if (!(o.once && o.dry_run)) {
		lock_fd = take_lock(&o);
		if (lock_fd < 0)
			return 1;
	}
	r = manager_new(&o, &m);
	if (r < 0) {
		log_error_errno(r, "out of memory");
		goto finish;
	}
	if (o.restore_only) {
		r = restore_only(m);
		goto finish;
	}

	/* Errors were logged with file:line; a daemon with a broken policy
	 * must not start half-configured. */
	r = manager_load_config(m);
	if (r < 0) {
		log_error("refusing to start with an invalid policy or configuration");
		goto finish;
	}
	r = manager_load_state(m);
	if (r < 0)
		goto finish;

	if (o.once) {
		r = manager_apply_policy(m, true, "once");
		/* Left in place for node_exporter, as a cron job's would be. */
		manager_write_textfile(m);
		if (r == 0 && m->monitor_only)
			log_notice("monitor-only: nothing applied");
		/* Boot scripts need to know when part of the policy failed. */
		if (r == 0 && m->n_failures > 0) {
			log_error("%u caches could not be tuned as the policy asks", m->n_failures);
			r = -EIO;
		}
		goto finish;
	}

	/* The daemon's alone: --once applies the policy's plan as written. */
	r = manager_load_learned(m);
	if (r < 0)
		goto finish;
	r = manager_start(m);
	if (r < 0)
		goto finish;
	r = manager_run(m);
finish:
	manager_free(m);
	/* Only now: the rollback on SIGTERM ran under the lock too. */
	if (lock_fd >= 0)
		close(lock_fd);
	return r < 0 ? 1 : r;
}

int main(int argc, char *argv[])
{
	return run(argc, argv);
}
