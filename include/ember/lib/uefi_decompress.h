/* The UEFI compression format (UEFI 2.10, chapter 19): a header of two little-endian
 * 32-bit sizes (compressed data after the header, original data), then blocks of LZ77
 * characters and pointers, Huffman coded. The decoder is pure: it works in the caller's
 * destination and scratch buffers, bounded by the sizes it is given. */
#ifndef EMBER_UEFI_DECOMPRESS_H
#define EMBER_UEFI_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

#define UEFI_COMPRESS_HEADER_SIZE 8

/* Constants of the format (19.2): a 13-bit window, strings of 3 to 256 characters. */
#define UEFI_COMPRESS_WNDBIT 13
#define UEFI_COMPRESS_MAX_POSITION ((1u << UEFI_COMPRESS_WNDBIT) - 2) /* 8190 */
#define UEFI_COMPRESS_MIN_MATCH 3
#define UEFI_COMPRESS_MAX_MATCH 256
#define UEFI_COMPRESS_NC 510 /* Char&Len set: 256 characters and 254 string lengths */
#define UEFI_COMPRESS_NP 14  /* Position set: bit lengths 0..13 of a string position */
#define UEFI_COMPRESS_NT 19  /* Extra set: codes of the Char&Len code lengths */
#define UEFI_COMPRESS_CBIT 9
#define UEFI_COMPRESS_PBIT 4
#define UEFI_COMPRESS_TBIT 5
#define UEFI_COMPRESS_MAX_CODE_BITS 16

enum uefi_decompress_result {
	UEFI_DECOMPRESS_OK,
	UEFI_DECOMPRESS_BAD_HEADER,  /* shorter than its header, or sizes that exceed it */
	UEFI_DECOMPRESS_BAD_BUFFER,  /* destination or scratch smaller than get_info says */
	UEFI_DECOMPRESS_BAD_TABLE,   /* a code length array that is no complete code */
	UEFI_DECOMPRESS_BAD_SYMBOL,  /* a symbol its set lacks */
	UEFI_DECOMPRESS_BAD_POINTER, /* a string before the start or past the end */
	UEFI_DECOMPRESS_TRUNCATED,   /* the data ends before the original size is reached */
};

/* Reads the header of src[0..src_size): the original size and the scratch size
 * uefi_decompress needs. Fails (BAD_HEADER) when src_size cannot hold the header and the
 * compressed size it gives. */
enum uefi_decompress_result uefi_decompress_get_info(const void *src, size_t src_size,
						     uint32_t *dst_size, uint32_t *scratch_size);

/* Decompresses src[0..src_size) into dst (dst_size at least the original size), with
 * scratch[0..scratch_size) (any alignment) for its tables. Never reads past the compressed
 * size nor writes past the original size; dst's content is undefined on failure. */
enum uefi_decompress_result uefi_decompress(const void *src, size_t src_size, void *dst,
					    size_t dst_size, void *scratch, size_t scratch_size);

/* A short English description of a result, for log lines. */
const char *uefi_decompress_result_name(enum uefi_decompress_result result);

#endif
