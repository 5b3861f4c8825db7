/* ARP (net/arp.c): round trips, refusals, the cache and RFC 826's answering rules. */
#include <string.h>

#include "support/test.h"
#include <ember/net/arp.h>

static const uint8_t mac_a[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
static const uint8_t mac_b[6] = {0x52, 0x55, 0x0a, 0, 2, 2};

static struct arp_packet request(uint32_t spa, uint32_t tpa)
{
	struct arp_packet a = {.op = ARP_REQUEST, .spa = spa, .tpa = tpa};

	memcpy(a.sha, mac_b, 6);
	return a;
}

TEST(net_arp_round_trip_and_refusals)
{
	struct arp_packet a = request(0x0a000202, 0x0a00020f), b;
	uint8_t p[ARP_LEN + 18];

	EXPECT_EQ(arp_build(p, ARP_LEN - 1, &a), 0);
	ASSERT_EQ(arp_build(p, sizeof(p), &a), ARP_LEN);
	ASSERT(arp_parse(p, ARP_LEN, &b));
	EXPECT_EQ(b.op, ARP_REQUEST);
	EXPECT_EQ(b.spa, 0x0a000202);
	EXPECT_EQ(b.tpa, 0x0a00020f);
	EXPECT(!memcmp(b.sha, mac_b, 6));
	memset(p + ARP_LEN, 0, 18);
	EXPECT(arp_parse(p, sizeof(p), &b)); /* Ethernet padding after it */
	EXPECT(!arp_parse(p, ARP_LEN - 1, &b));
	p[1] = 6; /* IEEE 802 hardware */
	EXPECT(!arp_parse(p, ARP_LEN, &b));
	p[1] = 1;
	p[5] = 16; /* IPv6-sized protocol addresses */
	EXPECT(!arp_parse(p, ARP_LEN, &b));
	p[5] = 4;
	p[7] = 3; /* RARP request */
	EXPECT(!arp_parse(p, ARP_LEN, &b));
	p[7] = 2;
	EXPECT(arp_parse(p, ARP_LEN, &b));
	p[8] |= 1; /* a multicast sender */
	EXPECT(!arp_parse(p, ARP_LEN, &b));
}

TEST(net_arp_cache_replaces_the_oldest)
{
	struct arp_cache c = {0};
	uint8_t mac[6], other[6] = {2, 0, 0, 0, 0, 9};

	EXPECT(!arp_cache_get(&c, 0x0a000202, mac));
	for (uint32_t i = 1; i <= ARP_CACHE_SIZE; i++)
		arp_cache_put(&c, 0x0a000000 + i, mac_a);
	arp_cache_put(&c, 0x0a000001, other); /* an update keeps its slot */
	ASSERT(arp_cache_get(&c, 0x0a000001, mac));
	EXPECT(!memcmp(mac, other, 6));
	arp_cache_put(&c, 0x0a0000ff, mac_b);
	EXPECT(!arp_cache_get(&c, 0x0a000001, mac));
	EXPECT(arp_cache_get(&c, 0x0a0000ff, mac) && !memcmp(mac, mac_b, 6));
	EXPECT(arp_cache_get(&c, 0x0a000002, mac));
	arp_cache_put(&c, 0, mac_b);
	arp_cache_put(&c, 0xffffffff, mac_b);
	EXPECT(!arp_cache_get(&c, 0, mac) && !arp_cache_get(&c, 0xffffffff, mac));
}

TEST(net_arp_input_answers_requests_for_us_only)
{
	struct arp_cache c = {0};
	struct arp_packet in = request(0x0a000202, 0x0a00020f), reply;
	uint8_t mac[6];

	/* Not for us: nothing learnt, nothing answered. */
	in.tpa = 0x0a000203;
	EXPECT(!arp_input(&c, 0x0a00020f, mac_a, &in, &reply));
	EXPECT(!arp_cache_get(&c, 0x0a000202, mac));
	/* Without an address (before DHCP) we answer nobody. */
	in.tpa = 0;
	EXPECT(!arp_input(&c, 0, mac_a, &in, &reply));
	in.tpa = 0x0a00020f;
	ASSERT(arp_input(&c, 0x0a00020f, mac_a, &in, &reply));
	EXPECT_EQ(reply.op, ARP_REPLY);
	EXPECT_EQ(reply.spa, 0x0a00020f);
	EXPECT_EQ(reply.tpa, 0x0a000202);
	EXPECT(!memcmp(reply.sha, mac_a, 6) && !memcmp(reply.tha, mac_b, 6));
	EXPECT(arp_cache_get(&c, 0x0a000202, mac) && !memcmp(mac, mac_b, 6));
	/* A reply to us teaches, and is not answered. */
	in.op = ARP_REPLY;
	in.spa = 0x0a000203;
	EXPECT(!arp_input(&c, 0x0a00020f, mac_a, &in, &reply));
	EXPECT(arp_cache_get(&c, 0x0a000203, mac));
}
