/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebd's Manager: loop, signals, timers, reload, status. */

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "log.h"
#include "manager.h"
#include "prometheus.h"
#include "sleeb/parse.h"
#include "sleeb/root.h"
#include "sleeb/util.h"
#include "uevent.h"

static uint64_t now_monotonic_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * SLEEB_USEC_PER_SEC + (uint64_t) ts.tv_nsec / 1000;
}

static const char *config_prefix(const Manager *m)
{
	const char *r = m->opts.config_root;

	return r && *r && strcmp(r, "/") != 0 ? r : "";
}

/* Count of NUMA nodes for the memory estimate; 1 when unknown. */
static unsigned count_nodes(void)
{
	unsigned n = 0;
	struct dirent *de;
	DIR *d;
	int r;

	d = sleeb_root_opendir("/sys/devices/system/node", &r);
	if (!d)
		return 1;
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "node", 4) == 0 && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			n++;
	closedir(d);
	return n ? n : 1;
}

int manager_new(const struct options *opts, Manager **ret)
{
	Manager *m;
	long v;

	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->opts = *opts;
	m->control_fd = -1;
	m->drift_every = 1;
	sleeb_daemon_config_init(&m->config);
	if (asprintf(&m->state_path, "%s%s", config_prefix(m), SLEEB_STATE_PATH) < 0 ||
	    asprintf(&m->learned_path, "%s%s", config_prefix(m), SLEEB_LEARNED_PATH) < 0 ||
	    asprintf(&m->socket_path, "%s%s", config_prefix(m), SLEEB_CONTROL_SOCKET) < 0) {
		manager_free(m);
		return -ENOMEM;
	}
	v = sysconf(_SC_NPROCESSORS_CONF);
	m->ncpus = v > 0 ? (unsigned) v : 1;
	v = sysconf(_SC_PAGESIZE);
	m->page_size = v > 0 ? (uint64_t) v : 4096;
	m->nnodes = count_nodes();
	if (sleeb_reader_new(&m->reader) < 0) {
		manager_free(m);
		return -ENOMEM;
	}
	*ret = m;
	return 0;
}

Manager *manager_free(Manager *m)
{
	if (!m)
		return NULL;
	control_close(m);
	uevent_listener_free(m->uevent);
	manager_name_retries_free(m);
	sd_event_source_disable_unref(m->timer);
	sd_event_unref(m->event);
	sleeb_policy_done(&m->policy);
	sleeb_daemon_config_done(&m->config);
	sleeb_state_done(&m->state);
	sleeb_state_done(&m->learned);
	for (size_t i = 0; i < m->n_caches; i++)
		cache_done(&m->caches[i]);
	free(m->caches);
	sleeb_cache_set_free(&m->snap);
	sleeb_reader_free(m->reader);
	free(m->state_path);
	free(m->learned_path);
	free(m->socket_path);
	free(m);
	return NULL;
}

/* Reads config and policy into fresh structs; logs and returns -EINVAL
 * on errors, leaving the ones in force untouched. */
static int load_all(Manager *m, struct sleeb_daemon_config *cfg, struct sleeb_policy *pol, char **msg)
{
	struct sleeb_diag diag = { 0 };
	int r, k;

	sleeb_daemon_config_init(cfg);
	memset(pol, 0, sizeof(*pol));
	r = sleeb_daemon_config_load(cfg, config_prefix(m), &diag);
	k = sleeb_policy_load(pol, config_prefix(m), &diag);
	if (r == 0)
		r = k;
	if (r == -ENOMEM) {
		sleeb_diag_done(&diag);
		return log_error_errno(r, "out of memory");
	}
	for (size_t i = 0; i < diag.n; i++)
		log_error("%s", diag.msgs[i]);
	if (msg && diag.n > 0) {
		size_t len = 0;
		char *s;

		for (size_t i = 0; i < diag.n; i++)
			len += strlen(diag.msgs[i]) + 1;
		s = malloc(len + 1);
		if (s) {
			s[0] = '\0';
			for (size_t i = 0; i < diag.n; i++) {
				strcat(s, diag.msgs[i]);
				strcat(s, "\n");
			}
		}
		*msg = s;
	}
	if (r < 0) {
		m->n_load_errors++;
		if (diag.n > 0)
			snprintf(m->policy_note, sizeof(m->policy_note), "%s%s", diag.msgs[0],
				 diag.n > 1 ? " (and more)" : "");
		sleeb_daemon_config_done(cfg);
		sleeb_policy_done(pol);
	}
	sleeb_diag_done(&diag);
	return r < 0 ? -EINVAL : 0;
}

