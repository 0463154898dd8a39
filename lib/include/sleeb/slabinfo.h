/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Streaming /proc/slabinfo parser (version 2.x).
 *
 *   slabinfo - version: 2.1
 *   # name <active_objs> <num_objs> <objsize> ... (any '#' line is skipped)
 *   <name> <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>
 *     : tunables <limit> <batchcount> <sharedfactor>
 *     : slabdata <active_slabs> <num_slabs> <sharedavail>
 *
 * With SLEEB the tunables are cpu_queue_size, cpu_batch_size and
 * shared_queue_size; a kernel without SLEEB prints 0 0 0.  Names longer
 * than 17 columns just push the numbers right.  One line is held in memory
 * at a time, so large files stream.
 *
 * Errors are reported as "FILE:LINE: what is wrong" in struct sleeb_error.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sleeb/error.h"

#define SLEEB_CACHE_NAME_MAX 256

struct sleeb_slabinfo_entry {
	char name[SLEEB_CACHE_NAME_MAX];
	uint64_t active_objs;
	uint64_t num_objs;
	uint32_t objsize;
	uint32_t objperslab;
	uint32_t pagesperslab;
	uint32_t limit;         /* SLEEB: cpu_queue_size */
	uint32_t batchcount;    /* SLEEB: cpu_batch_size */
	uint32_t sharedfactor;  /* SLEEB: shared_queue_size */
	uint64_t active_slabs;
	uint64_t num_slabs;
	uint64_t sharedavail;   /* SLEEB: objects in the shared queues */
};

/*
 * A cache line's numbers, its name aside. On a SLEEB kernel they move
 * whenever the cache's objects move between its queues and the slabs
 * on its nodes' lists (objects in use, free objects of partial slabs,
 * slabs), its sizes change, or its shared queues fill or empty: what
 * sleebd takes as the sign that a cache's counters may have moved.
 */
struct sleeb_slabinfo_numbers {
	uint64_t active_objs, num_objs, active_slabs, num_slabs, sharedavail;
	uint32_t objsize, objperslab, pagesperslab, limit, batchcount, sharedfactor;
};

/* @e's numbers into @out. */
void sleeb_slabinfo_numbers_get(const struct sleeb_slabinfo_entry *e,
				struct sleeb_slabinfo_numbers *out);
/* Whether @e's numbers are still @kept (taken from an earlier line of it). */
bool sleeb_slabinfo_numbers_same(const struct sleeb_slabinfo_numbers *kept,
				 const struct sleeb_slabinfo_entry *e);

/*
 * Called once per cache line.  Return 0 to continue, a negative errno to
 * stop: the parser then returns that value (and the callback should have
 * filled the error itself if it wants a message).
 */
typedef int (*sleeb_slabinfo_cb)(const struct sleeb_slabinfo_entry *e, void *userdata);

/*
 * Parse one cache line (without its newline) into @e.  On error returns
 * -EINVAL (malformed, short, trailing fields, name too long) or -ERANGE
 * (a number overflows its field); the message names the field but not the
 * file or line (the stream parsers add "FILE:LINE: ").
 */
int sleeb_slabinfo_parse_line(const char *line, size_t len,
			      struct sleeb_slabinfo_entry *e, struct sleeb_error *err);

/*
 * Parse a stream.  @fname is used in messages only.  Returns the number of
 * cache lines (>= 0), or:
 *   -EINVAL   missing/unknown header, malformed line (message names the line)
 *   -ERANGE   a number overflows
 *   -ENOMEM   out of memory
 *   -EIO      read error
 *   any negative value returned by @cb
 */
int sleeb_slabinfo_parse_file(FILE *f, const char *fname, sleeb_slabinfo_cb cb,
			      void *userdata, struct sleeb_error *err);

/* The same for an in-memory buffer of @len bytes (fuzzers, tests). */
int sleeb_slabinfo_parse_buffer(const char *buf, size_t len, const char *fname,
				sleeb_slabinfo_cb cb, void *userdata,
				struct sleeb_error *err);

/*
 * A memory of what was parsed, for a reader that parses the same file
 * again and again (sleebd, every interval): a cache line whose bytes equal
 * those of the line last parsed at the same index among the cache lines
 * gives the entry they gave, without being parsed again. Results, errors
 * and callbacks are exactly those of sleeb_slabinfo_parse_buffer().
 */
struct sleeb_slabinfo_memo;

struct sleeb_slabinfo_memo *sleeb_slabinfo_memo_new(void);  /* NULL: no memory */
struct sleeb_slabinfo_memo *sleeb_slabinfo_memo_free(struct sleeb_slabinfo_memo *m);
/* Drop what was kept (another file is parsed from now on). */
void sleeb_slabinfo_memo_forget(struct sleeb_slabinfo_memo *m);
/* Cache lines taken from the memo and parsed, over the memo's life. */
void sleeb_slabinfo_memo_stats(const struct sleeb_slabinfo_memo *m, uint64_t *reused,
			       uint64_t *parsed);

/* sleeb_slabinfo_parse_buffer() with @memo (NULL: none). */
int sleeb_slabinfo_parse_buffer_memo(const char *buf, size_t len, const char *fname,
				     struct sleeb_slabinfo_memo *memo,
				     sleeb_slabinfo_cb cb, void *userdata,
				     struct sleeb_error *err);

/* Parse <root>/proc/slabinfo.  Errors as above plus -errno from fopen(). */
int sleeb_slabinfo_read(sleeb_slabinfo_cb cb, void *userdata, struct sleeb_error *err);

/* A whole slabinfo in memory, for tools that sort or compare samples. */
struct sleeb_slabinfo {
	struct sleeb_slabinfo_entry *entries;
	size_t n;
	size_t cap;
};

/* Load <root>/proc/slabinfo into @out (initialize to {0}).  Errors as for
 * sleeb_slabinfo_read().  On error @out is left empty. */
int sleeb_slabinfo_load(struct sleeb_slabinfo *out, struct sleeb_error *err);

/* Append one entry (the collecting callback).  -ENOMEM on failure. */
int sleeb_slabinfo_append(const struct sleeb_slabinfo_entry *e, void *slabinfo);

/* Find a cache by exact name; NULL if absent. */
const struct sleeb_slabinfo_entry *sleeb_slabinfo_find(const struct sleeb_slabinfo *s,
						       const char *name);

void sleeb_slabinfo_free(struct sleeb_slabinfo *s);
