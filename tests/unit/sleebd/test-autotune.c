/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The auto-tuning decision replayed on recorded counter sequences
 * (the .seq files of tests/data/autotune, format in its README.md), then its pieces
 * alone: the counter deltas, the groups, memory, the budget.
 */

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/autotune.h"
#include "sleeb/psi.h"
#include "sleeb/sysfs.h"
#include "sleeb/util.h"
#include "runner.h"

#define MAX_CACHES 32

struct replay_cache {
	char name[64];
	struct sleeb_autotune_cache at;
	struct sleeb_queue_stats prev, cur;
	uint64_t prev_usec;
	bool have_prev;
};

struct replay {
	const char *file;
	unsigned line;
	struct sleeb_autotune_params p;
	struct replay_cache c[MAX_CACHES];
	size_t n;
	uint64_t now_usec, memtotal_kb, memavail_kb;
	double psi;
	bool grouped;
	unsigned decisions, expects;
};

/* The kernel's rules, restated: every decision must be a valid write. */
static int valid(const struct sleeb_tunables *t)
{
	uint32_t q = t->v[SLEEB_TUNABLE_QUEUE], b = t->v[SLEEB_TUNABLE_BATCH], s = t->v[SLEEB_TUNABLE_SHARED];

	if (q > 10000 || b < 1 || b > 10000 || (q > 0 && b > q) || s > 10000 || (s > 0 && s < b))
		return 0;
	return 1;
}

static void set_stats(struct replay *r, struct replay_cache *c, char *fields)
{
	for (char *kv = strtok(fields, " \t"); kv; kv = strtok(NULL, " \t")) {
		char *eq = strchr(kv, '=');
		unsigned s;

		ck_assert_msg(eq != NULL, "%s:%u: %s: expected key=value", r->file, r->line, kv);
		*eq = '\0';
		for (s = 0; s < _SLEEB_QSTAT_MAX; s++)
			if (strcmp(sleeb_queue_stat_name(s), kv) == 0)
				break;
		ck_assert_msg(s < _SLEEB_QSTAT_MAX, "%s:%u: unknown counter %s", r->file, r->line, kv);
		c->cur.value[s] = strtoull(eq + 1, NULL, 10);
		c->cur.present |= 1u << s;
	}
}

static void decide(struct replay *r)
{
	struct sleeb_autotune_cache in[MAX_CACHES];
	char keys[MAX_CACHES][64];

	r->p.memory_short = sleeb_autotune_memory_short(r->memtotal_kb * 1024, r->memavail_kb * 1024,
							SLEEB_AUTOTUNE_MEMORY_LOW, r->psi, SLEEB_AUTOTUNE_PSI_SOME,
							r->p.memory_reason, sizeof(r->p.memory_reason));
	for (size_t i = 0; i < r->n; i++) {
		struct replay_cache *c = &r->c[i];

		in[i] = c->at;
		in[i].has_sample = c->have_prev && sleeb_autotune_sample_delta(&c->prev, &c->cur,
									   r->now_usec - c->prev_usec,
									   &in[i].sample) == 0;
		in[i].group = i;
		sleeb_autotune_group_key(c->name, keys[i], sizeof(keys[i]));
		if (r->grouped)
			for (size_t j = 0; j < i; j++)
				if (strcmp(keys[j], keys[i]) == 0) {
					in[i].group = in[j].group;
					break;
				}
		c->prev = c->cur;
		c->prev_usec = r->now_usec;
		c->have_prev = true;
	}
	sleeb_autotune_decide(&r->p, in, r->n);
	for (size_t i = 0; i < r->n; i++) {
		ck_assert_msg(valid(&in[i].next), "%s:%u: %s: invalid %u/%u/%u", r->file, r->line, r->c[i].name,
			      in[i].next.v[0], in[i].next.v[1], in[i].next.v[2]);
		r->c[i].at = in[i];
		/* Applied as sleebd does: the next read sees the new sizes. */
		r->c[i].at.cur = in[i].next;
	}
	r->decisions++;
}

