/* The UEFI compression encoder (tools/lib/uefi_compress.c) round-tripped through the
 * firmware's decoder on many inputs: empty, one byte, zeros, random bytes, text, repeats
 * at the window's edge, and the PE files of the build. It must also compress: text and PE
 * files to well under their size. Damaging its output anywhere is refused or decodes
 * within bounds (under ASan). */
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/test.h"
#include <ember/lib/uefi_decompress.h>
#include <ember/tools/uefi_compress.h>

static uint32_t next_random(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static enum uefi_decompress_result decode(const uint8_t *in, size_t size, uint8_t **out,
					  uint32_t *out_size)
{
	uint32_t need;
	enum uefi_decompress_result r = uefi_decompress_get_info(in, size, out_size, &need);
	void *scratch;

	if (r != UEFI_DECOMPRESS_OK)
		return r;
	*out = malloc(*out_size ? *out_size : 1);
	scratch = malloc(need);
	r = uefi_decompress(in, size, *out, *out_size, scratch, need);
	free(scratch);
	return r;
}

/* Compresses and decompresses; true when the data comes back. The ratio in *ratio_pct. */
static bool round_trips(const uint8_t *data, size_t size, unsigned *ratio_pct)
{
	size_t packed_size;
	uint8_t *packed = uefi_compress(data, size, &packed_size), *out = NULL;
	uint32_t out_size = 0;
	bool ok = packed && decode(packed, packed_size, &out, &out_size) == UEFI_DECOMPRESS_OK &&
		  out_size == size && memcmp(out, data, size) == 0;

	if (ratio_pct && size)
		*ratio_pct = (unsigned)(packed_size * 100 / size);
	free(out);
	free(packed);
	return ok;
}

TEST(uefi_compress_round_trips)
{
	const size_t size = 200000;
	uint8_t *data = malloc(size);
	uint32_t x = 2463534242u;
	unsigned ratio = 0;

	EXPECT(round_trips(data, 0, NULL));
	data[0] = 'x';
	EXPECT(round_trips(data, 1, NULL));
	memset(data, 0, size);
	EXPECT(round_trips(data, size, &ratio));
	EXPECT(ratio < 1);
	for (size_t i = 0; i < size; i++)
		data[i] = (uint8_t)next_random(&x);
	EXPECT(round_trips(data, size, &ratio));
	EXPECT(ratio <= 101); /* random data barely grows */
	for (size_t i = 0; i < size; i++)
		data[i] = (uint8_t)("The firmware loads the driver from the option ROM. "[i % 51] +
				    (next_random(&x) % 97 == 0));
	EXPECT(round_trips(data, size, &ratio));
	EXPECT(ratio < 10);
	/* Repeats at distances around the window's edge (8191 reachable, 8192 not). */
	for (size_t i = 0; i < size; i++)
		data[i] = i < 8192 ? (uint8_t)next_random(&x) : data[i - 8191 - (i / 5000) % 3];
	EXPECT(round_trips(data, size, NULL));
	/* Short inputs of few symbols: lone codes in every set. */
	for (size_t n = 1; n < 40; n++) {
		for (size_t i = 0; i < n; i++)
			data[i] = (uint8_t)(i % 3 == 0 ? 'a' : 'b' + (n & 1));
		EXPECT(round_trips(data, n, NULL));
	}
	free(data);
}

static uint8_t *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	data = malloc(n > 0 ? (size_t)n : 1);
	if (fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	*size = (size_t)n;
	fclose(f);
	return data;
}

/* The applications and gnu-efi programs the Makefile builds beside this binary. */
TEST(uefi_compress_pe_files)
{
	char exe[PATH_MAX], pattern[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	glob_t found = {0};
	unsigned ratio = 0;

	ASSERT(n > 0);
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	/* build/unit-tests, or build/cov/unit-tests under make coverage: the programs are in
	 * build/, the directory of the executable or the one above it. */
	snprintf(pattern, sizeof(pattern), "%s/apps/*.efi", exe);
	glob(pattern, 0, NULL, &found);
	snprintf(pattern, sizeof(pattern), "%s/tests/programs/*.efi", exe);
	glob(pattern, GLOB_APPEND, NULL, &found);
	snprintf(pattern, sizeof(pattern), "%s/../apps/*.efi", exe);
	glob(pattern, GLOB_APPEND, NULL, &found);
	snprintf(pattern, sizeof(pattern), "%s/../tests/programs/*.efi", exe);
	glob(pattern, GLOB_APPEND, NULL, &found);
	EXPECT(found.gl_pathc >= 8);
	for (size_t i = 0; i < found.gl_pathc; i++) {
		size_t size;
		uint8_t *data = read_all(found.gl_pathv[i], &size);
		bool ok = data && round_trips(data, size, &ratio);
		test_check(ok && ratio < 85, found.gl_pathv[i], __FILE__, __LINE__, false);
		free(data);
	}
	globfree(&found);
}

/* Every byte of a small stream changed in turn: refused, or decoded within bounds. */
TEST(uefi_compress_damage_is_bounded)
{
	const char *text = "option ROM option ROM driver driver driver EFI EFI EFI image";
	size_t size;
	uint8_t *packed = uefi_compress((const uint8_t *)text, strlen(text), &size);
	uint32_t refused = 0;

	ASSERT(packed != NULL);
	for (size_t at = 0; at < size; at++) {
		for (unsigned flip = 1; flip < 256; flip <<= 1) {
			uint8_t *out = NULL;
			uint32_t out_size;
			packed[at] ^= (uint8_t)flip;
			if (decode(packed, size, &out, &out_size) != UEFI_DECOMPRESS_OK)
				refused++;
			packed[at] ^= (uint8_t)flip;
			free(out);
		}
	}
	EXPECT(refused > size * 2); /* most damage is noticed */
	free(packed);
}
