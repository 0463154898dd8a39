/* SPDX-License-Identifier: GPL-2.0-only */
/* Queue tunables: validation, write ordering and rollback (see sleeb/tunables.h). */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"

static const char *const tunable_attrs[_SLEEB_TUNABLE_MAX] = {
	[SLEEB_TUNABLE_QUEUE] = "cpu_queue_size",
	[SLEEB_TUNABLE_BATCH] = "cpu_batch_size",
	[SLEEB_TUNABLE_SHARED] = "shared_queue_size",
};

static const char *const tunable_names[_SLEEB_TUNABLE_MAX] = {
	[SLEEB_TUNABLE_QUEUE] = "queue",
	[SLEEB_TUNABLE_BATCH] = "batch",
	[SLEEB_TUNABLE_SHARED] = "shared",
};

const char *sleeb_tunable_attr(enum sleeb_tunable t)
{
	return (unsigned)t < _SLEEB_TUNABLE_MAX ? tunable_attrs[t] : NULL;
}

const char *sleeb_tunable_name(enum sleeb_tunable t)
{
	return (unsigned)t < _SLEEB_TUNABLE_MAX ? tunable_names[t] : NULL;
}

int sleeb_tunable_from_string(const char *s, enum sleeb_tunable *ret)
{
	unsigned t;

	for (t = 0; t < _SLEEB_TUNABLE_MAX; t++) {
		if (strcmp(s, tunable_names[t]) == 0 || strcmp(s, tunable_attrs[t]) == 0) {
			*ret = (enum sleeb_tunable)t;
			return 0;
		}
	}
	return -EINVAL;
}

int sleeb_tunables_check_write(const struct sleeb_tunables *cur, enum sleeb_tunable which,
			       uint32_t value, struct sleeb_error *err)
{
	uint32_t queue = cur->v[SLEEB_TUNABLE_QUEUE], batch = cur->v[SLEEB_TUNABLE_BATCH],
		 shared = cur->v[SLEEB_TUNABLE_SHARED];
	const char *attr = sleeb_tunable_attr(which);

	switch (which) {
	case SLEEB_TUNABLE_QUEUE:
		if (value > SLEEB_QUEUE_MAX)
			return sleeb_error_set(err, EINVAL, "%s: %u: must be 0 or 1..%u", attr,
					       value, SLEEB_QUEUE_MAX);
		if (value != 0 && value < batch)
			return sleeb_error_set(err, EINVAL, "%s: %u: below cpu_batch_size %u", attr,
					       value, batch);
		return 0;
	case SLEEB_TUNABLE_BATCH:
		if (value < 1 || value > SLEEB_QUEUE_MAX)
			return sleeb_error_set(err, EINVAL, "%s: %u: must be 1..cpu_queue_size", attr,
					       value);
		if (value > queue)
			return sleeb_error_set(err, EINVAL, "%s: %u: above cpu_queue_size %u%s", attr,
					       value, queue, queue ? "" : " (queues are off)");
		/* "shared is 0 or >= batch" must hold after the write too. */
		if (shared != 0 && value > shared)
			return sleeb_error_set(err, EINVAL, "%s: %u: above shared_queue_size %u", attr,
					       value, shared);
		return 0;
	case SLEEB_TUNABLE_SHARED:
		if (value > SLEEB_QUEUE_MAX)
			return sleeb_error_set(err, EINVAL, "%s: %u: must be 0 or cpu_batch_size..%u",
					       attr, value, SLEEB_QUEUE_MAX);
		if (value != 0 && value < batch)
			return sleeb_error_set(err, EINVAL, "%s: %u: below cpu_batch_size %u", attr,
					       value, batch);
		return 0;
	default:
		return sleeb_error_set(err, EINVAL, "unknown tunable %d", (int)which);
	}
}

int sleeb_tunables_validate(const struct sleeb_tunables *t, struct sleeb_error *err)
{
	uint32_t q = t->v[SLEEB_TUNABLE_QUEUE], b = t->v[SLEEB_TUNABLE_BATCH],
		 s = t->v[SLEEB_TUNABLE_SHARED];

	if (q > SLEEB_QUEUE_MAX)
		return sleeb_error_set(err, EINVAL, "cpu_queue_size: %u: must be 0 or 1..%u", q,
				       SLEEB_QUEUE_MAX);
	if (b > SLEEB_QUEUE_MAX)
		return sleeb_error_set(err, EINVAL, "cpu_batch_size: %u: must be 1..cpu_queue_size",
				       b);
	if (s > SLEEB_QUEUE_MAX)
		return sleeb_error_set(err, EINVAL,
				       "shared_queue_size: %u: must be 0 or cpu_batch_size..%u", s,
				       SLEEB_QUEUE_MAX);
	/* A kernel without SLEEB, or a cache never tuned, shows 0 0 0. */
	if (q == 0 && b == 0 && s == 0)
		return 0;
	/* With queues off (q == 0) batch and shared are kept but unused, and
	 * still related to each other. */
	if (b < 1 || (q != 0 && b > q))
		return sleeb_error_set(err, EINVAL, "cpu_batch_size: %u: not in 1..cpu_queue_size %u",
				       b, q);
	if (s != 0 && s < b)
		return sleeb_error_set(err, EINVAL, "shared_queue_size: %u: below cpu_batch_size %u",
				       s, b);
	return 0;
}