int manager_load_config(Manager *m)
{
	struct sleeb_daemon_config cfg;
	struct sleeb_policy pol;
	int r;

	r = load_all(m, &cfg, &pol, NULL);
	if (r < 0)
		return r;
	sleeb_daemon_config_done(&m->config);
	sleeb_policy_done(&m->policy);
	m->config = cfg;
	m->policy = pol;
	m->policy_note[0] = '\0';
	return 0;
}

/*
 * Keys the originals by sysfs id (sleeb/state.h), as the cache list is: a
 * file from a sleebd that keyed them by name is rewritten that way now,
 * so that no later rescan misses an original under another name.
 */
static void rekey_state(Manager *m)
{
	struct sleeb_sysfs_list list;
	struct sleeb_error err = { 0 };
	int r;

	if (sleeb_sysfs_list_caches(&list, &err) < 0)
		return;         /* no sysfs: names are all there is */
	r = sleeb_state_rekey(&m->state, &list);
	sleeb_sysfs_list_free(&list);
	if (r < 0) {
		log_error_errno(r, "out of memory");
		return;
	}
	if (r == 0 || m->opts.dry_run)
		return;
	log_info("%s: %d originals now keyed by their sysfs directory", m->state_path, r);
	r = sleeb_state_save(&m->state, &err);
	if (r < 0)
		log_error_errno(r, "%s", err.msg);
}

/*
 * Loads one of the two files sleebd keeps into *s (for what: "originals",
 * "learned sizes"). A file that cannot be read must not keep the daemon
 * from starting, but the user must hear what is lost; bad lines are
 * skipped, and the file is kept aside before the next save rewrites it
 * without them. Returns 0, or -ENOMEM.
 */
static int load_kept(Manager *m, struct sleeb_state *s, const char *path, const char *what)
{
	struct sleeb_diag warnings = { 0 };
	struct sleeb_error err = { 0 };
	char *aside = NULL;
	int r;

	r = sleeb_state_load(s, path, &warnings, &err);
	for (size_t i = 0; i < warnings.n; i++)
		log_warning("%s", warnings.msgs[i]);
	sleeb_diag_done(&warnings);
	if (r < 0) {
		log_error_errno(r, "%s; starting without saved %s", err.msg, what);
		sleeb_state_done(s);
		s->path = strdup(path);
		return s->path ? 0 : -ENOMEM;
	}
	/* The next save rewrites the file without the skipped lines. */
	if (r > 0 && !m->opts.dry_run) {
		if (sleeb_state_keep_aside(path, &aside, &err) < 0)
			log_error_errno(err.code, "%s", err.msg);
		else
			log_warning("%s: %d bad line%s skipped, the file kept as %s", path, r, r == 1 ? "" : "s", aside);
		free(aside);
	}
	return 0;
}

int manager_load_state(Manager *m)
{
	int r = load_kept(m, &m->state, m->state_path, "originals");

	if (r < 0)
		return r;
	if (m->state.n > 0) {
		log_notice("found originals of %zu caches from an earlier run in %s", m->state.n, m->state_path);
		rekey_state(m);
	}
	return 0;
}

