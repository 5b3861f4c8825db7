/* IPv4 and UDP (net/ipv4.c, net/udp.c, net/checksum.c): the checksum against known values,
 * frames built then parsed, and every refusal of a hostile header. */
#include <string.h>

#include "support/test.h"
#include <ember/net/eth.h>
#include <ember/net/ipv4.h>

static const uint8_t mac_a[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
static const uint8_t mac_b[6] = {0x52, 0x55, 0x0a, 0, 2, 2};

TEST(net_checksum_known_header)
{
	/* A captured IPv4 header whose checksum field holds 0xb861. */
	uint8_t h[20] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
			 0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};

	EXPECT_EQ(net_checksum_fold(net_sum(h, sizeof(h), 0)), 0xb861);
	h[10] = 0xb8;
	h[11] = 0x61;
	EXPECT_EQ(net_checksum_fold(net_sum(h, sizeof(h), 0)), 0);
	/* An odd length pads with a zero byte. */
	EXPECT_EQ(net_checksum_fold(net_sum("\x01", 1, 0)), 0xfeff);
}

/* A UDP frame carrying "hello" from 10.0.2.2:69 to 10.0.2.15:1234. */
static size_t frame(uint8_t *buf, size_t cap)
{
	memcpy(buf + NET_UDP_FRAME_HLEN, "hello", 5);
	return udp_frame_build(buf, cap, mac_a, mac_b, 0x0a000202, 0x0a00020f, 69, 1234, 5, 7);
}

static const char *parse(const uint8_t *buf, size_t len, struct udp_datagram *u)
{
	struct ipv4_packet ip;
	const char *why = ipv4_parse(buf + ETH_HLEN, len - ETH_HLEN, &ip);

	return why ? why : udp_parse(&ip, u);
}

static void refix_ip_checksum(uint8_t *ip)
{
	size_t ihl = (size_t)(ip[0] & 0xf) * 4;

	ip[10] = ip[11] = 0;
	net_put16(ip + 10, net_checksum_fold(net_sum(ip, ihl, 0)));
}

TEST(net_udp_frame_round_trip)
{
	uint8_t buf[128];
	size_t n = frame(buf, sizeof(buf));
	struct udp_datagram u;
	struct ipv4_packet ip;

	ASSERT_EQ(n, NET_UDP_FRAME_HLEN + 5);
	EXPECT_EQ(frame(buf, NET_UDP_FRAME_HLEN + 4), 0);
	ASSERT(ipv4_parse(buf + ETH_HLEN, n - ETH_HLEN, &ip) == NULL);
	EXPECT_EQ(ip.src, 0x0a000202);
	EXPECT_EQ(ip.dst, 0x0a00020f);
	EXPECT_EQ(ip.ttl, 64);
	ASSERT(parse(buf, n, &u) == NULL);
	EXPECT_EQ(u.src_port, 69);
	EXPECT_EQ(u.dst_port, 1234);
	ASSERT_EQ(u.len, 5);
	EXPECT(!memcmp(u.payload, "hello", 5));
	/* Ethernet padding after the packet is not payload. */
	memset(buf + n, 0, 20);
	ASSERT(parse(buf, n + 20, &u) == NULL);
	EXPECT_EQ(u.len, 5);
}

TEST(net_ipv4_refuses_hostile_headers)
{
	uint8_t buf[128], *ip = buf + ETH_HLEN;
	size_t n = frame(buf, sizeof(buf));
	struct ipv4_packet p;

	EXPECT(ipv4_parse(ip, 19, &p) != NULL);
	EXPECT(ipv4_parse(NULL, 40, &p) != NULL);
	/* The total length says more than there is. */
	EXPECT(ipv4_parse(ip, n - ETH_HLEN - 1, &p) != NULL);
	ip[8] = 0; /* TTL 0 */
	refix_ip_checksum(ip);
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[8] = 64;
	ip[6] = 0x20; /* More Fragments */
	refix_ip_checksum(ip);
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[6] = 0x00;
	ip[7] = 0x08; /* a fragment offset */
	refix_ip_checksum(ip);
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[7] = 0;
	ip[6] = 0x40;
	refix_ip_checksum(ip);
	ASSERT(ipv4_parse(ip, n - ETH_HLEN, &p) == NULL);
	ip[12] ^= 1; /* a bit flipped under the checksum */
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[12] ^= 1;
	ip[0] = 0x44; /* IHL below 5 */
	refix_ip_checksum(ip);
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[0] = 0x4f; /* IHL 60 bytes: past the 33 there are */
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[0] = 0x65; /* version 6 */
	refix_ip_checksum(ip);
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
	ip[0] = 0x45;
	net_put16(ip + 2, 19); /* total below the header */
	refix_ip_checksum(ip);
	EXPECT(ipv4_parse(ip, n - ETH_HLEN, &p) != NULL);
}

