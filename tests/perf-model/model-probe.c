// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of the perf-model suite: small memory patterns whose cost the
 * model clock must predict, each inside a measurement window
 * (model-clock-marker.h). Statically linked, run in the busybox guest.
 *
 *   model-probe stride WINDOW CPU BYTES PASSES [TOUCH_CPU]
 *       touch BYTES on TOUCH_CPU (its node owns the frames; default CPU),
 *       then on CPU read one byte of every 64-byte line, PASSES times
 *   model-probe pingpong WINDOW CPU_A CPU_B TURNS
 *       two threads take turns writing one cache line, TURNS turns each
 *   model-probe atomic WINDOW CPU add|xchg|cmpxchg16b|plain N
 *       N locked adds, xchgs with memory, lock cmpxchg16b, or plain adds
 *
 * Waiting loops use `pause`, which under single-threaded TCG hands the
 * host thread to the next vCPU at once (instead of spinning through a
 * whole time slice). Exit status 0 when the pattern ran.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model-clock-marker.h"

/* The marker's id is an immediate: one case per window id the suite uses. */
#define MARK_CASE(n)                              \
	case n:                                   \
		if (start)                        \
			MODEL_CLOCK_START(n);     \
		else                              \
			MODEL_CLOCK_END(n);       \
		break;
#define MARK_CASES8(b) MARK_CASE(b) MARK_CASE(b + 1) MARK_CASE(b + 2) MARK_CASE(b + 3) \
	MARK_CASE(b + 4) MARK_CASE(b + 5) MARK_CASE(b + 6) MARK_CASE(b + 7)

static void mark(bool start, unsigned id)
{
	switch (id) {
	MARK_CASES8(0) MARK_CASES8(8) MARK_CASES8(16) MARK_CASES8(24)
	MARK_CASES8(32) MARK_CASES8(40) MARK_CASES8(48) MARK_CASES8(56)
	default:
		fprintf(stderr, "model-probe: window id %u out of range 0-63\n", id);
		exit(2);
	}
}

static void die(const char *what)
{
	fprintf(stderr, "model-probe: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void pin(unsigned cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static unsigned long num(const char *s)
{
	char *e;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &e, 0);
	if (errno || *e || e == s) {
		fprintf(stderr, "model-probe: '%s' is not a number\n", s);
		exit(2);
	}
	return v;
}

static int stride(unsigned id, unsigned cpu, size_t bytes, unsigned passes, unsigned touch_cpu)
{
	volatile const uint8_t *buf;
	uint64_t sum = 0;
	uint8_t *p;

	pin(touch_cpu);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	memset(p, 1, bytes);
	pin(cpu);
	buf = p;
	mark(true, id);
	for (unsigned i = 0; i < passes; i++)
		for (size_t off = 0; off < bytes; off += 64)
			sum += buf[off];
	mark(false, id);
	munmap(p, bytes);
	return sum == (uint64_t)passes * (bytes / 64) ? 0 : 1;
}

struct pingpong {
	_Alignas(64) volatile unsigned turn;	/* whose turn: 0 or 1; 3: done */
	unsigned turns, cpu;
};

static void wait_turn(struct pingpong *pp, unsigned me)
{
	while (pp->turn != me)
		__builtin_ia32_pause();
}

static void *pong(void *arg)
{
	struct pingpong *pp = arg;

	pin(pp->cpu);
	for (unsigned i = 0; i < pp->turns; i++) {
		wait_turn(pp, 1);
		pp->turn = 0;
	}
	/* Exit only after the window: a thread's exit is work of its own. */
	wait_turn(pp, 3);
	return NULL;
}

static int pingpong(unsigned id, unsigned cpu_a, unsigned cpu_b, unsigned turns)
{
	static struct pingpong pp;
	pthread_t t;

	pin(cpu_a);
	pp.turn = 2;	/* nobody's until the window is open */
	pp.turns = turns;
	pp.cpu = cpu_b;
	if ((errno = pthread_create(&t, NULL, pong, &pp)))
		die("pthread_create");
	mark(true, id);
	pp.turn = 0;
	for (unsigned i = 0; i < turns; i++) {
		wait_turn(&pp, 0);
		pp.turn = 1;
	}
	wait_turn(&pp, 0);	/* the other thread's last turn */
	mark(false, id);
	pp.turn = 3;
	pthread_join(t, NULL);
	return 0;
}

static int atomic(unsigned id, unsigned cpu, const char *kind, unsigned long n)
{
	static union {
		_Alignas(64) volatile unsigned __int128 pair;
		volatile uint64_t word[2];
	} mem;
	volatile uint64_t *word = mem.word;
	uint64_t v = 0;

	pin(cpu);
	if (!strcmp(kind, "add")) {
		mark(true, id);
		for (unsigned long i = 0; i < n; i++)
			__asm__ __volatile__("lock addq $1, %0" : "+m"(word[0]));
		mark(false, id);
	} else if (!strcmp(kind, "xchg")) {
		mark(true, id);
		for (unsigned long i = 0; i < n; i++)
			__asm__ __volatile__("xchgq %0, %1" : "+r"(v), "+m"(word[0]));
		mark(false, id);
	} else if (!strcmp(kind, "cmpxchg16b")) {
		mark(true, id);
		for (unsigned long i = 0; i < n; i++) {
			uint64_t lo = word[0], hi = word[1];

			__asm__ __volatile__("lock cmpxchg16b %0"
					     : "+m"(mem.pair), "+a"(lo), "+d"(hi)
					     : "b"(lo + 1), "c"(hi)
					     : "cc");
		}
		mark(false, id);
	} else if (!strcmp(kind, "plain")) {
		mark(true, id);
		for (unsigned long i = 0; i < n; i++)
			__asm__ __volatile__("addq $1, %0" : "+m"(word[0]));
		mark(false, id);
	} else {
		fprintf(stderr, "model-probe: unknown atomic kind '%s'\n", kind);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && !strcmp(argv[1], "stride"))
		return stride(num(argv[2]), num(argv[3]), num(argv[4]), num(argv[5]),
			      argc > 6 ? num(argv[6]) : num(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "pingpong"))
		return pingpong(num(argv[2]), num(argv[3]), num(argv[4]), num(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "atomic"))
		return atomic(num(argv[2]), num(argv[3]), argv[4], num(argv[5]));
	fprintf(stderr, "usage: model-probe stride WINDOW CPU BYTES PASSES [TOUCH_CPU]\n"
			"       model-probe pingpong WINDOW CPU_A CPU_B TURNS\n"
			"       model-probe atomic WINDOW CPU add|xchg|cmpxchg16b|plain N\n");
	return 2;
}