static void expect(struct replay *r, const char *name, const char *what, unsigned q)
{
	static const char *const actions[] = { "keep", "grow", "shrink" };
	bool any = false;

	for (size_t i = 0; i < r->n; i++) {
		const struct sleeb_autotune_cache *a = &r->c[i].at;

		if (strcmp(name, "*") != 0 && strcmp(name, r->c[i].name) != 0)
			continue;
		any = true;
		if (!r->grouped)
			continue;       /* the file's expectations are for groups */
		ck_assert_msg(strcmp(actions[a->action], what) == 0 && a->next.v[SLEEB_TUNABLE_QUEUE] == q,
			      "%s:%u: %s: expected %s %u, decided %s %u (%s)", r->file, r->line, r->c[i].name, what, q,
			      actions[a->action], a->next.v[SLEEB_TUNABLE_QUEUE], a->reason);
	}
	ck_assert_msg(any, "%s:%u: no cache %s", r->file, r->line, name);
	r->expects++;
}

static void replay_file(const char *name, bool grouped, struct replay *r)
{
	char path[512], line[1024];
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/autotune/%s", SLEEB_TEST_DATA, name);
	f = fopen(path, "re");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	r->file = name;
	r->grouped = grouped;
	r->psi = -1;
	sleeb_autotune_params_init(&r->p);
	while (fgets(line, sizeof(line), f)) {
		char word[32], arg[64], what[16], rest[900] = "";
		unsigned long long a, b, c, d, e, g, h;

		r->line++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		ck_assert_int_eq(sscanf(line, "%31s", word), 1);
		if (strcmp(word, "cpus") == 0 && sscanf(line, "cpus %u", &r->p.ncpus) == 1)
			continue;
		if (strcmp(word, "nodes") == 0 && sscanf(line, "nodes %u", &r->p.nnodes) == 1)
			continue;
		if (strcmp(word, "budget") == 0 && sscanf(line, "budget %llu", &a) == 1) {
			r->p.budget_bytes = a;
			continue;
		}
		if (strcmp(word, "cache") == 0 &&
		    sscanf(line, "cache %63s %llu %llu %llu %llu %llu %llu", arg, &a, &b, &c, &d, &e, &g) == 7) {
			struct replay_cache *rc = &r->c[r->n++];

			ck_assert(r->n <= MAX_CACHES);
			snprintf(rc->name, sizeof(rc->name), "%s", arg);
			rc->at.object_size = a;
			rc->at.cur = (struct sleeb_tunables) { { (uint32_t) b, (uint32_t) c, (uint32_t) d } };
			rc->at.min = (uint32_t) e;
			rc->at.max = (uint32_t) g;
			continue;
		}
		if (strcmp(word, "memory") == 0 && sscanf(line, "memory %llu %llu", &a, &b) == 2) {
			r->memtotal_kb = a;
			r->memavail_kb = b;
			continue;
		}
		if (strcmp(word, "psi") == 0 && sscanf(line, "psi %lf", &r->psi) == 1)
			continue;
		if (strcmp(word, "at") == 0 && sscanf(line, "at %llu", &a) == 1) {
			r->now_usec = a;
			continue;
		}
		if (strcmp(word, "stats") == 0 && sscanf(line, "stats %63s %899[^\n]", arg, rest) == 2) {
			for (size_t i = 0; i < r->n; i++) {
				char copy[900];

				if (strcmp(arg, "*") != 0 && strcmp(arg, r->c[i].name) != 0)
					continue;
				snprintf(copy, sizeof(copy), "%s", rest);
				set_stats(r, &r->c[i], copy);
			}
			continue;
		}
		if (strcmp(word, "decide") == 0) {
			decide(r);
			continue;
		}
		if (strcmp(word, "expect") == 0 && sscanf(line, "expect %63s %15s %llu", arg, what, &h) == 3) {
			expect(r, arg, what, (unsigned) h);
			continue;
		}
		ck_abort_msg("%s:%u: cannot read '%s'", name, r->line, line);
	}
	fclose(f);
	ck_assert_msg(r->expects > 0, "%s: expects nothing", name);
}

/* ---- the recorded sequences ------------------------------------------- */

static const char *const sequences[] = {
	"burst-kmalloc-64.seq", "rnd-group.seq", "quiet-after-grow.seq", "memory-short.seq",
	"reaper.seq", "budget.seq", "few-trips.seq", "workloads.seq", "reap-after-grow.seq", "reap-bound.seq",
	"memory-worth.seq", "memory-worth-group.seq",
};

START_TEST(test_sequence)
{
	struct replay r;

	replay_file(sequences[_i], true, &r);
}
END_TEST

