/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The Manager owns sleebd's sd-event loop, its timers and sockets, the
 * policy in force and what it knows about every cache.
 */

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-event.h>

#include "sleeb/autotune.h"
#include "sleeb/cache.h"
#include "sleeb/daemon-config.h"
#include "sleeb/defaults.h"
#include "sleeb/parse.h"
#include "sleeb/policy.h"
#include "sleeb/slabinfo.h"
#include "sleeb/state.h"
#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"

struct uevent_listener;
struct name_retry;

/*
 * What sleebd remembers about one kmem_cache between intervals: its
 * target, auto-tuning memory, the counters of the last interval, the last
 * decision. One of three "cache" structs, each with its own lifetime:
 * struct sleeb_cache (sleeb/cache.h) is one snapshot of the kernel, made
 * and freed within an interval; struct sleeb_autotune_cache
 * (sleeb/autotune.h) is the input and output of one pure auto-tuning
 * decision, with no I/O and no daemon state; this one lives as long as
 * the cache does and is what the other two are filled from and back into.
 */
struct cache {
	char id[SLEEB_CACHE_NAME_MAX];  /* the key: the sysfs directory every name
					 * of a merged cache resolves to (as in
					 * the state file); the name without sysfs */
	char name[SLEEB_CACHE_NAME_MAX];        /* /proc/slabinfo's name, for people */
	uint64_t object_size;
	bool has_queues;                /* cpu_queue_size exists */
	struct sleeb_tunables cur;      /* as last read or written */
	struct sleeb_tunables target;   /* what policy or auto-tuning wants */
	struct sleeb_tunables planned;  /* the policy's plan the target started from */
	bool has_target;
	bool autotune;
	uint32_t at_min, at_max;
	struct sleeb_autotune_state at;
	struct sleeb_queue_stats prev_stats; /* queue_stats at the last read */
	uint64_t prev_usec;             /* when it was read */
	bool have_prev;
	/* An auto-tuned cache's queue_stats are read only in an interval in
	 * which its slabinfo line moved since they were last read (see
	 * want_from_sysfs()), or when a read is due (start, reload). */
	struct sleeb_slabinfo_numbers prev_si;  /* slabinfo's numbers then (have_prev) */
	bool stats_due;                 /* read at the next snapshot, moved or not */
	bool stats_skipped;             /* skipped in this snapshot: no decision */
	bool in_decision;               /* in this interval's auto-tuning decision */
	bool warned;                    /* EINVAL/EPERM logged once */
	bool write_failed;              /* the last write to the target failed */
	/* Drift (manager_verify()): the cache found off its target. */
	unsigned n_drift;               /* targets restored */
	unsigned drift_streak;          /* restores in a row, each found undone again */
	uint64_t drift_next_usec;       /* no restore before (back-off) */
	bool drift_logged;              /* the warning with the reason: once per cache */
	char *drift_reason;             /* the last one, for sleebctl status (NULL: none) */
	bool seen;                      /* in the last scan */
	char *last_reason;              /* last decision, for sleebctl status (NULL:
					 * none); on the heap, as is drift_reason:
					 * a few dozen bytes each, where buffers
					 * for the longest were 230 KiB of RSS
					 * for 300 caches */

	/* From the last full scan, for the Prometheus textfile. */
	bool has_slabinfo;              /* the two lines below are set */
	uint64_t active_objs, num_objs; /* /proc/slabinfo */
	uint64_t slab_bytes;            /* num_slabs x pagesperslab x page size */
	bool has_stats;                 /* queue_stats was read */
	struct sleeb_queue_stats stats;
};

/*
 * Why sleebd changed a cache's tunables: the reason= label of
 * sleeb_decisions_total. Every decision is one log_change() (journal
 * REASON=) and is counted in one place, manager-cache.c:decision(). The
 * rollback on stop is logged but not counted (the textfile is removed).
 */
enum decision_reason {
	DECISION_POLICY,                /* static policy (start, reload, new cache) */
	DECISION_UNMATCHED,             /* no policy matches any more: original back */
	DECISION_AUTOTUNE_GROW,
	DECISION_AUTOTUNE_SHRINK,
	DECISION_DRIFT,                 /* found off its target: target restored */
	_DECISION_MAX,
};

/* "policy", "unmatched", "autotune-grow", ...; NULL when out of range. */
const char *decision_reason_to_string(enum decision_reason r);

struct options {
	const char *root;               /* NULL: / */
	const char *config_root;        /* NULL: / */
	bool once;
	bool dry_run;
	bool restore_only;              /* put the state file's originals back, exit */
};

typedef struct Manager {
	sd_event *event;
	sd_event_source *timer;
	sd_event_source *control_source;
	struct uevent_listener *uevent;
	struct name_retry *name_retries; /* merged caches waiting for their names */

	struct options opts;
	char *state_path;
	char *socket_path;
	int control_fd;
	bool control_owned;             /* we bound it (not socket-activated) */

	struct sleeb_policy policy;
	struct sleeb_daemon_config config;
	struct sleeb_state state;
	bool state_error_logged;
	/* Learned sizes (sleeb/state.h): where auto-tuned caches start. */
	char *learned_path;
	struct sleeb_state learned;
	bool learned_error_logged;
	bool prometheus_error_logged;
	bool scan_error_logged;

	struct cache *caches;
	size_t n_caches;
	size_t find_hint;               /* where the next cache_find() looks first */

	/* The kernel as last read: one snapshot per interval, its memory
	 * reused; the reader keeps files open and aliases between them. */
	struct sleeb_reader *reader;
	struct sleeb_cache_set snap;
	uint64_t last_verify_usec;      /* CLOCK_MONOTONIC of the last verifying snapshot */
	bool snap_verify;               /* this snapshot reads every managed cache's
					 * tunables from sysfs (see manager_snapshot) */

	bool monitor_only;
	/* Drift checks run every drift_every-th interval (1: every one; the
	 * per-tick read may check static caches at a slower pace and set
	 * this), counted by drift_tick. */
	unsigned drift_every;
	unsigned drift_tick;
	unsigned ncpus, nnodes;
	uint64_t page_size;
	uint64_t memtotal;

	char status[768];               /* last STATUS= line */
	char policy_note[256];          /* why a reload was refused, or "" */
	unsigned n_changes;
	unsigned n_failures;            /* writes refused, policies invalid for a cache */
	uint64_t n_decisions[_DECISION_MAX];    /* changes decided (also in dry run) */
	uint64_t n_load_errors;         /* config or policy loads refused */
	uint64_t last_apply_usec;       /* CLOCK_REALTIME of the last clean pass; 0: none */
} Manager;

