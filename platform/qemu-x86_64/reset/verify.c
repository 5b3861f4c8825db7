/* The reset stage's check of the firmware before anything from it runs (the verified
 * start): the packed core against the Fletcher-style sum scripts/mkfd put in the core
 * descriptor, and the firmware volume's header (signature, length, revision, checksum) at
 * its fixed place. A sum, not a digest: two adds per 4 bytes (about 0.2 ms of virtual time
 * for the 340 KiB packed core, where SHA-256 would cost tens), and it catches any
 * changed byte and most reorderings; it does not stand against someone who rewrites the
 * sum too (the digest and signature of issue 16 would). The volume's files carry their own
 * checksums, checked by the DXE core before it runs one (core/fv). Runs from flash: no
 * writable data. */
#include <stdint.h>
#include "layout.h"

#define FVH_SIGNATURE 0x4856465f /* "_FVH" */
#define FVH_MIN_HEADER 64
#define FVH_MAX_HEADER 0x1000

const char *reset_verify(const uint8_t *descriptor);

static uint64_t read64(const uint8_t *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

/* Two 32-bit sums over the little-endian words of data (size a multiple of 8): the plain
 * sum and the sum of the running sums. */
static uint64_t packed_sum(const uint32_t *words, uint64_t count)
{
	uint32_t sum1 = 0, sum2 = 0;

	/* Unrolled: the loop's own instructions are a third of its cost otherwise. */
#pragma clang loop unroll_count(4)
	for (uint64_t i = 0; i < count; i += 2) {
		sum1 += words[i];
		sum2 += sum1;
		sum1 += words[i + 1];
		sum2 += sum1;
	}
	return (uint64_t)sum2 << 32 | sum1;
}

static int volume_header_ok(const uint8_t *fv)
{
	uint32_t signature;
	uint16_t length, sum = 0;

	__builtin_memcpy(&signature, fv + 40, sizeof(signature));
	__builtin_memcpy(&length, fv + 48, sizeof(length));
	if (signature != FVH_SIGNATURE || read64(fv + 32) != FW_VOLUME_SIZE || fv[55] != 2 ||
	    length < FVH_MIN_HEADER || length > FVH_MAX_HEADER || length % 2)
		return 0;
	for (uint16_t i = 0; i < length; i += 2)
		sum = (uint16_t)(sum + (fv[i] | fv[i + 1] << 8));
	return sum == 0;
}

/* NULL when the image is whole, else the message to show before stopping. */
const char *reset_verify(const uint8_t *descriptor)
{
	uint64_t flash = read64(descriptor + CORE_FLASH);
	uint64_t size = (read64(descriptor + CORE_PACKED_SIZE) + 7) & ~7ull;

	if (flash < FW_VOLUME_BASE || flash % 8 || size > RESET_BLOB_BASE - flash ||
	    packed_sum((const uint32_t *)(uintptr_t)flash, size / 4) !=
		read64(descriptor + CORE_PACKED_SUM))
		return "Ember: the firmware image is damaged: the packed core's checksum is "
		       "wrong; stopping\r\n";
	if (!volume_header_ok((const uint8_t *)(uintptr_t)FW_VOLUME_BASE))
		return "Ember: the firmware image is damaged: the firmware volume's header is "
		       "wrong; stopping\r\n";
	return 0;
}
