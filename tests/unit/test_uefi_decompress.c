/* The UEFI decompressor (lib/uefi_decompress.c) on streams written bit by bit from the
 * format's description (UEFI 2.10, 19.2), independent of Ember's encoder: a lone
 * character set, two-symbol codes with the Extra set's zero runs, overlapping strings;
 * and the refusals: truncated data, incomplete codes, strings before the start or past the
 * end, small buffers. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/uefi_decompress.h>

/* A stream being written: the header's sizes are filled in by finish(). */
struct stream {
	uint8_t buf[256];
	size_t bits;
};

static void put(struct stream *s, unsigned n, uint32_t v)
{
	while (n--) {
		if (v >> n & 1)
			s->buf[8 + s->bits / 8] |= (uint8_t)(0x80 >> (s->bits % 8));
		s->bits++;
	}
}

/* Sets the sizes; returns the stream's length (header, data and the zero terminator). */
static size_t finish(struct stream *s, uint32_t orig)
{
	uint32_t comp = (uint32_t)((s->bits + 7) / 8 + 1);

	for (int i = 0; i < 4; i++) {
		s->buf[i] = (uint8_t)(comp >> (8 * i));
		s->buf[4 + i] = (uint8_t)(orig >> (8 * i));
	}
	return 8 + comp;
}

static enum uefi_decompress_result run(const struct stream *s, size_t size, uint8_t *out,
				       size_t out_size)
{
	uint32_t dst, scratch_size;
	enum uefi_decompress_result r;
	void *scratch;

	r = uefi_decompress_get_info(s->buf, size, &dst, &scratch_size);
	if (r != UEFI_DECOMPRESS_OK)
		return r;
	scratch = malloc(scratch_size);
	r = uefi_decompress(s->buf, size, out, out_size, scratch, scratch_size);
	free(scratch);
	return r;
}

/* A block whose Char&Len set is the one symbol `symbol`, repeated `count` times. */
static void lone_symbol_block(struct stream *s, unsigned count, unsigned symbol)
{
	put(s, 16, count);
	put(s, 5, 0), put(s, 5, 0); /* Extra set: none */
	put(s, 9, 0), put(s, 9, symbol);
	put(s, 4, 0), put(s, 4, 0); /* Position set: none */
}

TEST(uefi_decompress_lone_character)
{
	struct stream s = {0};
	uint8_t out[8];
	size_t size;

	lone_symbol_block(&s, 3, 'A');
	size = finish(&s, 3);
	EXPECT_EQ(run(&s, size, out, sizeof(out)), UEFI_DECOMPRESS_OK);
	EXPECT(memcmp(out, "AAA", 3) == 0);
	/* A lone symbol outside the set (510, 511 fit in 9 bits) is refused when used. */
	s = (struct stream){0};
	lone_symbol_block(&s, 1, 511);
	EXPECT_EQ(run(&s, finish(&s, 1), out, sizeof(out)), UEFI_DECOMPRESS_BAD_SYMBOL);
	/* A block of zero symbols. */
	s = (struct stream){0};
	lone_symbol_block(&s, 0, 'A');
	EXPECT_EQ(run(&s, finish(&s, 1), out, sizeof(out)), UEFI_DECOMPRESS_BAD_TABLE);
}

/* 'a' and the string of length 3 (symbol 256) with 1-bit codes 0 and 1: the Char&Len
 * lengths as Extra symbols 2 (97 zeros), 3 (length 1), 2 (158 zeros), 3. The Extra set has
 * lengths 0, 0, 1, then the 2-bit zero count 0, then 1. Positions: the lone value 0. */
static void two_symbol_header(struct stream *s, unsigned count, unsigned position_bits)
{
	put(s, 16, count);
	put(s, 5, 4);
	put(s, 3, 0), put(s, 3, 0), put(s, 3, 1), put(s, 2, 0), put(s, 3, 1);
	put(s, 9, 257);
	put(s, 1, 0), put(s, 9, 97 - 20); /* Extra 2 (code 0): 97 zeros */
	put(s, 1, 1);			  /* Extra 3 (code 1): length 1 */
	put(s, 1, 0), put(s, 9, 158 - 20);
	put(s, 1, 1);
	put(s, 4, 0), put(s, 4, position_bits);
}

TEST(uefi_decompress_overlapping_string)
{
	struct stream s = {0};
	uint8_t out[16];
	size_t size;

	two_symbol_header(&s, 3, 0);
	put(&s, 1, 0), put(&s, 1, 1), put(&s, 1, 1); /* 'a', then "aaa" twice */
	size = finish(&s, 7);
	EXPECT_EQ(run(&s, size, out, sizeof(out)), UEFI_DECOMPRESS_OK);
	EXPECT(memcmp(out, "aaaaaaa", 7) == 0);
	/* A string past the original size, or a destination smaller than it. */
	s.buf[4] = 6;
	EXPECT_EQ(run(&s, size, out, sizeof(out)), UEFI_DECOMPRESS_BAD_POINTER);
	s.buf[4] = 7;
	EXPECT_EQ(run(&s, size, out, 6), UEFI_DECOMPRESS_BAD_BUFFER);
	/* A string before the start. */
	s = (struct stream){0};
	two_symbol_header(&s, 1, 0);
	put(&s, 1, 1);
	EXPECT_EQ(run(&s, finish(&s, 3), out, sizeof(out)), UEFI_DECOMPRESS_BAD_POINTER);
	/* Position bit length 14 is outside the Position set (14 values). */
	s = (struct stream){0};
	two_symbol_header(&s, 2, 14);
	put(&s, 1, 0), put(&s, 1, 1);
	EXPECT_EQ(run(&s, finish(&s, 4), out, sizeof(out)), UEFI_DECOMPRESS_BAD_SYMBOL);
}

