/* DNS (net/dns_message.c): the A query, answers with CNAME chains, and the replies it
 * refuses (loops in names and aliases, records past the end, errors, other questions). */
#include <string.h>

#include "support/test.h"
#include <ember/net/dns.h>

static uint8_t msg[1024];
static size_t len;

/* A reply to the query for name: the header's flags and answers are the caller's. */
static void reply(const char *name, uint16_t flags, uint16_t answers)
{
	len = dns_query_build(msg, sizeof(msg), 0x1234, name);
	net_put16(msg + 2, flags);
	net_put16(msg + 6, answers);
}

static void put(const void *p, size_t n)
{
	memcpy(msg + len, p, n);
	len += n;
}

/* A record whose owner is a pointer to offset, of type with data. */
static void record(uint16_t owner, uint16_t type, const void *data, uint16_t data_len)
{
	uint8_t h[12] = {0};

	net_put16(h, (uint16_t)(0xc000 | owner));
	net_put16(h + 2, type);
	net_put16(h + 4, 1);
	net_put32(h + 6, 60);
	net_put16(h + 10, data_len);
	put(h, 12);
	put(data, data_len);
}

TEST(net_dns_query)
{
	static const uint8_t want[] = {0x12, 0x34, 1,	0,   0, 1,   0,	  0, 0, 0, 0, 0, 4,
				       'b',  'o',  'o', 't', 2, 'e', 'x', 0, 0, 1, 0, 1};
	uint8_t q[DNS_MESSAGE_MAX];
	char long_label[80];

	ASSERT_EQ(dns_query_build(q, sizeof(q), 0x1234, "boot.ex."), sizeof(want));
	EXPECT(!memcmp(q, want, sizeof(want)));
	EXPECT_EQ(dns_query_build(q, sizeof(q), 1, ""), 0u);
	EXPECT_EQ(dns_query_build(q, sizeof(q), 1, "a..b"), 0u);
	EXPECT_EQ(dns_query_build(q, sizeof(q), 1, "a b"), 0u);
	memset(long_label, 'a', 64);
	long_label[64] = 0;
	EXPECT_EQ(dns_query_build(q, sizeof(q), 1, long_label), 0u);
	EXPECT_EQ(dns_query_build(q, 20, 1, "boot.ex"), 0u);
}

TEST(net_dns_a_record_and_cname_chain)
{
	static const uint8_t a[4] = {10, 0, 2, 2};
	uint8_t alias[16];
	uint32_t addr = 0;

	reply("Boot.Ex", 0x8180, 1);
	record(12, 1, a, 4);
	ASSERT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) == NULL);
	EXPECT_EQ(addr, 0x0a000202u);
	/* boot.ex is an alias of w.ex (a name of its own, then a pointer to "ex"). */
	reply("boot.ex", 0x8180, 2);
	alias[0] = 1;
	alias[1] = 'w';
	net_put16(alias + 2, 0xc000 | 17); /* "ex" of the question */
	record(17, 1, a, 4);		   /* an A record of another name ("ex") first: not it */
	record(12, 5, alias, 4);
	{
		size_t w = len - 4; /* where "w.ex" is: the CNAME's data */
		uint8_t a2[4] = {10, 0, 2, 9};
		net_put16(msg + 6, 3);
		record((uint16_t)w, 1, a2, 4);
	}
	ASSERT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) == NULL);
	EXPECT_EQ(addr, 0x0a000209u);
}

TEST(net_dns_cname_only_chain)
{
	static const uint8_t a[4] = {1, 2, 3, 4};
	uint8_t alias[4] = {1, 'w', 0xc0, 17};
	uint32_t addr = 0;
	size_t w;

	reply("boot.ex", 0x8180, 2);
	record(12, 5, alias, 4);
	w = len - 4;
	record((uint16_t)w, 1, a, 4);
	ASSERT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) == NULL);
	EXPECT_EQ(addr, 0x01020304u);
}

TEST(net_dns_cname_loop_is_refused)
{
	uint8_t alias[4] = {1, 'w', 0xc0, 17};
	uint8_t back[2] = {0xc0, 12};
	uint32_t addr;
	const char *why;

	reply("boot.ex", 0x8180, 2);
	record(12, 5, alias, 4);
	record((uint16_t)(len - 4), 5, back, 2); /* w.ex is an alias of boot.ex */
	why = dns_response_parse(msg, len, 0x1234, "boot.ex", &addr);
	ASSERT(why != NULL);
	EXPECT(strstr(why, "CNAME"));
}

TEST(net_dns_refusals)
{
	static const uint8_t a[4] = {1, 2, 3, 4};
	uint8_t self[2];
	uint32_t addr;

	reply("boot.ex", 0x8183, 0);
	EXPECT(strstr(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr), "no such name"));
	reply("boot.ex", 0x8380, 0);
	EXPECT(strstr(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr), "truncated"));
	reply("boot.ex", 0x0100, 0);
	EXPECT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) != NULL);
	reply("boot.ex", 0x8180, 0);
	EXPECT(dns_response_parse(msg, len, 0x1235, "boot.ex", &addr) != NULL);
	EXPECT(dns_response_parse(msg, len, 0x1234, "other.ex", &addr) != NULL);
	EXPECT(strstr(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr), "no address"));
	reply("boot.ex", 0x8180, 1);
	record(12, 1, a, 3);
	EXPECT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) != NULL);
	reply("boot.ex", 0x8180, 1);
	record(12, 1, a, 4);
	EXPECT(dns_response_parse(msg, len - 1, 0x1234, "boot.ex", &addr) != NULL);
	/* A pointer to itself, and one forward. */
	reply("boot.ex", 0x8180, 1);
	net_put16(self, (uint16_t)(0xc000 | len));
	put(self, 2);
	put("\0\1\0\1\0\0\0\0\0\4\1\2\3\4", 14);
	EXPECT(strstr(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr), "pointer"));
	reply("boot.ex", 0x8180, 1);
	net_put16(self, (uint16_t)(0xc000 | (len + 4)));
	put(self, 2);
	put("\0\1\0\1\0\0\0\0\0\4\1\2\3\4", 14);
	EXPECT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) != NULL);
	reply("boot.ex", 0x8180, 1000);
	EXPECT(dns_response_parse(msg, len, 0x1234, "boot.ex", &addr) != NULL);
}
