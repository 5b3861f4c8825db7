/* The UEFI compression algorithm's encoder (UEFI 2.10, chapter 19), for host tools: LZ77
 * over the format's 8 KiB window with hash chains and lazy matching, then the format's
 * canonical Huffman codes per block. Output decodes with lib/uefi_decompress.c and with
 * any firmware's EFI_DECOMPRESS_PROTOCOL. */
#ifndef EMBER_TOOLS_UEFI_COMPRESS_H
#define EMBER_TOOLS_UEFI_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Compresses in[0..size) into a new buffer (free() it), header included; its length in
 * *out_size. NULL when memory runs out or size does not fit the header's 32 bits. */
uint8_t *uefi_compress(const uint8_t *in, size_t size, size_t *out_size);

#endif
