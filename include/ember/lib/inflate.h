/* DEFLATE decompression (RFC 1951, raw: no zlib or gzip wrapper). Pure and self-contained:
 * no globals, no allocation, so the QEMU reset stage can run it from flash to unpack the
 * core, with about 14 KiB of stack. */
#ifndef EMBER_INFLATE_H
#define EMBER_INFLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decompresses in[0..in_size) into out[0..out_size). True when the stream's final block
 * ended within the input and the output fit; *produced is then the output's length. False
 * for malformed streams (bad block type, bad code lengths, a distance before the start,
 * a stored length that does not match its complement), truncated input, and output that
 * would not fit. */
bool inflate_raw(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
		 size_t *produced);

#endif
