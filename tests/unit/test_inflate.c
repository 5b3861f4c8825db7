/* DEFLATE decompression (lib/inflate.c) against zlib as the oracle: stored, fixed and
 * dynamic blocks, long matches and overlapping copies; and malformed streams refused. */
#include <stdio.h>
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

/* ---- Hand-made streams, each checked against zlib's verdict ---- */

/* A DEFLATE stream being written: fields first bit lowest, Huffman codes first bit
 * highest (RFC 1951, 3.1.1). */
struct bit_writer {
	uint8_t buf[512];
	size_t bits;
};

static void put_bits(struct bit_writer *w, uint32_t value, unsigned n)
{
	for (unsigned i = 0; i < n; i++, w->bits++)
		if (value >> i & 1)
			w->buf[w->bits / 8] |= (uint8_t)(1u << (w->bits % 8));
}

static void put_code(struct bit_writer *w, uint32_t code, unsigned len)
{
	while (len--)
		put_bits(w, code >> len & 1, 1);
}

static size_t bytes_of(const struct bit_writer *w)
{
	return (w->bits + 7) / 8;
}

/* The fixed literal/length code of a symbol (RFC 1951, 3.2.6). */
static void put_fixed(struct bit_writer *w, unsigned sym)
{
	if (sym < 144)
		put_code(w, 0x30 + sym, 8);
	else if (sym < 256)
		put_code(w, 0x190 + sym - 144, 9);
	else if (sym < 280)
		put_code(w, sym - 256, 7);
	else
		put_code(w, 0xc0 + sym - 280, 8);
}

/* Whether zlib inflates the raw stream completely into out_size bytes. */
static bool zlib_inflates(const uint8_t *in, size_t n, size_t out_size)
{
	z_stream z = {0};
	uint8_t *out = malloc(out_size + 1);
	int ret;

	if (!out || inflateInit2(&z, -15) != Z_OK)
		abort();
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)out_size;
	ret = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	free(out);
	return ret == Z_STREAM_END;
}

/* Ours and zlib agree, and `accepted` is their verdict. */
static bool verdict(const struct bit_writer *w, size_t out_size, bool accepted)
{
	uint8_t out[600];
	size_t produced;
	bool ours = inflate_raw(w->buf, bytes_of(w), out, out_size, &produced);
	bool theirs = zlib_inflates(w->buf, bytes_of(w), out_size);

	if (ours == accepted && theirs == accepted)
		return true;
	printf("    inflate_raw %s, zlib %s, expected %s\n", ours ? "accepts" : "refuses",
	       theirs ? "accepts" : "refuses", accepted ? "accepted" : "refused");
	return false;
}

TEST(inflate_fixed_block_limits)
{
	struct bit_writer w = {0};

	/* "ab" then the end of block: fits in two bytes, not in one. */
	put_bits(&w, 1, 1), put_bits(&w, 1, 2);
	put_fixed(&w, 'a'), put_fixed(&w, 'b'), put_fixed(&w, 256);
	EXPECT(verdict(&w, 2, true));
	EXPECT(verdict(&w, 1, false));
	/* Length symbols 286 and 287 exist in the fixed code but mean nothing. */
	w = (struct bit_writer){0};
	put_bits(&w, 1, 1), put_bits(&w, 1, 2);
	put_fixed(&w, 'a'), put_fixed(&w, 286), put_fixed(&w, 256);
	EXPECT(verdict(&w, 16, false));
	/* So do distance symbols 30 and 31. */
	w = (struct bit_writer){0};
	put_bits(&w, 1, 1), put_bits(&w, 1, 2);
	put_fixed(&w, 'a'), put_fixed(&w, 257), put_code(&w, 30, 5), put_fixed(&w, 256);
	EXPECT(verdict(&w, 16, false));
	/* The same match at distance 1 is fine: "aaaa". */
	w = (struct bit_writer){0};
	put_bits(&w, 1, 1), put_bits(&w, 1, 2);
	put_fixed(&w, 'a'), put_fixed(&w, 257), put_code(&w, 0, 5), put_fixed(&w, 256);
	EXPECT(verdict(&w, 4, true));
}

TEST(inflate_stored_block_cut_short)
{
	struct bit_writer w = {0};

	put_bits(&w, 1, 1), put_bits(&w, 0, 2), put_bits(&w, 0, 5);
	put_bits(&w, 5, 16), put_bits(&w, 5 ^ 0xffff, 16);
	put_bits(&w, 'h', 8), put_bits(&w, 'i', 8);
	EXPECT(verdict(&w, 16, false)); /* two of five bytes */
	put_bits(&w, '!', 8), put_bits(&w, '!', 8), put_bits(&w, '!', 8);
	EXPECT(verdict(&w, 16, true));
	w.bits = 3 + 5 + 8; /* LEN cut in half (the rest of the buffer is ignored) */
	EXPECT(verdict(&w, 16, false));
}

