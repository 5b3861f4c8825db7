/* Memory and string helpers (lib/string.c) at their edges. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/str.h>

TEST(string_helpers_at_their_edges)
{
	char buf[16] = "abcdefghij";

	/* Overlapping copies in both directions, shorter than a word. */
	mem_copy(buf + 1, buf, 3);
	EXPECT(!memcmp(buf, "aabcefghij", 10));
	mem_copy(buf, buf + 1, 3);
	EXPECT(!memcmp(buf, "abccefghij", 10));
	/* Bounded comparisons stop at the terminator of equal strings. */
	EXPECT_EQ(str8_ncmp("ab", "ab", 10), 0);
	EXPECT(str8_ncmp("ab", "ac", 10) < 0);
	EXPECT_EQ(str8_ncmp("abc", "abd", 2), 0);
	EXPECT_EQ(str16_ncmp(u"ab", u"ab", 10), 0);
	EXPECT(str16_ncmp(u"ab", u"aa", 10) > 0);
	EXPECT_EQ(str16_ncmp(u"abc", u"abd", 2), 0);
}
