/* A filter that makes x86 code pack better: each near call (E8 rel32) whose displacement is
 * within 16 MiB gets its target as an offset from the start of the buffer instead, so that
 * calls to one function read the same wherever they are and DEFLATE finds them as repeats.
 * The conversion is a bijection on [-2^24, 2^24) (addition modulo 2^25), so any bytes, code
 * or not, come back exactly; scripts/mkfd encodes the QEMU core's code before packing it and
 * the reset stage decodes it after unpacking. Pure: no globals, no allocation. */
#ifndef EMBER_CALL_FILTER_H
#define EMBER_CALL_FILTER_H

#include <stddef.h>
#include <stdint.h>

/* Converts the calls of code[0..size) to buffer offsets (what mkfd does, for tests). */
void call_filter_encode(uint8_t *code, size_t size);
/* Converts them back to displacements. */
void call_filter_decode(uint8_t *code, size_t size);

#endif