int manager_load_learned(Manager *m)
{
	int r = load_kept(m, &m->learned, m->learned_path, "learned sizes");

	m->learned.header = SLEEB_LEARNED_HEADER;
	if (r == 0 && m->learned.n > 0)
		log_info("learned sizes of %zu caches in %s", m->learned.n, m->learned_path);
	return r;
}

/*
 * STATUS= only when it says something new (or with extra): each message
 * wakes PID 1, and an interval in which nothing changed has nothing to
 * tell it. The watchdog's WATCHDOG=1 is sd-event's, sent regardless.
 */
void manager_notify_status(Manager *m, const char *extra)
{
	unsigned tuned = 0, autotuned = 0;
	char status[sizeof(m->status)];

	for (size_t i = 0; i < m->n_caches; i++) {
		tuned += m->caches[i].has_target;
		autotuned += m->caches[i].autotune && m->caches[i].has_target;
	}
	if (m->monitor_only)
		snprintf(status, sizeof(status), "Monitor-only: kernel has no SLEEB queues; %zu caches", m->n_caches);
	else
		snprintf(status, sizeof(status), "%s%u of %zu caches under policy, %u auto-tuned, %u changes%s%s",
			 m->opts.dry_run ? "Dry run: " : "", tuned, m->n_caches, autotuned, m->n_changes,
			 m->policy_note[0] ? "; reload refused, old policy in force: " : "", m->policy_note);
	if (!extra && strcmp(status, m->status) == 0)
		return;
	memcpy(m->status, status, sizeof(status));
	(void) sd_notifyf(0, "%s%sSTATUS=%s", extra ? extra : "", extra ? "\n" : "", m->status);
}

void manager_write_textfile(Manager *m)
{
	int r = prometheus_write(m);

	if (r < 0 && !m->prometheus_error_logged)
		log_error_errno(r, "cannot write %s: %m", m->config.prometheus_textfile);
	m->prometheus_error_logged = r < 0;
}

/* A textfile nobody updates any more must not go on claiming values. */
static void remove_textfile(const char *path)
{
	if (path && unlink(path) < 0 && errno != ENOENT)
		log_warning_errno(errno, "cannot remove %s: %m", path);
}

/*
 * How late the interval timer may fire. sd-event's default (250 ms, to
 * coalesce wakeups) would stretch a short Interval= several times over;
 * a tenth of the interval keeps the coalescing for long ones.
 */
static uint64_t timer_accuracy(uint64_t interval_usec)
{
	uint64_t a = interval_usec / 10;

	return a < 1000 ? 1000 : a > 250000 ? 250000 : a;
}

int manager_reload(Manager *m, char **msg)
{
	struct sleeb_daemon_config cfg;
	struct sleeb_policy pol;
	int r;

	if (msg)
		*msg = NULL;
	(void) sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=Reloading policy",
			  (unsigned long long) now_monotonic_usec());
	log_info("reloading policy");

	r = load_all(m, &cfg, &pol, msg);
	if (r < 0) {
		log_error("policy reload refused; the old policy stays in force");
		manager_notify_status(m, "READY=1");
		manager_write_textfile(m);
		return r;
	}
	if (m->config.prometheus_textfile &&
	    (!cfg.prometheus_textfile || strcmp(cfg.prometheus_textfile, m->config.prometheus_textfile) != 0))
		remove_textfile(m->config.prometheus_textfile);
	sleeb_daemon_config_done(&m->config);
	sleeb_policy_done(&m->policy);
	m->config = cfg;
	m->policy = pol;
	m->policy_note[0] = '\0';
	if (m->timer) {
		(void) sd_event_source_set_time_accuracy(m->timer, timer_accuracy(m->config.interval_usec));
		(void) sd_event_source_set_time_relative(m->timer, m->config.interval_usec);
	}

	(void) manager_apply_policy(m, true, "reload");
	manager_notify_status(m, "READY=1");
	manager_write_textfile(m);
	return 0;
}

static int on_sighup(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	(void) s;
	(void) si;
	(void) manager_reload(userdata, NULL);
	return 0;
}

