/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebctl check: slab health as a monitoring plugin.  The first line is
 * the summary ("SLEEB STATUS - text | perfdata"), then one line per
 * problem; the exit code is 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
 * Perfdata and --timeout follow the monitoring-plugins development
 * guidelines: 'label'=value[UOM];[warn];[crit];[min];[max], and a check
 * that does not finish in time answers UNKNOWN rather than hanging its
 * scheduler.
 */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sleeb/cache.h"
#include "sleeb/health.h"
#include "sleeb/meminfo.h"
#include "sleeb/parse.h"
#include "sleeb/util.h"
#include "verbs.h"

/* Every sample is kept (growth must hold between each pair), ~0.5 MB each
 * on a typical kernel: bound the memory a typo can ask for. */
#define CHECK_SAMPLES_MAX 100
/* A day: beyond that a timeout is not one. */
#define CHECK_TIMEOUT_MAX 86400

struct check_options {
	struct sleeb_health_thresholds t;
	unsigned samples;
	uint64_t interval_usec;
	unsigned timeout_sec;   /* 0: none */
	bool json;
};

/*
 * What the check is doing, for the timeout's message: read by the SIGALRM
 * handler, which may only use async-signal-safe calls, so the message is
 * put together by hand and written with write(2).
 */
static volatile sig_atomic_t phase_sample;   /* 1..n reading sample n, 0 after */
static volatile sig_atomic_t phase_waiting;  /* ... or sleeping until it is due */
static unsigned phase_samples, phase_timeout;
static bool phase_json;

static void put(char **p, const char *end, const char *s)
{
	while (*s && *p < end)
		*(*p)++ = *s++;
}

static void put_uint(char **p, const char *end, unsigned v)
{
	char digits[16];
	int n = 0;

	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < (int)sizeof(digits));
	while (n > 0 && *p < end)
		*(*p)++ = digits[--n];
}

static void on_timeout(int sig)
{
	char buf[256], *p = buf;
	const char *end = buf + sizeof(buf);
	unsigned i = (unsigned)phase_sample;

	(void)sig;
	put(&p, end, phase_json ? "{\"version\":1,\"status\":\"UNKNOWN\",\"exit_code\":3,\"summary\":\""
				: "SLEEB UNKNOWN - ");
	put(&p, end, "no result within --timeout ");
	put_uint(&p, end, phase_timeout);
	if (i > 0) {
		put(&p, end, phase_waiting ? " s (waiting to read the caches, sample " : " s (reading the caches, sample ");
		put_uint(&p, end, i);
		put(&p, end, " of ");
		put_uint(&p, end, phase_samples);
		put(&p, end, ")");
	} else {
		put(&p, end, " s (reading /proc/meminfo)");
	}
	put(&p, end, phase_json ? "\",\"problems\":[]}\n" : "\n");
	(void)!write(STDOUT_FILENO, buf, (size_t)(p - buf));
	_exit(SLEEB_HEALTH_UNKNOWN);
}

static void timeout_arm(const struct check_options *o)
{
	struct sigaction sa = { .sa_handler = on_timeout };

	if (!o->timeout_sec)
		return;
	phase_samples = o->samples;
	phase_timeout = o->timeout_sec;
	phase_json = o->json;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	alarm(o->timeout_sec);
}

/* Before any output: an answer is never cut short by the alarm. */
static void timeout_disarm(void)
{
	alarm(0);
}

/* Monitoring plugins report every failure, usage errors included, as
 * UNKNOWN on stdout. */
