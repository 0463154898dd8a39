/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the model clock needs to know of an x86-64 instruction, from its
 * bytes: is it a window marker (model-clock-marker.h), is it a locked
 * read-modify-write.
 */
#ifndef SLEEB_MODEL_CLOCK_INSN_CLASS_H
#define SLEEB_MODEL_CLOCK_INSN_CLASS_H

#include <stddef.h>
#include <stdint.h>

enum insn_class {
	INSN_PLAIN,
	INSN_LOCKED,	/* lock prefix, xchg with memory, cmpxchg8b/16b */
	INSN_MARKER,	/* *op and *id are set */
};

enum insn_class insn_classify(const uint8_t *b, size_t n, unsigned *op, unsigned *id);

#endif