static int on_sigterm(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	Manager *m = userdata;
	int code = 0;

	(void) si;
	(void) sd_notify(0, "STOPPING=1\nSTATUS=Stopping, restoring original values");
	if (m->config.rollback) {
		log_info("stopping: restoring original values");
		/* The kernel keeps values nobody asked for: the stop failed. */
		if (manager_restore_all(m) < 0)
			code = 1;
	} else {
		/* Rollback=no: the tuned values are meant to outlive us, and
		 * must not be mistaken for originals by the next start. */
		log_info("stopping: Rollback=no, leaving values in place");
		if (!m->opts.dry_run) {
			struct sleeb_error err = { 0 };

			while (m->state.n > 0)
				sleeb_state_forget(&m->state, m->state.entries[0].cache);
			(void) sleeb_state_save(&m->state, &err);
		}
	}
	remove_textfile(m->config.prometheus_textfile);
	return sd_event_exit(sd_event_source_get_event(s), code);
}

static int on_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	Manager *m = userdata;
	uint64_t now = now_monotonic_usec();

	(void) usec;  /* when the timer was due, not when the kernel is read */
	/* One snapshot per interval, for the rescan, the drift check and
	 * auto-tuning. Every cache's current values follow /proc/slabinfo
	 * each interval; its sysfs attributes every SLEEB_VERIFY_USEC. */
	if (manager_snapshot(m, now - m->last_verify_usec >= SLEEB_VERIFY_USEC) == 0) {
		/* Rescan first: kernels without the uevent only show new caches here. */
		if (manager_rescan(m) == 0 &&
		    (m->drift_every <= 1 || ++m->drift_tick % m->drift_every == 0))
			manager_verify(m, now);
		(void) manager_autotune(m);
	}
	manager_notify_status(m, NULL);
	manager_write_textfile(m);

	(void) sd_event_source_set_time_relative(s, m->config.interval_usec);
	return sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
}

int manager_start(Manager *m)
{
	sigset_t mask;
	int r;

	r = sd_event_default(&m->event);
	if (r < 0)
		return log_error_errno(r, "cannot create event loop");

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	if ((r = sd_event_add_signal(m->event, NULL, SIGTERM, on_sigterm, m)) < 0 ||
	    (r = sd_event_add_signal(m->event, NULL, SIGINT, on_sigterm, m)) < 0 ||
	    (r = sd_event_add_signal(m->event, NULL, SIGHUP, on_sighup, m)) < 0)
		return log_error_errno(r, "cannot watch signals");

	r = sd_event_set_watchdog(m->event, true);
	if (r < 0)
		log_warning_errno(r, "cannot enable the watchdog: %m");

	r = control_open(m);
	if (r < 0)
		log_error_errno(r, "control socket %s unavailable: %m (sleebctl status/reload will not work)",
				m->socket_path);

	r = uevent_listener_new(m, &m->uevent);
	if (r < 0)
		log_warning_errno(r, "no uevent listener (%m): new caches are found by the periodic rescan");

	r = sd_event_add_time_relative(m->event, &m->timer, CLOCK_MONOTONIC, m->config.interval_usec,
				       timer_accuracy(m->config.interval_usec), on_timer, m);
	if (r < 0)
		return log_error_errno(r, "cannot add the interval timer");
	(void) sd_event_source_set_description(m->timer, "rescan-autotune");

	/* READY only after the first full apply: units ordered after us see
	 * the policy in force. */
	r = manager_apply_policy(m, true, "start");
	if (r < 0)
		log_error("initial apply incomplete; retrying at every interval");
	manager_notify_status(m, "READY=1");
	manager_write_textfile(m);
	log_info("%s", m->status);
	return 0;
}

int manager_run(Manager *m)
{
	int r = sd_event_loop(m->event);

	if (r < 0)
		return log_error_errno(r, "event loop failed");
	return r;
}