/* All orders of up to three distinct attributes, preferred first:
 * queue before batch before shared when growing is the first listed. */
static const enum sleeb_tunable orders[][_SLEEB_TUNABLE_MAX] = {
	{ SLEEB_TUNABLE_QUEUE, SLEEB_TUNABLE_BATCH, SLEEB_TUNABLE_SHARED },
	{ SLEEB_TUNABLE_QUEUE, SLEEB_TUNABLE_SHARED, SLEEB_TUNABLE_BATCH },
	{ SLEEB_TUNABLE_BATCH, SLEEB_TUNABLE_QUEUE, SLEEB_TUNABLE_SHARED },
	{ SLEEB_TUNABLE_BATCH, SLEEB_TUNABLE_SHARED, SLEEB_TUNABLE_QUEUE },
	{ SLEEB_TUNABLE_SHARED, SLEEB_TUNABLE_QUEUE, SLEEB_TUNABLE_BATCH },
	{ SLEEB_TUNABLE_SHARED, SLEEB_TUNABLE_BATCH, SLEEB_TUNABLE_QUEUE },
};

/* Try each order of single writes from @state; append to @steps. */
static int plan_orders(struct sleeb_tunables state, const struct sleeb_tunables *target,
		       struct sleeb_tunables_step *steps, int n, struct sleeb_error *why)
{
	size_t o;

	/* Three attributes give at most six orders: trying them all is
	 * simpler and easier to trust than a case analysis. */
	for (o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		struct sleeb_tunables s = state;
		int k = n, i;

		for (i = 0; i < _SLEEB_TUNABLE_MAX; i++) {
			enum sleeb_tunable t = orders[o][i];

			if (s.v[t] == target->v[t])
				continue;
			if (sleeb_tunables_check_write(&s, t, target->v[t], why) < 0)
				break;
			s.v[t] = target->v[t];
			steps[k].which = t;
			steps[k].value = target->v[t];
			k++;
		}
		if (i == _SLEEB_TUNABLE_MAX)
			return k;
	}
	return -EINVAL;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

int sleeb_tunables_plan(const struct sleeb_tunables *cur, const struct sleeb_tunables *target,
			struct sleeb_tunables_step steps[SLEEB_TUNABLES_STEPS_MAX],
			struct sleeb_error *err)
{
	struct sleeb_error why = { 0 };
	struct sleeb_tunables open;
	uint32_t q;
	int r;

