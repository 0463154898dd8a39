/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement windows of the model clock (model-clock/model-clock.so, a
 * QEMU TCG plugin): a guest marks the start and the end of a measured
 * region with these markers, and the plugin prints what every vCPU did
 * in between.
 *
 * A marker is a 7-byte NOP, `nopl DISP32(%rax)` (0f 1f 80 + disp32), whose
 * displacement carries a magic value, the operation and the window's id;
 * the plugin recognises it from the instruction bytes when it translates
 * the code. On hardware, and under QEMU without the plugin, it does
 * nothing (a 7-byte NOP, no register or memory touched).
 *
 * Plain C with inline assembly and no includes, so that both guest
 * userspace and kernel code (kernel/modules/sleeb_bench) can include it.
 * The id must be a compile-time constant from 0 to MODEL_CLOCK_MAX_ID.
 *
 * Windows are global and counted: a window is open from its first START
 * to the END that balances the STARTs (from any vCPUs), and while it is
 * open every vCPU's events count towards it.
 */
#ifndef SLEEB_MODEL_CLOCK_MARKER_H
#define SLEEB_MODEL_CLOCK_MARKER_H

#define MODEL_CLOCK_MAGIC	0x5eeb0000u	/* top 16 bits of the disp32 */
#define MODEL_CLOCK_MAGIC_MASK	0xffff0000u
#define MODEL_CLOCK_OP_SHIFT	12
#define MODEL_CLOCK_OP_START	0u
#define MODEL_CLOCK_OP_END	1u
#define MODEL_CLOCK_MAX_ID	0xfffu

#define MODEL_CLOCK_DISP(op, id) \
	(MODEL_CLOCK_MAGIC | ((op) << MODEL_CLOCK_OP_SHIFT) | ((id) & MODEL_CLOCK_MAX_ID))

#if defined(__x86_64__)
/* The "memory" clobber keeps the compiler from moving accesses across it. */
#define MODEL_CLOCK_MARK(op, id)					\
	__asm__ __volatile__("nopl %c0(%%rax)"				\
			     : : "i"(MODEL_CLOCK_DISP(op, id)) : "memory")
#else
#define MODEL_CLOCK_MARK(op, id) do { } while (0)
#endif

#define MODEL_CLOCK_START(id) MODEL_CLOCK_MARK(MODEL_CLOCK_OP_START, id)
#define MODEL_CLOCK_END(id) MODEL_CLOCK_MARK(MODEL_CLOCK_OP_END, id)

#endif
