/* The call filter (lib/call_filter.c) that scripts/mkfd applies to the QEMU core's code:
 * known conversions, the bytes it must leave alone, and exact round trips on any bytes. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/call_filter.h>

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

TEST(call_filter_converts_near_calls_to_offsets)
{
	uint8_t code[64];

	memset(code, 0x90, sizeof(code));
	code[0] = 0xe8; /* call +0x10 from offset 0: target 0x15 */
	put32(code + 1, 0x10);
	code[16] = 0xe8; /* call -32 from offset 16: target -11 */
	put32(code + 17, (uint32_t)-32);
	code[24] = 0xe8; /* a displacement beyond 16 MiB: left alone */
	put32(code + 25, 0x7fffff00);
	code[32] = 0xe8; /* the operand's own E8 is not a call */
	put32(code + 33, 0xe8);
	code[61] = 0xe8; /* fewer than four bytes after it: left alone */
	call_filter_encode(code, sizeof(code));
	EXPECT_EQ(get32(code + 1), 0x15);
	EXPECT_EQ(get32(code + 17), (uint32_t)-11);
	EXPECT_EQ(get32(code + 25), 0x7fffff00);
	EXPECT_EQ(get32(code + 33), 0xe8 + 37);
	EXPECT(code[0] == 0xe8 && code[16] == 0xe8 && code[61] == 0xe8 && code[62] == 0x90);
	call_filter_decode(code, sizeof(code));
	EXPECT_EQ(get32(code + 1), 0x10);
	EXPECT_EQ(get32(code + 17), (uint32_t)-32);
	EXPECT_EQ(get32(code + 33), 0xe8);
}

TEST(call_filter_wraps_within_its_span)
{
	uint8_t code[200] = {0};

	/* 2^24 - 1 from offset 100: 2^24 + 104, past the span, wraps to 104 - 2^24. */
	code[100] = 0xe8;
	put32(code + 101, 0xffffff);
	call_filter_encode(code, sizeof(code));
	EXPECT_EQ(get32(code + 101), (uint32_t)(104 - 0x1000000));
	call_filter_decode(code, sizeof(code));
	EXPECT_EQ(get32(code + 101), 0xffffff);
}

TEST(call_filter_round_trips_any_bytes)
{
	const size_t length = 100000;
	uint8_t *data = malloc(length), *copy = malloc(length);
	uint32_t x = 7;

	ASSERT(data && copy);
	/* Many E8 bytes, small and large displacements, at every alignment. */
	for (size_t i = 0; i < length; i++) {
		x = x * 1103515245 + 12345;
		data[i] = (x >> 29) == 0 ? 0xe8 : (x >> 26) & 1 ? 0xff : (uint8_t)(x >> 16);
	}
	for (size_t size = 0; size <= 40; size++) {
		memcpy(copy, data, size);
		call_filter_encode(copy, size);
		call_filter_decode(copy, size);
		EXPECT(memcmp(copy, data, size) == 0);
	}
	memcpy(copy, data, length);
	call_filter_encode(copy, length);
	EXPECT(memcmp(copy, data, length) != 0);
	call_filter_decode(copy, length);
	EXPECT(memcmp(copy, data, length) == 0);
	free(copy);
	free(data);
}