TEST(net_ipv4_skips_options)
{
	uint8_t pkt[64] = {0};
	struct ipv4_packet p;

	/* IHL 6: one word of options (a NOP and three end bytes), never honoured. */
	pkt[0] = 0x46;
	net_put16(pkt + 2, 24 + 4);
	pkt[8] = 1;
	pkt[9] = 99;
	pkt[20] = 1;
	memcpy(pkt + 24, "data", 4);
	refix_ip_checksum(pkt);
	ASSERT(ipv4_parse(pkt, 28, &p) == NULL);
	EXPECT_EQ(p.payload_len, 4);
	EXPECT(!memcmp(p.payload, "data", 4));
}

TEST(net_udp_refuses_hostile_datagrams)
{
	uint8_t buf[128], *udp = buf + ETH_HLEN + IPV4_HLEN;
	size_t n = frame(buf, sizeof(buf));
	struct udp_datagram u;

	ASSERT(parse(buf, n, &u) == NULL);
	udp[8] ^= 0x20; /* payload changed under the checksum */
	EXPECT(parse(buf, n, &u) != NULL);
	udp[6] = udp[7] = 0; /* no checksum: accepted as RFC 768 allows */
	EXPECT(parse(buf, n, &u) == NULL);
	net_put16(udp + 4, 14); /* longer than the IPv4 payload */
	EXPECT(parse(buf, n, &u) != NULL);
	net_put16(udp + 4, 7); /* shorter than its header */
	EXPECT(parse(buf, n, &u) != NULL);
	net_put16(udp + 4, 8); /* empty: accepted */
	ASSERT(parse(buf, n, &u) == NULL);
	EXPECT_EQ(u.len, 0);
	/* An IPv4 payload shorter than a UDP header. */
	struct ipv4_packet ip = {.protocol = IPV4_PROTO_UDP, .payload = udp, .payload_len = 7};
	EXPECT(udp_parse(&ip, &u) != NULL);
	ip.protocol = 6;
	ip.payload_len = 13;
	EXPECT(udp_parse(&ip, &u) != NULL);
}

/* RFC 1071's sum one 16-bit big-endian word at a time: the reference. */
static uint32_t slow_sum(const uint8_t *p, size_t len, uint32_t sum)
{
	uint64_t acc = sum;

	for (; len >= 2; p += 2, len -= 2)
		acc += (uint32_t)(p[0] << 8 | p[1]);
	if (len)
		acc += (uint32_t)p[0] << 8;
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint32_t)acc;
}

TEST(net_sum_matches_the_reference)
{
	static uint8_t buf[3000];
	uint32_t seed = 12345;

	for (size_t i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
	/* Every length up to 64 and large ones, at every alignment, with carried-in sums
	 * (the pseudo-header's) small and as large as a uint32_t holds. */
	for (size_t off = 0; off < 8; off++)
		for (size_t len = 0; len < 1600; len += len < 64 ? 1 : 97)
			for (int k = 0; k < 3; k++) {
				uint32_t in = k == 0 ? 0 : k == 1 ? 0x1fffe : 0xffffffffu;
				EXPECT_EQ(net_checksum_fold(net_sum(buf + off, len, in)),
					  net_checksum_fold(slow_sum(buf + off, len, in)));
			}
	/* All ones: the sum of 0xffff words stays 0xffff (no carry lost). */
	memset(buf, 0xff, sizeof(buf));
	EXPECT_EQ(net_checksum_fold(net_sum(buf, sizeof(buf), 0)), 0);
}