/* Allocates a manager for opts. Returns 0 or -ENOMEM. */
/* Frees what a struct cache owns (its reasons). */
void cache_done(struct cache *c);

int manager_new(const struct options *opts, Manager **ret);
Manager *manager_free(Manager *m);

/*
 * Reads sleebd.conf and the policy. On errors each is logged as
 * file:line and -EINVAL returned (nothing changes in m).
 */
int manager_load_config(Manager *m);

/* Loads the rollback state file (originals from a previous run). */
int manager_load_state(Manager *m);

/* Loads the learned sizes (a file that cannot be read: none, logged). */
int manager_load_learned(Manager *m);

/* Sets up the loop: signals, watchdog, timer, uevents, control socket. */
int manager_start(Manager *m);

/* Runs the loop until SIGTERM; returns the exit code. */
int manager_run(Manager *m);

/*
 * Re-reads config and policy; a broken policy is refused and the old one
 * stays in force. Returns 0, or -EINVAL when refused (msg gets the
 * errors, may be NULL).
 */
int manager_reload(Manager *m, char **msg);

/*
 * Forgets the learned sizes of the n caches named (none: every one) in
 * memory and in the file (sleeb/learned-forget.h, all or nothing; the
 * caches keep their current sizes). Returns 0 with what was forgotten in
 * *text (free() it), or -errno with why in err.
 */
int manager_forget_learned(Manager *m, char *const *names, size_t n, char **text, struct sleeb_error *err);

/* Writes the current status report (sleebctl status) into a malloc'd string. */
int manager_status_text(Manager *m, char **ret);

/* The same as one JSON object (sleebctl status --json; sleebctl(8)). */
int manager_status_json(Manager *m, char **ret);

/* Rewrites PrometheusTextfile= (if set); a failure is logged once per streak. */
void manager_write_textfile(Manager *m);

/* ---- manager-policy.c ---- */

/*
 * Lists the caches and applies the static policy to every one (all: true)
 * or only to caches not seen before (all: false). Returns 0, or -errno
 * when the slab directory cannot be listed. A pass in which nothing
 * failed (and something could be written: not monitor-only, not dry run)
 * sets last_apply_usec.
 */
int manager_apply_policy(Manager *m, bool all, const char *reason);

/* The interval's rescan: the static policy for caches new in m->snap. */
int manager_rescan(Manager *m);

/* ---- manager-uevent.c ---- */

/* Applies the policy to one cache by its sysfs directory (uevent KOBJ_ADD). */
int manager_apply_cache(Manager *m, const char *id, const char *reason);

/* Stops looking for the names of merged caches (manager_apply_cache()). */
void manager_name_retries_free(Manager *m);

/* Forgets a cache by its sysfs directory (uevent KOBJ_REMOVE). */
void manager_drop_cache(Manager *m, const char *id);

/* ---- manager-verify.c ---- */

/*
 * Puts back the target of every managed cache found off it: a write that
 * failed, a manual `sleebctl set`. Expects each cache's cur read this
 * interval (manager_apply_policy() refreshes them). Per cache the restore
 * backs off while the drift keeps coming back (1, 2, 4 ... 64 intervals),
 * and the reason is logged once; every restore is a "drift" decision.
 * Nothing to do in a dry run (nothing was written) or monitor-only.
 */
void manager_verify(Manager *m, uint64_t now_usec);

/* ---- manager-snapshot.c ---- */

/*
 * Reads the kernel into m->snap: /proc/slabinfo, and from sysfs only what
 * the decisions need: queue_stats of auto-tuned caches (of every cache
 * with PrometheusTextfile=; otherwise only when its slabinfo line moved
 * since they were last read, see want_from_sysfs()), tunables
 * where slabinfo's columns disagree
 * with what sleebd last read or wrote, everything for a cache not seen
 * before. With @verify (every SLEEB_VERIFY_USEC, and at start and reload)
 * also the tunables of every cache with a target: the slower pace at
 * which static targets are checked against sysfs itself.
 */
int manager_snapshot(Manager *m, bool verify);

#define SLEEB_VERIFY_USEC (30 * SLEEB_USEC_PER_SEC)


/* ---- manager-autotune.c ---- */

/* One auto-tuning interval over every AutoTune cache, from m->snap: each
 * rate is events over the time between the reads of its counters. */
int manager_autotune(Manager *m);

/* ---- manager-restore.c ---- */

/*
 * Writes back every original in the state and forgets it; removes the
 * state file when all are back. Returns 0, or the -errno of a cache that
 * could not be read or written (logged, as is how many originals stay in
 * the file).
 */
int manager_restore_all(Manager *m);

/* ---- manager.c ---- */

/* Updates and sends STATUS= (and extra, e.g. "READY=1"). */
void manager_notify_status(Manager *m, const char *extra);
