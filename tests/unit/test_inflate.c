/* DEFLATE decompression (lib/inflate.c) against zlib as the oracle: stored, fixed and
 * dynamic blocks, long matches and overlapping copies; and malformed streams refused. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "support/test.h"
#include <ember/lib/inflate.h>

/* Raw DEFLATE (no zlib header) of data, at a level and strategy; the length in *size. */
static uint8_t *deflate_with_zlib(const uint8_t *data, size_t length, int level, int strategy,
				  size_t *size)
{
	z_stream z = {0};
	size_t room = compressBound(length) + 64;
	uint8_t *out = malloc(room);

	if (!out || deflateInit2(&z, level, Z_DEFLATED, -15, 9, strategy) != Z_OK)
		abort();
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)length;
	z.next_out = out;
	z.avail_out = (uInt)room;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	*size = z.total_out;
	deflateEnd(&z);
	return out;
}

/* Text with repeats near and far, runs, and pseudo-random bytes. */
static uint8_t *sample(size_t length)
{
	uint8_t *data = malloc(length);
	uint32_t x = 12345;

	for (size_t i = 0; i < length; i++) {
		x = x * 1103515245 + 12345;
		if (i % 4096 < 1024)
			data[i] = (uint8_t)(x >> 16);
		else if (i % 4096 < 2048)
			data[i] = "the firmware boots the loader; "[i % 31];
		else if (i % 4096 < 3000)
			data[i] = 0;
		else
			data[i] = data[i - 3000 + (x >> 28)];
	}
	return data;
}

static bool round_trips(const uint8_t *data, size_t length, int level, int strategy)
{
	size_t packed_size, produced = 0;
	uint8_t *packed = deflate_with_zlib(data, length, level, strategy, &packed_size);
	uint8_t *out = malloc(length + 1);
	bool ok = inflate_raw(packed, packed_size, out, length, &produced) && produced == length &&
		  memcmp(out, data, length) == 0;

	free(out);
	free(packed);
	return ok;
}

TEST(inflate_matches_zlib)
{
	const size_t length = 300000;
	uint8_t *data = sample(length);

	EXPECT(round_trips(data, length, 0, Z_DEFAULT_STRATEGY)); /* stored blocks */
	EXPECT(round_trips(data, length, 1, Z_DEFAULT_STRATEGY));
	EXPECT(round_trips(data, length, 9, Z_DEFAULT_STRATEGY));
	EXPECT(round_trips(data, length, 9, Z_FIXED)); /* fixed Huffman codes */
	EXPECT(round_trips(data, length, 9, Z_RLE));   /* distance 1: overlapping copies */
	EXPECT(round_trips(data, length, 9, Z_HUFFMAN_ONLY));
	EXPECT(round_trips(data, 1, 9, Z_DEFAULT_STRATEGY));
	EXPECT(round_trips(data, 0, 9, Z_DEFAULT_STRATEGY));
	free(data);
}

TEST(inflate_refuses_bad_streams)
{
	const size_t length = 50000;
	uint8_t *data = sample(length), *out = malloc(length);
	size_t packed_size, produced;
	uint8_t *packed = deflate_with_zlib(data, length, 9, Z_DEFAULT_STRATEGY, &packed_size);
	static const uint8_t reserved_type[] = {0x07};				/* final, BTYPE 3 */
	static const uint8_t bad_complement[] = {0x01, 0x05, 0x00, 0xfa, 0xfe}; /* stored */
	/* Fixed codes: a match of length 3 at distance 1 before any output. */
	static const uint8_t before_start[] = {0x03, 0x02, 0x00};

	/* Truncated anywhere, or too little room for the output. */
	EXPECT(!inflate_raw(packed, packed_size / 2, out, length, &produced));
	EXPECT(!inflate_raw(packed, packed_size - 1, out, length, &produced));
	EXPECT(!inflate_raw(packed, packed_size, out, length - 1, &produced));
	EXPECT(inflate_raw(packed, packed_size, out, length, &produced) && produced == length);
	EXPECT(!inflate_raw(reserved_type, sizeof(reserved_type), out, length, &produced));
	EXPECT(!inflate_raw(bad_complement, sizeof(bad_complement), out, length, &produced));
	EXPECT(!inflate_raw(before_start, sizeof(before_start), out, length, &produced));
	EXPECT(!inflate_raw(NULL, 0, out, length, &produced));
	free(packed);
	free(out);
	free(data);
}