TEST(uefi_decompress_refuses_bad_tables)
{
	struct stream s = {0};
	uint8_t out[16];

	/* Extra set lengths 1, 1, 1: over-subscribed. */
	put(&s, 16, 1), put(&s, 5, 3), put(&s, 3, 1), put(&s, 3, 1), put(&s, 3, 1), put(&s, 2, 0);
	EXPECT_EQ(run(&s, finish(&s, 1), out, sizeof(out)), UEFI_DECOMPRESS_BAD_TABLE);
	/* One length of 1: incomplete. */
	s = (struct stream){0};
	put(&s, 16, 1), put(&s, 5, 1), put(&s, 3, 1);
	EXPECT_EQ(run(&s, finish(&s, 1), out, sizeof(out)), UEFI_DECOMPRESS_BAD_TABLE);
	/* More lengths than the Extra set has symbols. */
	s = (struct stream){0};
	put(&s, 16, 1), put(&s, 5, 20);
	EXPECT_EQ(run(&s, finish(&s, 1), out, sizeof(out)), UEFI_DECOMPRESS_BAD_TABLE);
	/* A length over 16 bits: 3 bits of 7 then ten 1s. */
	s = (struct stream){0};
	put(&s, 16, 1), put(&s, 5, 1), put(&s, 3, 7), put(&s, 10, 0x3ff), put(&s, 1, 0);
	EXPECT_EQ(run(&s, finish(&s, 1), out, sizeof(out)), UEFI_DECOMPRESS_BAD_TABLE);
}

TEST(uefi_decompress_refuses_truncation)
{
	struct stream s = {0};
	uint8_t out[16];
	size_t size;

	two_symbol_header(&s, 3, 0);
	put(&s, 1, 0), put(&s, 1, 1), put(&s, 1, 1);
	size = finish(&s, 7);
	/* The data without its terminator still decodes; without more, it needs bits past
	 * the compressed size, which read as zeros but are refused. */
	s.buf[0]--;
	EXPECT_EQ(run(&s, size - 1, out, sizeof(out)), UEFI_DECOMPRESS_OK);
	s.buf[0] -= 2;
	EXPECT_EQ(run(&s, size - 3, out, sizeof(out)), UEFI_DECOMPRESS_TRUNCATED);
	/* A compressed size beyond the buffer; a buffer shorter than the header. */
	s.buf[0] += 3;
	EXPECT_EQ(run(&s, size - 1, out, sizeof(out)), UEFI_DECOMPRESS_BAD_HEADER);
	EXPECT_EQ(run(&s, 7, out, sizeof(out)), UEFI_DECOMPRESS_BAD_HEADER);
	/* An empty original needs no block at all. */
	s = (struct stream){0};
	EXPECT_EQ(run(&s, finish(&s, 0), out, 0), UEFI_DECOMPRESS_OK);
}

TEST(uefi_decompress_scratch_any_alignment)
{
	struct stream s = {0};
	uint32_t dst, need;
	uint8_t out[8], *scratch;
	size_t size;

	lone_symbol_block(&s, 3, 'B');
	size = finish(&s, 3);
	ASSERT_EQ(uefi_decompress_get_info(s.buf, size, &dst, &need), UEFI_DECOMPRESS_OK);
	EXPECT_EQ(dst, 3);
	scratch = malloc(need + 1);
	EXPECT_EQ(uefi_decompress(s.buf, size, out, 3, scratch + 1, need), UEFI_DECOMPRESS_OK);
	EXPECT_EQ(uefi_decompress(s.buf, size, out, 3, scratch + 1, need - 1),
		  UEFI_DECOMPRESS_BAD_BUFFER);
	free(scratch);
}

/* An Extra set of exactly three lengths (1, 2, 2) still carries the 2-bit zero count after
 * its third, and an encoder may count zeros past the array's end (EDK II's counts up to
 * the 6th length): accepted, since those lengths are zero anyway. */
TEST(uefi_decompress_extra_zeros_past_the_array)
{
	struct stream s = {0};
	uint8_t out[4];

	put(&s, 16, 2);
	put(&s, 5, 3), put(&s, 3, 1), put(&s, 3, 2), put(&s, 3, 2), put(&s, 2, 3);
	put(&s, 9, 0), put(&s, 9, 'x'); /* the lone 'x': the Extra code goes unused */
	put(&s, 4, 0), put(&s, 4, 0);
	EXPECT_EQ(run(&s, finish(&s, 2), out, sizeof(out)), UEFI_DECOMPRESS_OK);
	EXPECT(out[0] == 'x' && out[1] == 'x');
}