static void appendf(char **buf, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void appendf(char **buf, size_t *len, const char *fmt, ...)
{
	char *add = NULL, *t;
	va_list ap;
	int n;

	if (!*buf)
		return;
	va_start(ap, fmt);
	n = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (n < 0) {
		free(*buf);
		*buf = NULL;
		return;
	}
	t = realloc(*buf, *len + (size_t) n + 1);
	if (!t) {
		free(add);
		free(*buf);
		*buf = NULL;
		return;
	}
	memcpy(t + *len, add, (size_t) n + 1);
	*len += (size_t) n;
	*buf = t;
	free(add);
}

int manager_status_text(Manager *m, char **ret)
{
	char *s = strdup(""), ivl[32];
	size_t len = 0;

	appendf(&s, &len, "Status: %s\n", m->status);
	appendf(&s, &len, "Interval: %s  Rollback: %s  MaxQueuedMemory: ",
		sleeb_format_duration(m->config.interval_usec, ivl, sizeof(ivl)), m->config.rollback ? "yes" : "no");
	if (m->config.max_queued_percent)
		appendf(&s, &len, "%u%%\n", m->config.max_queued_percent);
	else if (m->config.max_queued_bytes)
		appendf(&s, &len, "%llu bytes\n", (unsigned long long) m->config.max_queued_bytes);
	else
		appendf(&s, &len, "unlimited\n");
	appendf(&s, &len,
		"Auto-tune: size for %llu trips per 1000 operations, changes saving %llu trips/s or more "
		"and %llu trips/s per MiB they add, smoothing %llu%%; shrink when the reaper returns %llu%% of "
		"refills, MemAvailable below %llu%%, PSI some avg10 at %llu or MaxQueuedMemory\n",
		(unsigned long long) m->config.autotune_target_trips,
		(unsigned long long) m->config.autotune_min_trip_rate,
		(unsigned long long) m->config.autotune_trips_per_mib,
		(unsigned long long) m->config.autotune_smoothing,
		(unsigned long long) m->config.autotune_reap_shrink,
		(unsigned long long) m->config.autotune_memory_low,
		(unsigned long long) m->config.autotune_memory_pressure);
	appendf(&s, &len, "Policy files:\n");
	for (size_t i = 0; i < m->policy.n_files; i++)
		appendf(&s, &len, "  %s\n", m->policy.files[i]);
	if (m->policy.n_files == 0)
		appendf(&s, &len, "  (none)\n");
	if (m->policy_note[0])
		appendf(&s, &len, "Last reload refused: %s\n", m->policy_note);
	appendf(&s, &len, "%-24s %-16s %-16s %-8s %-5s %s\n", "CACHE", "CURRENT q/b/s", "TARGET q/b/s", "AUTOTUNE",
		"DRIFT", "LAST DECISION");
	for (size_t i = 0; i < m->n_caches; i++) {
		const struct cache *c = &m->caches[i];
		char cur[40], tgt[40], drift[16];

		if (!c->has_target && !c->last_reason)
			continue;
		snprintf(cur, sizeof(cur), "%u/%u/%u", c->cur.v[0], c->cur.v[1], c->cur.v[2]);
		if (c->has_target)
			snprintf(tgt, sizeof(tgt), "%u/%u/%u", c->target.v[0], c->target.v[1], c->target.v[2]);
		else
			snprintf(tgt, sizeof(tgt), "-");
		snprintf(drift, sizeof(drift), "%u", c->n_drift);
		appendf(&s, &len, "%-24s %-16s %-16s %-8s %-5s %s\n", c->name, cur, tgt,
			c->autotune ? "yes" : "no", c->n_drift ? drift : "-",
			c->last_reason ? c->last_reason : "-");
		/* A later decision may have replaced the reason: keep the drift's. */
		if (c->n_drift && c->drift_reason &&
		    (!c->last_reason || strcmp(c->last_reason, c->drift_reason) != 0))
			appendf(&s, &len, "%-24s last %s\n", "", c->drift_reason);
	}
	if (!s)
		return -ENOMEM;
	*ret = s;
	return 0;
}

static void json_tunables(FILE *f, const struct sleeb_tunables *t)
{
	fprintf(f, "{\"cpu_queue_size\":%u,\"cpu_batch_size\":%u,\"shared_queue_size\":%u}", t->v[0], t->v[1],
		t->v[2]);
}

static void json_string_or_null(FILE *f, const char *s)
{
	if (s && *s)
		sleeb_json_print_string(f, s);
	else
		fputs("null", f);
}

int manager_status_json(Manager *m, char **ret)
{
	const struct sleeb_daemon_config *cfg = &m->config;
	char *buf = NULL;
	size_t len = 0;
	bool first = true;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fputs("{\"version\":1,\"status\":", f);
	sleeb_json_print_string(f, m->status);
	fprintf(f, ",\"monitor_only\":%s,\"dry_run\":%s,\"interval_usec\":%llu,\"rollback\":%s,",
		m->monitor_only ? "true" : "false", m->opts.dry_run ? "true" : "false",
		(unsigned long long) cfg->interval_usec, cfg->rollback ? "true" : "false");
	fputs("\"max_queued_memory\":", f);
	if (cfg->max_queued_percent)
		fprintf(f, "{\"percent\":%u}", cfg->max_queued_percent);
	else if (cfg->max_queued_bytes)
		fprintf(f, "{\"bytes\":%llu}", (unsigned long long) cfg->max_queued_bytes);
	else
		fputs("null", f);
	fprintf(f,
		",\"autotune\":{\"target_trips\":%llu,\"min_trip_rate\":%llu,\"trips_per_mib\":%llu,"
		"\"smoothing\":%llu,\"reap_shrink\":%llu,\"memory_low\":%llu,\"memory_pressure\":%llu},\"drift_every\":%u,"
		"\"policy_files\":[",
		(unsigned long long) cfg->autotune_target_trips, (unsigned long long) cfg->autotune_min_trip_rate,
		(unsigned long long) cfg->autotune_trips_per_mib, (unsigned long long) cfg->autotune_smoothing,
		(unsigned long long) cfg->autotune_reap_shrink,
		(unsigned long long) cfg->autotune_memory_low, (unsigned long long) cfg->autotune_memory_pressure,
		m->drift_every ? m->drift_every : 1);
	for (size_t i = 0; i < m->policy.n_files; i++) {
		if (i)
			fputc(',', f);
		sleeb_json_print_string(f, m->policy.files[i]);
	}
	fputs("],\"reload_refused\":", f);
	json_string_or_null(f, m->policy_note);
	fputs(",\"caches\":[", f);
	/* The same caches as the text: those with a target or a decision. */
	for (size_t i = 0; i < m->n_caches; i++) {
		const struct cache *c = &m->caches[i];

		if (!c->has_target && !c->last_reason)
			continue;
		fputs(first ? "{\"name\":" : ",{\"name\":", f);
		first = false;
		sleeb_json_print_string(f, c->name);
		fputs(",\"id\":", f);
		sleeb_json_print_string(f, c->id);
		fputs(",\"current\":", f);
		json_tunables(f, &c->cur);
		fputs(",\"target\":", f);
		if (c->has_target)
			json_tunables(f, &c->target);
		else
			fputs("null", f);
		fprintf(f, ",\"autotune\":%s,\"drifted\":%s,\"drift_restores\":%u,\"last_drift\":",
			c->autotune ? "true" : "false",
			c->has_target && memcmp(&c->cur, &c->target, sizeof(c->cur)) != 0 ? "true" : "false",
			c->n_drift);
		json_string_or_null(f, c->n_drift ? c->drift_reason : NULL);
		fputs(",\"last_decision\":", f);
		json_string_or_null(f, c->last_reason);
		fputc('}', f);
	}
	fputs("]}\n", f);
	if (fclose(f) != 0 || !buf) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return 0;
}