/* Judged one by one, each copy's sixteenth of the load is not worth a change. */
START_TEST(test_group_copies_alone)
{
	struct replay r;

	replay_file("rnd-group.seq", false, &r);
	for (size_t i = 0; i < r.n; i++) {
		ck_assert_int_eq(r.c[i].at.action, SLEEB_AUTOTUNE_KEEP);
		ck_assert_uint_eq(r.c[i].at.next.v[SLEEB_TUNABLE_QUEUE], 120);
		ck_assert_msg(strncmp(r.c[i].at.reason, "not worth a change", 18) == 0, "%s", r.c[i].at.reason);
	}
}
END_TEST

/* ---- pieces ------------------------------------------------------------ */

START_TEST(test_group_key)
{
	char b[64];

	ck_assert_uint_eq(sleeb_autotune_group_key("kmalloc-rnd-07-192", b, sizeof(b)), strlen("kmalloc-192"));
	ck_assert_str_eq(b, "kmalloc-192");
	sleeb_autotune_group_key("kmalloc-rnd-15-8k", b, sizeof(b));
	ck_assert_str_eq(b, "kmalloc-8k");
	sleeb_autotune_group_key("kmalloc-192", b, sizeof(b));
	ck_assert_str_eq(b, "kmalloc-192");
	/* Not the pattern: the name itself. */
	sleeb_autotune_group_key("kmalloc-rnd-7-192", b, sizeof(b));
	ck_assert_str_eq(b, "kmalloc-rnd-7-192");
	sleeb_autotune_group_key("kmalloc-rnd-07-", b, sizeof(b));
	ck_assert_str_eq(b, "kmalloc-rnd-07-");
	sleeb_autotune_group_key("kmalloc-cg-192", b, sizeof(b));
	ck_assert_str_eq(b, "kmalloc-cg-192");
	ck_assert_uint_eq(sleeb_autotune_group_key("kmalloc-rnd-07-192", b, 5), 4);
	ck_assert_str_eq(b, "kmal");
}
END_TEST

START_TEST(test_sample_delta)
{
	struct sleeb_queue_stats a = { 0 }, b = { 0 };
	struct sleeb_autotune_sample s;

	a.present = b.present = (1u << _SLEEB_QSTAT_MAX) - 1;
	b.value[SLEEB_QSTAT_ALLOC_REFILL] = 10;
	b.value[SLEEB_QSTAT_FREE_DRAIN] = 5;
	b.value[SLEEB_QSTAT_SHARED_ALLOC_MISS] = 2;
	b.value[SLEEB_QSTAT_SHARED_OVERFLOW] = 1;
	b.value[SLEEB_QSTAT_REMOTE_FREE] = 120;
	b.value[SLEEB_QSTAT_FASTPATH_OPS] = 1000;
	b.value[SLEEB_QSTAT_BULK_ALLOC] = 50;
	b.value[SLEEB_QSTAT_BULK_FREE] = 50;       /* in fastpath_ops already */
	b.value[SLEEB_QSTAT_REAP_DRAINED] = 7;
	b.value[SLEEB_QSTAT_REFILL_NOMEM] = 1;
	b.value[SLEEB_QSTAT_ARRAY_FAIL] = 2;
	ck_assert_int_eq(sleeb_autotune_sample_delta(&a, &b, 2000000, &s), 0);
	ck_assert_uint_eq(s.refills, 10);
	ck_assert_uint_eq(s.drains, 5);
	ck_assert_uint_eq(s.to_slabs, 3);
	ck_assert_uint_eq(s.remote_objects, 120);
	ck_assert_uint_eq(s.ops, 1050);
	ck_assert_uint_eq(s.reaped, 7);
	ck_assert_uint_eq(s.failed, 3);
	/* A recreated cache: its counters went backwards. */
	ck_assert_int_eq(sleeb_autotune_sample_delta(&b, &a, 2000000, &s), -ERANGE);
	ck_assert_int_eq(sleeb_autotune_sample_delta(&a, &b, 0, &s), -ERANGE);
	/* No fastpath_ops, no ratio. */
	b.present &= ~(1u << SLEEB_QSTAT_FASTPATH_OPS);
	ck_assert_int_eq(sleeb_autotune_sample_delta(&a, &b, 2000000, &s), -ENODATA);
}
END_TEST

/*
 * A group's copies add their rates: one read after ten intervals in which
 * its slabinfo line stood still brings ten intervals' counts, which count
 * as one interval's tenth, not as a burst ten times the load.
 */
