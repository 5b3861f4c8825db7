/* Fuzzes the UEFI decompressor (lib/uefi_decompress.c), which unpacks compressed option
 * ROM images and serves EFI_DECOMPRESS_PROTOCOL: any bytes as a stream, decoded into a
 * buffer of exactly the size its header gives (up to 1 MiB) with exactly the scratch it
 * asks for, so that any access past either is caught. Then the same bytes as data for the
 * encoder (tools/lib/uefi_compress.c): its output must decode back to them. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/lib/uefi_decompress.h>
#include <ember/tools/uefi_compress.h>

#define MAX_OUTPUT (1u << 20)

static enum uefi_decompress_result decode(const uint8_t *data, size_t size, uint8_t **out,
					  uint32_t *out_size)
{
	uint32_t need;
	enum uefi_decompress_result r;
	uint8_t *in = malloc(size ? size : 1), *scratch;

	if (!in)
		abort();
	memcpy(in, data, size);
	*out = NULL;
	r = uefi_decompress_get_info(in, size, out_size, &need);
	if (r == UEFI_DECOMPRESS_OK && *out_size <= MAX_OUTPUT) {
		*out = malloc(*out_size ? *out_size : 1);
		scratch = malloc(need);
		if (!*out || !scratch)
			abort();
		r = uefi_decompress(in, size, *out, *out_size, scratch, need);
		free(scratch);
	} else if (r == UEFI_DECOMPRESS_OK) {
		r = UEFI_DECOMPRESS_BAD_BUFFER;
	}
	free(in);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *out, *packed;
	uint32_t out_size;
	size_t packed_size;

	decode(data, size, &out, &out_size);
	free(out);
	packed = uefi_compress(data, size, &packed_size);
	if (!packed)
		abort();
	if (decode(packed, packed_size, &out, &out_size) != UEFI_DECOMPRESS_OK ||
	    out_size != size || memcmp(out, data, size) != 0)
		abort();
	free(out);
	free(packed);
	return 0;
}