static int check_unknown(const struct check_options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int check_unknown(const struct check_options *o, const char *fmt, ...)
{
	char msg[SLEEB_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (o && o->json) {
		printf("{\"version\":1,\"status\":\"UNKNOWN\",\"exit_code\":3,\"summary\":");
		sleeb_json_print_string(stdout, msg);
		printf(",\"problems\":[]}\n");
	} else {
		printf("SLEEB UNKNOWN - %s\n", msg);
	}
	return SLEEB_HEALTH_UNKNOWN;
}

static void sleep_usec(uint64_t usec)
{
	struct timespec ts = {
		.tv_sec = (time_t)(usec / 1000000u),
		.tv_nsec = (long)(usec % 1000000u) * 1000,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static void summary_text(const struct sleeb_health_report *rep, char *buf, size_t len)
{
	char slab[32], total[32], waste[32];

	sleeb_format_size(rep->slab_bytes, slab, sizeof(slab));
	sleeb_format_size(rep->waste_bytes, waste, sizeof(waste));
	if (rep->n == 0) {
		if (rep->mem_total)
			snprintf(buf, len, "%zu caches, slab %s (%u%% of MemTotal %s), waste %s",
				 rep->ncaches, slab, rep->slab_percent,
				 sleeb_format_size(rep->mem_total, total, sizeof(total)), waste);
		else
			snprintf(buf, len, "%zu caches, slab %s, waste %s", rep->ncaches, slab, waste);
		return;
	}
	/* Lead with the worst problem: that is what an operator sees first. */
	{
		const struct sleeb_health_problem *worst = &rep->problems[0];
		size_t i;

		for (i = 1; i < rep->n; i++)
			if (rep->problems[i].status > worst->status)
				worst = &rep->problems[i];
		snprintf(buf, len, "%zu problem%s: %s", rep->n, rep->n == 1 ? "" : "s",
			 worst->message);
	}
}

/*
 * One perfdata item, " label=value[UOM];[warn];[crit];0[;max]". The check
 * alerts when a value reaches its threshold (value >= T), which in the
 * guidelines' range syntax is "@T:" (inside T..infinity, inclusive); a
 * disabled (0) or absent threshold leaves its field empty. Every value
 * here is a count or a size: min is 0.
 */
static void perf(const char *label, uint64_t value, const char *uom, uint64_t warn, uint64_t crit,
		 const uint64_t *max)
{
	printf(" %s=%llu%s;", label, (unsigned long long)value, uom);
	if (warn)
		printf("@%llu:", (unsigned long long)warn);
	putchar(';');
	if (crit)
		printf("@%llu:", (unsigned long long)crit);
	printf(";0");
	if (max)
		printf(";%llu", (unsigned long long)*max);
}

static void print_text(const struct sleeb_health_report *rep, const struct check_options *o)
{
	static const uint64_t hundred = 100;
	char summary[SLEEB_ERROR_MAX];
	size_t i;

	summary_text(rep, summary, sizeof(summary));
	printf("SLEEB %s - %s |", sleeb_health_status_name(rep->status), summary);
	/* Totals first (the labels of old), then the worst cache of each
	 * per-cache check, which is what the check's thresholds apply to. */
	perf("caches", rep->ncaches, "", 0, 0, NULL);
	perf("slab_bytes", rep->slab_bytes, "B", 0, 0, rep->mem_total ? &rep->mem_total : NULL);
	perf("waste_bytes", rep->waste_bytes, "B", 0, 0, NULL);
	perf("slab_percent", rep->slab_percent, "%", o->t.slab_warn, o->t.slab_crit, &hundred);
	perf("problems", rep->n, "", 0, 0, NULL);
	perf("waste_max_bytes", rep->waste_max, "B", o->t.waste_warn, o->t.waste_crit, NULL);
	if (rep->rates_measured) {
		/* No UOM means "per second": the guidelines have none. */
		perf("growth_max_bytes_per_second", rep->growth_max, "", o->t.growth_warn, o->t.growth_crit, NULL);
		perf("thrash_max_per_second", rep->thrash_max, "", o->t.thrash_warn, o->t.thrash_crit, NULL);
	}
	putchar('\n');
	for (i = 0; i < rep->n; i++)
		printf("%s %s: %s\n", sleeb_health_status_name(rep->problems[i].status),
		       sleeb_health_check_name(rep->problems[i].check), rep->problems[i].message);
}

static void print_json(const struct sleeb_health_report *rep, const struct check_options *o,
		       bool sleeb_kernel)
{
	char summary[SLEEB_ERROR_MAX];
	size_t i;

	summary_text(rep, summary, sizeof(summary));
	printf("{\"version\":1,\"status\":\"%s\",\"exit_code\":%d,\"summary\":",
	       sleeb_health_status_name(rep->status), (int)rep->status);
	sleeb_json_print_string(stdout, summary);
	printf(",\"samples\":%u,\"interval_usec\":%llu,\"elapsed_usec\":%llu,\"sleeb_kernel\":%s,"
	       "\"caches\":%zu,\"slab_bytes\":%llu,\"mem_total_bytes\":%llu,\"slab_percent\":%u,"
	       "\"waste_bytes\":%llu,",
	       o->samples, (unsigned long long)o->interval_usec,
	       (unsigned long long)rep->elapsed_usec, sleeb_kernel ? "true" : "false",
	       rep->ncaches, (unsigned long long)rep->slab_bytes,
	       (unsigned long long)rep->mem_total, rep->slab_percent,
	       (unsigned long long)rep->waste_bytes);
	/* The worst cache of each per-cache check, as in the perfdata; the
	 * rates need two samples (null with one). */
	printf("\"waste_max_bytes\":%llu,", (unsigned long long)rep->waste_max);
	if (rep->rates_measured)
		printf("\"growth_max_bytes_per_second\":%llu,\"thrash_max_per_second\":%llu,",
		       (unsigned long long)rep->growth_max, (unsigned long long)rep->thrash_max);
	else
		printf("\"growth_max_bytes_per_second\":null,\"thrash_max_per_second\":null,");
	printf("\"problems\":[");
	for (i = 0; i < rep->n; i++) {
		const struct sleeb_health_problem *p = &rep->problems[i];

		printf("%s{\"status\":\"%s\",\"check\":\"%s\",\"cache\":", i ? "," : "",
		       sleeb_health_status_name(p->status), sleeb_health_check_name(p->check));
		if (p->cache[0])
			sleeb_json_print_string(stdout, p->cache);
		else
			printf("null");
		printf(",\"value\":%llu,\"threshold\":%llu,\"message\":", (unsigned long long)p->value,
		       (unsigned long long)p->threshold);
		sleeb_json_print_string(stdout, p->message);
		putchar('}');
	}
	printf("]}\n");
}

static int check_run(const struct check_options *o)
{
	struct sleeb_cache_set *samples;
	struct sleeb_health_report rep;
	struct sleeb_error err = { 0 };
	struct sleeb_meminfo mi;
	unsigned i, loaded = 0;
	int r, ret;

	samples = calloc(o->samples, sizeof(*samples));
	if (!samples)
		return check_unknown(o, "out of memory");
	timeout_arm(o);
	for (i = 0; i < o->samples; i++) {
		phase_sample = (sig_atomic_t)(i + 1);
		if (i > 0) {
			phase_waiting = 1;
			sleep_usec(o->interval_usec);
			phase_waiting = 0;
		}
		/* Thrash is a rate between two samples: one sample needs
		 * no queue_stats. */
		r = sleeb_cache_set_load_only(&samples[i], o->samples > 1 ? SLEEB_READ_ALL : SLEEB_READ_TUNABLES,
					      &err);
		if (r < 0) {
			timeout_disarm();
			ret = check_unknown(o, "%s", err.msg);
			goto out;
		}
		loaded++;
	}
	phase_sample = 0;
	r = sleeb_meminfo_read(&mi, &err);
	timeout_disarm();
	if (r < 0) {
		ret = check_unknown(o, "%s", err.msg);
		goto out;
	}
	r = sleeb_health_evaluate(samples, o->samples, &mi, &o->t, &rep);
	if (r < 0) {
		sleeb_health_report_free(&rep);
		ret = check_unknown(o, "evaluating: %s", strerror(-r));
		goto out;
	}
	if (o->json)
		print_json(&rep, o, samples[o->samples - 1].sleeb_kernel);
	else
		print_text(&rep, o);
	ret = (int)rep.status;
	sleeb_health_report_free(&rep);
out:
	for (i = 0; i < loaded; i++)
		sleeb_cache_set_free(&samples[i]);
	free(samples);
	return ret;
}

enum {
	OPT_WARN_WASTE = 0x100, OPT_CRIT_WASTE, OPT_WARN_SLAB, OPT_CRIT_SLAB,
	OPT_WARN_GROWTH, OPT_CRIT_GROWTH, OPT_WARN_THRASH, OPT_CRIT_THRASH,
};

/* The sampling alone must fit in the timeout, or the check cannot answer.
 * Saturating: past 2^64 us the product wrapped round to a sampling that
 * "fitted" in any timeout, and the check slept for ages instead. */
static int check_timeout_fits(const struct check_options *o)
{
	char iv[32], total[32];
	uint64_t sampling;

	if (__builtin_mul_overflow((uint64_t)(o->samples - 1), o->interval_usec, &sampling))
		sampling = UINT64_MAX;

	if (!o->timeout_sec || sampling < (uint64_t)o->timeout_sec * SLEEB_USEC_PER_SEC)
		return 0;
	return check_unknown(o, "--timeout %u s is too short for --samples %u --interval %s (%s of sampling)",
			     o->timeout_sec, o->samples, sleeb_format_duration(o->interval_usec, iv, sizeof(iv)),
			     sleeb_format_duration(sampling, total, sizeof(total)));
}

int verb_check(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "samples", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, 't' },
		{ "warn-waste", required_argument, NULL, OPT_WARN_WASTE },
		{ "crit-waste", required_argument, NULL, OPT_CRIT_WASTE },
		{ "warn-slab", required_argument, NULL, OPT_WARN_SLAB },
		{ "crit-slab", required_argument, NULL, OPT_CRIT_SLAB },
		{ "warn-growth", required_argument, NULL, OPT_WARN_GROWTH },
		{ "crit-growth", required_argument, NULL, OPT_CRIT_GROWTH },
		{ "warn-thrash", required_argument, NULL, OPT_WARN_THRASH },
		{ "crit-thrash", required_argument, NULL, OPT_CRIT_THRASH },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct check_options o = { .samples = 1, .interval_usec = SLEEB_USEC_PER_SEC };
	uint64_t v;
	unsigned pct;
	int c, r = 0, idx;

	sleeb_health_thresholds_default(&o.t);
	/* Parse --json first so that usage errors come out as JSON too. */
	for (c = 1; c < argc && strcmp(argv[c], "--") != 0; c++)
		if (strcmp(argv[c], "--json") == 0 || strcmp(argv[c], "-j") == 0)
			o.json = true;
	opterr = 0;
	while ((idx = -1, c = getopt_long(argc, argv, "jn:i:t:h", options, &idx)) >= 0) {
		switch (c) {
		case 'j':
			break;
		case 'n':
			r = sleeb_parse_u64_range(optarg, 1, CHECK_SAMPLES_MAX, &v);
			if (r < 0)
				return check_unknown(&o, "--samples: '%s': need 1..%d", optarg,
						     CHECK_SAMPLES_MAX);
			o.samples = (unsigned)v;
			break;
		case 'i':
			if (sleeb_parse_duration(optarg, &o.interval_usec) < 0 || o.interval_usec == 0)
				return check_unknown(&o, "--interval: '%s': not a duration (e.g. 500ms, 2s)",
						     optarg);
			break;
		case 't':
			r = sleeb_parse_u64_range(optarg, 1, CHECK_TIMEOUT_MAX, &v);
			if (r < 0)
				return check_unknown(&o, "--timeout: '%s': need 1..%d seconds", optarg,
						     CHECK_TIMEOUT_MAX);
			o.timeout_sec = (unsigned)v;
			break;
		case OPT_WARN_WASTE: r = sleeb_parse_size(optarg, &o.t.waste_warn); break;
		case OPT_CRIT_WASTE: r = sleeb_parse_size(optarg, &o.t.waste_crit); break;
		case OPT_WARN_GROWTH: r = sleeb_parse_size(optarg, &o.t.growth_warn); break;
		case OPT_CRIT_GROWTH: r = sleeb_parse_size(optarg, &o.t.growth_crit); break;
		case OPT_WARN_THRASH: r = sleeb_parse_u64(optarg, &o.t.thrash_warn); break;
		case OPT_CRIT_THRASH: r = sleeb_parse_u64(optarg, &o.t.thrash_crit); break;
		case OPT_WARN_SLAB:
		case OPT_CRIT_SLAB:
			r = sleeb_parse_percent(optarg, &pct);
			if (r == 0)
				*(c == OPT_WARN_SLAB ? &o.t.slab_warn : &o.t.slab_crit) = pct;
			break;
		case 'h':
			printf("Usage: sleebctl check [--json] [--samples N --interval DURATION] [--timeout SECONDS]\n"
			       "  [--warn-waste SIZE] [--crit-waste SIZE] [--warn-slab PCT] [--crit-slab PCT]\n"
			       "  [--warn-growth SIZE] [--crit-growth SIZE] (bytes per second)\n"
			       "  [--warn-thrash N] [--crit-thrash N] (refills+drains per second)\n"
			       "A threshold of 0 disables it.  --timeout: UNKNOWN if no result in time.\n"
			       "Exit: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.\n");
			return SLEEB_HEALTH_OK;
		default:
			return check_unknown(&o, "invalid option or missing value '%s'",
					     argv[optind - 1]);
		}
		if (r < 0)
			return check_unknown(&o, "--%s: invalid value '%s'",
					     idx >= 0 ? options[idx].name : "?", optarg);
	}
	if (optind < argc)
		return check_unknown(&o, "unexpected argument '%s'", argv[optind]);
	r = check_timeout_fits(&o);
	if (r)
		return r;
	return check_run(&o);
}
