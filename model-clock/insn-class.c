// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 instruction classes for the model clock. Only what decides the
 * class is decoded: legacy prefixes, REX, the opcode and the ModRM byte.
 */
#include "insn-class.h"

#include <stdbool.h>

#include "model-clock-marker.h"

static bool legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65:
	case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
		return true;
	default:
		return false;
	}
}

enum insn_class insn_classify(const uint8_t *b, size_t n, unsigned *op, unsigned *id)
{
	bool lock = false;
	size_t i = 0;

	/* The marker exactly as the header emits it: no prefix, disp32 form. */
	if (n == 7 && b[0] == 0x0f && b[1] == 0x1f && b[2] == 0x80) {
		uint32_t disp = (uint32_t)b[3] | (uint32_t)b[4] << 8 | (uint32_t)b[5] << 16 |
				(uint32_t)b[6] << 24;

		if ((disp & MODEL_CLOCK_MAGIC_MASK) == MODEL_CLOCK_MAGIC) {
			*op = (disp >> MODEL_CLOCK_OP_SHIFT) & 0xf;
			*id = disp & MODEL_CLOCK_MAX_ID;
			return INSN_MARKER;
		}
		return INSN_PLAIN;
	}

	for (; i < n && legacy_prefix(b[i]); i++)
		if (b[i] == 0xf0)
			lock = true;
	/* The CPU raises #UD for a lock prefix without a memory destination,
	 * so an executed locked instruction is a locked read-modify-write. */
	if (lock)
		return INSN_LOCKED;
	if (i < n && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (i + 1 >= n)
		return INSN_PLAIN;
	/* xchg r, r/m with a memory operand locks without a prefix. */
	if ((b[i] == 0x86 || b[i] == 0x87) && (b[i + 1] >> 6) != 3)
		return INSN_LOCKED;
	/* cmpxchg8b/16b (0f c7 /1, memory only), locked or not: SLUB's
	 * per-cpu fast path uses it without a lock prefix, and it is a
	 * microcoded instruction of tens of cycles either way. */
	if (b[i] == 0x0f && i + 2 < n && b[i + 1] == 0xc7 && ((b[i + 2] >> 3) & 7) == 1 &&
	    (b[i + 2] >> 6) != 3)
		return INSN_LOCKED;
	return INSN_PLAIN;
}