/* A dynamic block's header; the code-length code gives each listed symbol its length, in
 * the order RFC 1951 3.2.7 stores them. */
static void dynamic_header(struct bit_writer *w, unsigned hlit, unsigned hdist,
			   const uint8_t codelen_lengths[19])
{
	static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
					  11, 4,  12, 3, 13, 2, 14, 1, 15};
	unsigned hclen = 19;

	while (hclen > 4 && !codelen_lengths[order[hclen - 1]])
		hclen--;
	put_bits(w, 1, 1), put_bits(w, 2, 2);
	put_bits(w, hlit, 5), put_bits(w, hdist, 5), put_bits(w, hclen - 4, 4);
	for (unsigned i = 0; i < hclen; i++)
		put_bits(w, codelen_lengths[order[i]], 3);
}

TEST(inflate_dynamic_header_limits)
{
	/* Code-length code: 18 (zeros) is "0", 1 is "10", 2 is "11". */
	uint8_t cl[19] = {0};
	struct bit_writer w = {0};

	cl[18] = 1, cl[1] = 2, cl[2] = 2;
	/* 287 or more literal/length codes, 31 or more distance codes: refused. */
	dynamic_header(&w, 30, 0, cl);
	EXPECT(verdict(&w, 16, false));
	w = (struct bit_writer){0};
	dynamic_header(&w, 0, 30, cl);
	EXPECT(verdict(&w, 16, false));
	/* Cut inside the code-length code's lengths. */
	w = (struct bit_writer){0};
	dynamic_header(&w, 0, 0, cl);
	w.bits -= 10;
	EXPECT(verdict(&w, 16, false));
	/* A code-length code with more codes than its lengths allow. */
	uint8_t over[19];
	memset(over, 1, sizeof(over));
	w = (struct bit_writer){0};
	dynamic_header(&w, 0, 0, over);
	EXPECT(verdict(&w, 16, false));
}

/* Literal/length lengths for 257 symbols and one distance length, written with the code
 * above: `body` decides what they are. */
static void dynamic_lengths(struct bit_writer *w, void (*body)(struct bit_writer *))
{
	uint8_t cl[19] = {0};

	cl[18] = 1, cl[1] = 2, cl[2] = 2;
	dynamic_header(w, 0, 0, cl);
	body(w);
}

static void zeros(struct bit_writer *w, unsigned n)
{
	put_code(w, 0, 1);
	put_bits(w, n - 11, 7);
}

/* 'a' and the end of block get length 1, one distance code: a valid block "a". */
static void valid_lengths(struct bit_writer *w)
{
	zeros(w, 97);
	put_code(w, 2, 2); /* 'a': length 1 */
	zeros(w, 138);
	zeros(w, 20);
	put_code(w, 2, 2); /* 256: length 1 */
	put_code(w, 2, 2); /* distance 0: length 1 */
	put_code(w, 0, 1); /* 'a' */
	put_code(w, 1, 1); /* end of block */
}

static void no_end_of_block(struct bit_writer *w)
{
	put_code(w, 2, 2), put_code(w, 2, 2); /* symbols 0 and 1 */
	zeros(w, 138);
	zeros(w, 117); /* up to and with 256 */
	put_code(w, 2, 2);
}

static void repeat_past_the_end(struct bit_writer *w)
{
	zeros(w, 138);
	zeros(w, 138); /* 276 of 258 */
}

static void repeat_cut_short(struct bit_writer *w)
{
	zeros(w, 138);
	put_code(w, 0, 1); /* 18 without its 7 bits */
}

TEST(inflate_dynamic_code_lengths)
{
	struct bit_writer w = {0};

	dynamic_lengths(&w, valid_lengths);
	EXPECT(verdict(&w, 1, true));
	w = (struct bit_writer){0};
	dynamic_lengths(&w, no_end_of_block);
	EXPECT(verdict(&w, 16, false));
	w = (struct bit_writer){0};
	dynamic_lengths(&w, repeat_past_the_end);
	EXPECT(verdict(&w, 16, false));
	w = (struct bit_writer){0};
	dynamic_lengths(&w, repeat_cut_short);
	EXPECT(verdict(&w, 16, false));

	/* 16 first: nothing to repeat. */
	uint8_t cl[19] = {0};
	cl[16] = 1, cl[1] = 2, cl[2] = 2;
	w = (struct bit_writer){0};
	dynamic_header(&w, 0, 0, cl);
	put_code(&w, 0, 1), put_bits(&w, 0, 2);
	EXPECT(verdict(&w, 16, false));
	/* An incomplete code-length code (only 1, as "0") and a code it lacks. */
	memset(cl, 0, sizeof(cl));
	cl[1] = 1;
	w = (struct bit_writer){0};
	dynamic_header(&w, 0, 0, cl);
	put_bits(&w, 0xffff, 16);
	put_bits(&w, 0xffff, 16);
	EXPECT(verdict(&w, 16, false));
}