	r = sleeb_tunables_validate(target, err);
	if (r < 0)
		return r;
	r = plan_orders(*cur, target, steps, 0, &why);
	if (r >= 0)
		return r;
	/*
	 * No order of single writes works when the queue is in the way
	 * (e.g. batch must change while queues are off, or must shrink
	 * below a queue that must shrink too but is off now).  Raising the
	 * queue above every batch first always unblocks it: from there
	 * batch and shared can be written in the direction batch moves,
	 * and the queue last.
	 */
	q = max_u32(max_u32(cur->v[SLEEB_TUNABLE_QUEUE], cur->v[SLEEB_TUNABLE_BATCH]),
		    max_u32(target->v[SLEEB_TUNABLE_QUEUE], target->v[SLEEB_TUNABLE_BATCH]));
	open = *cur;
	if (q != cur->v[SLEEB_TUNABLE_QUEUE] &&
	    sleeb_tunables_check_write(cur, SLEEB_TUNABLE_QUEUE, q, NULL) == 0) {
		open.v[SLEEB_TUNABLE_QUEUE] = q;
		steps[0].which = SLEEB_TUNABLE_QUEUE;
		steps[0].value = q;
		r = plan_orders(open, target, steps, 1, NULL);
		if (r >= 0)
			return r;
	}
	return sleeb_error_set(err, EINVAL,
			       "no valid order of writes from queue=%u batch=%u shared=%u to queue=%u batch=%u shared=%u (%s)",
			       cur->v[0], cur->v[1], cur->v[2], target->v[0], target->v[1],
			       target->v[2], why.msg);
}

int sleeb_tunables_read(const char *cache, struct sleeb_tunables *out, struct sleeb_error *err)
{
	struct stat st;
	unsigned t;
	int r;

	r = sleeb_sysfs_stat(cache, NULL, &st);
	if (r == -EINVAL)
		return sleeb_error_set(err, r, "%s: invalid cache name", cache);
	if (r < 0)
		return sleeb_error_set(err, r, "%s: no such cache (%s)", cache, strerror(-r));
	if (!sleeb_sysfs_has_attr(cache, tunable_attrs[SLEEB_TUNABLE_QUEUE]))
		return sleeb_error_set(err, EOPNOTSUPP, "%s: %s",
				       cache, sleeb_sysfs_kernel_has_queues()
				       ? "this cache has no SLEEB queue attributes (no cpu_queue_size)"
				       : "this kernel has no SLEEB queues (no cpu_queue_size attribute)");
	for (t = 0; t < _SLEEB_TUNABLE_MAX; t++) {
		uint64_t v;

		r = sleeb_sysfs_read_u64(cache, tunable_attrs[t], &v, err);
		if (r < 0)
			return r;
		if (v > UINT32_MAX)
			return sleeb_error_set(err, ERANGE, "%s: %s: %llu out of range", cache,
					       tunable_attrs[t], (unsigned long long)v);
		out->v[t] = (uint32_t)v;
	}
	return 0;
}

int sleeb_tunables_write_sysfs(const char *cache, enum sleeb_tunable which, uint32_t value,
			       void *userdata, struct sleeb_error *err)
{
	(void)userdata;
	return sleeb_sysfs_write_u64(cache, sleeb_tunable_attr(which), value, err);
}

bool sleeb_tunables_one_write(const char *cache)
{
	return sleeb_sysfs_has_attr(cache, SLEEB_TUNABLES_ATTR_ALL);
}

void sleeb_tunables_format_line(const struct sleeb_tunables *t, char *buf, size_t size)
{
	snprintf(buf, size, "%u %u %u", t->v[SLEEB_TUNABLE_QUEUE], t->v[SLEEB_TUNABLE_BATCH],
		 t->v[SLEEB_TUNABLE_SHARED]);
}

int sleeb_tunables_write_all_sysfs(const char *cache, const struct sleeb_tunables *t,
				   struct sleeb_error *err)
{
	char line[SLEEB_TUNABLES_LINE_MAX];

	sleeb_tunables_format_line(t, line, sizeof(line));
	return sleeb_sysfs_write_string(cache, SLEEB_TUNABLES_ATTR_ALL, line, err);
}

int sleeb_tunables_apply(const char *cache, const struct sleeb_tunables *cur,
			 const struct sleeb_tunables *target, sleeb_tunables_write_fn write,
			 void *userdata, struct sleeb_error *err)
{
	struct sleeb_tunables_step steps[SLEEB_TUNABLES_STEPS_MAX];
	uint32_t prev[SLEEB_TUNABLES_STEPS_MAX];
	struct sleeb_error first = { 0 }, back = { 0 };
	struct sleeb_tunables state = *cur;
	int n, i, r = 0, rb = 0;

	/*
	 * A kernel with queue_sizes takes all three as one resize: no
	 * intermediate sizes, so no order to plan, and a rejected write
	 * changes nothing, so nothing to roll back. Only the target must be
	 * valid. A caller's own writer (tests, sleebctl's hooks) keeps the
	 * single writes it knows how to fake.
	 */
	if (!write && sleeb_tunables_one_write(cache)) {
		if (sleeb_tunables_validate(target, err) < 0)
			return sleeb_error_prefix(err, "%s", cache);
		if (memcmp(cur, target, sizeof(*cur)) == 0)
			return 0;
		return sleeb_tunables_write_all_sysfs(cache, target, err);
	}
	if (!write)
		write = sleeb_tunables_write_sysfs;
	n = sleeb_tunables_plan(cur, target, steps, err);
	if (n < 0)
		return sleeb_error_prefix(err, "%s", cache);
	for (i = 0; i < n; i++) {
		prev[i] = state.v[steps[i].which];
		r = write(cache, steps[i].which, steps[i].value, userdata, &first);
		if (r < 0)
			break;
		state.v[steps[i].which] = steps[i].value;
	}
	if (i == n)
		return 0;
	/* The kernel changes nothing on a rejected write, so undo only the
	 * writes before it, in reverse: each state we pass through on the
	 * way back was valid on the way there. */
	while (--i >= 0) {
		rb = write(cache, steps[i].which, prev[i], userdata, &back);
		if (rb < 0)
			break;
	}
	if (rb < 0)
		return sleeb_error_set(err, r, "%s; rollback failed: %s", first.msg, back.msg);
	return sleeb_error_set(err, r, "%s; rolled back to queue=%u batch=%u shared=%u", first.msg,
			       cur->v[SLEEB_TUNABLE_QUEUE], cur->v[SLEEB_TUNABLE_BATCH],
			       cur->v[SLEEB_TUNABLE_SHARED]);
}