START_TEST(test_sample_add_rates)
{
	struct sleeb_autotune_sample a = { .elapsed_usec = 100000, .refills = 50, .ops = 1000 };
	struct sleeb_autotune_sample b = { .elapsed_usec = 1000000, .refills = 500, .drains = 30, .ops = 10000 };

	sleeb_autotune_sample_add(&a, &b);
	ck_assert_uint_eq(a.elapsed_usec, 100000);
	ck_assert_uint_eq(a.refills, 100);
	ck_assert_uint_eq(a.drains, 3);
	ck_assert_uint_eq(a.ops, 2000);
}
END_TEST

START_TEST(test_memory_short)
{
	char why[96];

	ck_assert(sleeb_autotune_memory_short(1000, 40, 5, -1, 10, why, sizeof(why)));
	ck_assert_str_eq(why, "memory short: MemAvailable 4.0% of MemTotal, below 5%");
	ck_assert(!sleeb_autotune_memory_short(1000, 60, 5, 9.99, 10, why, sizeof(why)));
	ck_assert_str_eq(why, "memory not short");
	ck_assert(sleeb_autotune_memory_short(1000, 600, 5, 10.0, 10, why, sizeof(why)));
	ck_assert_str_eq(why, "memory short: PSI memory some avg10=10.00, at or above 10");
	/* Unknown or off: not short. */
	ck_assert(!sleeb_autotune_memory_short(0, 0, 5, -1, 10, why, sizeof(why)));
	ck_assert(!sleeb_autotune_memory_short(1000, 10, 0, 50, 0, why, sizeof(why)));
}
END_TEST

START_TEST(test_psi_parse)
{
	static const char ok[] = "some avg10=12.34 avg60=1.00 avg300=0.10 total=123\n"
				 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
	struct sleeb_error err = { 0 };
	double v = -1;

	ck_assert_int_eq(sleeb_psi_parse_some_avg10(ok, strlen(ok), "p", &v, &err), 0);
	ck_assert(v > 12.339 && v < 12.341);
	ck_assert_int_eq(sleeb_psi_parse_some_avg10("full avg10=1.00\n", 16, "p", &v, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "p: no 'some' line");
	ck_assert_int_eq(sleeb_psi_parse_some_avg10("some avg60=1.00\n", 16, "p", &v, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "p:1: 'some' line without avg10=");
	ck_assert_int_eq(sleeb_psi_parse_some_avg10("\nsome avg10=1x\n", 15, "p", &v, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "p:2: avg10=1x: not a percentage");
	ck_assert_int_eq(sleeb_psi_parse_some_avg10("some avg10=100.01\n", 18, "p", &v, &err), -EINVAL);
}
END_TEST

/* A cache without queues, or with the kernel short of memory, is left alone. */
START_TEST(test_keeps)
{
	struct sleeb_autotune_params p;
	struct sleeb_autotune_cache c = {
		.object_size = 64,
		.cur = { { 120, 60, 480 } },
		.min = 120,
		.max = 960,
		.has_sample = true,
		.sample = { .elapsed_usec = 2000000, .refills = 3000, .drains = 3000, .ops = 394000, .failed = 300 },
	};

	sleeb_autotune_params_init(&p);
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_KEEP);
	ck_assert_str_eq(c.reason, "kernel short of memory for it (refill_nomem+array_fail 300 of 3000 refills this interval)");
	/* A stray failure is no reason to keep a busy cache small. */
	c.sample.failed = 1;
	c.state = (struct sleeb_autotune_state) { 0 };
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_GROW);
	c.cur = (struct sleeb_tunables) { { 120, 60, 480 } };
	c.sample.failed = 0;
	c.cur.v[SLEEB_TUNABLE_QUEUE] = 0;
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_KEEP);
	ck_assert_str_eq(c.reason, "queue disabled (0)");
}
END_TEST

/*
 * A grow takes the shared queue to the new queue size (two new batches),
 * not in proportion: at 120/60/480 and 15 trips per 1000 operations
 * kmalloc-96 grows to 450/225/480, not to 450/225/1800. A shrink keeps
 * the ratio; a disabled shared queue stays disabled.
 */
