/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * SLEEB queue tunables of one cache and how to change them safely.
 *
 * Kernel rules (issue 4), applied to every single write:
 *   cpu_queue_size     0 (queues off) or max(1, cpu_batch_size)..10000
 *   cpu_batch_size     1..cpu_queue_size, and <= shared_queue_size unless
 *                      that is 0 (so "shared is 0 or >= batch" always holds)
 *   shared_queue_size  0 or cpu_batch_size..10000
 * A kernel with <cache>/queue_sizes takes all three in one write, one
 * resize. Without it (older kernels) a set of several values is written
 * one attribute at a time in an order whose every intermediate state is
 * valid; if a write fails, the values already written are restored in
 * reverse order.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sleeb/error.h"

#define SLEEB_QUEUE_MAX 10000u

/* All three sizes as one line, "queue batch shared". */
#define SLEEB_TUNABLES_ATTR_ALL "queue_sizes"

enum sleeb_tunable {
	SLEEB_TUNABLE_QUEUE,
	SLEEB_TUNABLE_BATCH,
	SLEEB_TUNABLE_SHARED,
	_SLEEB_TUNABLE_MAX,
};

/* Indexed by enum sleeb_tunable. */
struct sleeb_tunables {
	uint32_t v[_SLEEB_TUNABLE_MAX];
};

/* The sysfs attribute ("cpu_queue_size", ...); NULL if out of range. */
const char *sleeb_tunable_attr(enum sleeb_tunable t);

/* The short name used by options and policies ("queue", "batch", "shared").  */
const char *sleeb_tunable_name(enum sleeb_tunable t);

/* Look up a short name or attribute name.  -EINVAL if unknown. */
int sleeb_tunable_from_string(const char *s, enum sleeb_tunable *ret);

/*
 * Would the kernel accept writing @value to @which while the cache has
 * @cur?  Returns 0 or -EINVAL with the violated rule in @err as
 * "attribute: value: reason".
 */
int sleeb_tunables_check_write(const struct sleeb_tunables *cur, enum sleeb_tunable which,
			       uint32_t value, struct sleeb_error *err);

/*
 * Is @t a state the kernel can be in?  0 0 0 (no SLEEB, or never tuned)
 * is; otherwise batch is 1..queue (1..10000 with queues off) and shared
 * 0 or batch..10000.  Returns 0 or -EINVAL with the broken invariant as
 * "attribute: value: reason".
 */
int sleeb_tunables_validate(const struct sleeb_tunables *t, struct sleeb_error *err);

struct sleeb_tunables_step {
	enum sleeb_tunable which;
	uint32_t value;
};

#define SLEEB_TUNABLES_STEPS_MAX 4

/*
 * Plan the writes that take a cache from @cur to @target, in an order
 * where every write passes sleeb_tunables_check_write().  Normally only
 * the changed attributes, each written once; when the queue is in the way
 * (batch changes while queues are off, say) the queue is first raised
 * above both batches and written again at the end.  Returns the number of
 * steps (0..SLEEB_TUNABLES_STEPS_MAX), or -EINVAL if @target is invalid
 * (@err says which rule) or, for an inconsistent @cur, no order exists.
 */
int sleeb_tunables_plan(const struct sleeb_tunables *cur, const struct sleeb_tunables *target,
			struct sleeb_tunables_step steps[SLEEB_TUNABLES_STEPS_MAX],
			struct sleeb_error *err);

/*
 * Read the three attributes of @cache.  Returns 0, or -EOPNOTSUPP if the
 * cache exists without cpu_queue_size (message "cache: this kernel has no
 * SLEEB queues ..." when no cache has it, "cache: this cache has no SLEEB
 * queue attributes ..." otherwise), -ENOENT (no such cache), other -errno,
 * -EINVAL or -ERANGE for unparsable content.
 */
int sleeb_tunables_read(const char *cache, struct sleeb_tunables *out, struct sleeb_error *err);

/*
 * The write primitive used by sleeb_tunables_apply(): returns 0 or a
 * negative errno and fills @err with "cache: attribute: value: reason".
 * The default writes sysfs; tests and dry runs pass their own.
 */
typedef int (*sleeb_tunables_write_fn)(const char *cache, enum sleeb_tunable which,
				       uint32_t value, void *userdata, struct sleeb_error *err);

/* The default writer: sleeb_sysfs_write_u64() on the attribute. */
int sleeb_tunables_write_sysfs(const char *cache, enum sleeb_tunable which, uint32_t value,
			       void *userdata, struct sleeb_error *err);

/* True if @cache has queue_sizes: sleeb_tunables_apply() with the default
 * writer then changes all three sizes in one write. */
bool sleeb_tunables_one_write(const char *cache);

/* The text queue_sizes takes: "queue batch shared". A buffer of
 * SLEEB_TUNABLES_LINE_MAX always holds it. */
#define SLEEB_TUNABLES_LINE_MAX (3 * 11)
void sleeb_tunables_format_line(const struct sleeb_tunables *t, char *buf, size_t size);

/* Write @t to @cache's queue_sizes as "queue batch shared": one resize.
 * Returns 0 or the kernel's -errno; @err is "PATH: q b s: reason". */
int sleeb_tunables_write_all_sysfs(const char *cache, const struct sleeb_tunables *t,
				   struct sleeb_error *err);

/*
 * Take @cache from @cur to @target. With @write NULL and a kernel that
 * has queue_sizes: validate @target and write it there once (nothing if
 * @target is @cur); a failure is the kernel's -errno with @err as from
 * sleeb_tunables_write_all_sysfs(), and the kernel changed nothing.
 * Otherwise: plan, then write each step with @write (NULL: sysfs).  If a write fails, the steps already done are
 * undone in reverse order, each attribute back to the value it had before
 * that step (every state on the way back was valid on the way there).
 * Returns:
 *   0           all written
 *   -EINVAL     plan impossible (nothing written)
 *   -errno      of the failed write; @err holds
 *               "cache: attribute: value: reason; rolled back" or, if the
 *               rollback failed too, "...; rollback failed: cache:
 *               attribute: value: reason" and the return is the first
 *               failure's errno.
 */
int sleeb_tunables_apply(const char *cache, const struct sleeb_tunables *cur,
			 const struct sleeb_tunables *target, sleeb_tunables_write_fn write,
			 void *userdata, struct sleeb_error *err);
