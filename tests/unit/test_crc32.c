/* CRC-32 as UEFI uses it (lib/crc32.c): known vectors, incremental updates. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/crc32.h>

TEST(crc32_known_vectors)
{
	EXPECT_EQ(crc32("123456789", 9), 0xcbf43926);
	EXPECT_EQ(crc32("", 0), 0);
	EXPECT_EQ(crc32("a", 1), 0xe8b7be43);
	/* Incremental equals one-shot, across the 8-byte fast path. */
	const char *text = "The quick brown fox jumps over the lazy dog";
	UINT32 c = crc32_update(0, text, 10);
	c = crc32_update(c, text + 10, strlen(text) - 10);
	EXPECT_EQ(c, 0x414fa339);
	EXPECT_EQ(crc32(text, strlen(text)), 0x414fa339);
}

/* Compares format_sn against the host's snprintf for standard conversions. */
#define SAME_AS_LIBC(...)                                                                          \
	do {                                                                                       \
		char ours[128], libc[128];                                                         \
		format_sn(ours, sizeof(ours), __VA_ARGS__);                                        \
		snprintf(libc, sizeof(libc), __VA_ARGS__);                                         \
		if (!EXPECT(strcmp(ours, libc) == 0))                                              \
			printf("    ours [%s] libc [%s]\n", ours, libc);                           \
	} while (0)