START_TEST(test_grow_shared)
{
	struct sleeb_autotune_params p;
	struct sleeb_autotune_cache c = {
		.object_size = 96,
		.cur = { { 120, 60, 480 } },
		.min = 120,
		.max = 960,
		.has_sample = true,
		.sample = { .elapsed_usec = 2000000, .refills = 3000, .drains = 3000, .ops = 394000 },
	};
	struct sleeb_tunables v;

	sleeb_autotune_params_init(&p);
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_GROW);
	ck_assert_uint_eq(c.next.v[SLEEB_TUNABLE_QUEUE], 450);
	ck_assert_uint_eq(c.next.v[SLEEB_TUNABLE_BATCH], 225);
	ck_assert_uint_eq(c.next.v[SLEEB_TUNABLE_SHARED], 480);

	sleeb_autotune_resize(&(struct sleeb_tunables) { { 120, 60, 480 } }, 960, &v);
	ck_assert_uint_eq(v.v[SLEEB_TUNABLE_SHARED], 960);
	sleeb_autotune_resize(&(struct sleeb_tunables) { { 24, 12, 24 } }, 192, &v);
	ck_assert_uint_eq(v.v[SLEEB_TUNABLE_SHARED], 192);
	sleeb_autotune_resize(&(struct sleeb_tunables) { { 120, 60, 0 } }, 960, &v);
	ck_assert_uint_eq(v.v[SLEEB_TUNABLE_SHARED], 0);
	sleeb_autotune_resize(&(struct sleeb_tunables) { { 960, 480, 960 } }, 480, &v);
	ck_assert_uint_eq(v.v[SLEEB_TUNABLE_SHARED], 480);
	sleeb_autotune_resize(&(struct sleeb_tunables) { { 960, 480, 3840 } }, 120, &v);
	ck_assert_uint_eq(v.v[SLEEB_TUNABLE_SHARED], 480);
	/* A policy's bound still scales in proportion. */
	sleeb_autotune_scale(&(struct sleeb_tunables) { { 120, 60, 480 } }, 960, &v);
	ck_assert_uint_eq(v.v[SLEEB_TUNABLE_SHARED], 3840);
}
END_TEST

/*
 * AutoTuneTripsPerMiB=: a 4 KiB cache at 60 trips per 1000 operations and
 * 100 trips a second wants 192 (its AutoTuneMax) but pays only up to 85
 * (memory-worth.seq); at AutoTuneTripsPerMiB=200 nothing pays; 0 turns
 * the rule off.
 */
START_TEST(test_trips_per_mib)
{
	struct sleeb_autotune_params p;
	struct sleeb_autotune_cache c = {
		.object_size = 4096,
		.cur = { { 24, 12, 24 } },
		.min = 24,
		.max = 192,
		.has_sample = true,
		.sample = { .elapsed_usec = 2000000, .refills = 100, .drains = 100, .ops = 3133 },
	};
	struct sleeb_autotune_cache fresh = c;

	sleeb_autotune_params_init(&p);
	p.ncpus = 4;
	p.nnodes = 2;
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_GROW);
	ck_assert_uint_eq(c.next.v[SLEEB_TUNABLE_QUEUE], 85);
	ck_assert_msg(strstr(c.reason, "; cut to 85 by AutoTuneTripsPerMiB") != NULL, "%s", c.reason);

	c = fresh;
	p.trips_per_mib = 200;
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_KEEP);
	ck_assert_str_eq(c.reason, "not worth its memory: a grow to 192 would save 88 trips/s for 3.9 MiB more queue "
		       "capacity, below AutoTuneTripsPerMiB=200");

	c = fresh;
	p.trips_per_mib = 0;
	sleeb_autotune_decide(&p, &c, 1);
	ck_assert_int_eq(c.action, SLEEB_AUTOTUNE_GROW);
	ck_assert_uint_eq(c.next.v[SLEEB_TUNABLE_QUEUE], 192);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_loop_test(tc, test_sequence, 0, (int) SLEEB_ELEMENTSOF(sequences));
	tcase_add_test(tc, test_group_copies_alone);
	tcase_add_test(tc, test_group_key);
	tcase_add_test(tc, test_sample_delta);
	tcase_add_test(tc, test_memory_short);
	tcase_add_test(tc, test_psi_parse);
	tcase_add_test(tc, test_keeps);
	tcase_add_test(tc, test_grow_shared);
	tcase_add_test(tc, test_trips_per_mib);
	tcase_add_test(tc, test_sample_add_rates);
}

int main(void)
{
	return test_main("autotune", add_tests);
}
