/* ICMP echo (net/icmp.c): a request framed and read back, the reply built over the
 * request's own data, and the refusals. */
#include <string.h>

#include "support/test.h"
#include <ember/net/eth.h>
#include <ember/net/icmp.h>

static const uint8_t mac_a[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
static const uint8_t mac_b[6] = {0x52, 0x55, 0x0a, 0, 2, 2};

/* The echo in a frame built by icmp_echo_frame_build; NULL when it does not read. */
static const char *read_back(const uint8_t *frame, size_t n, struct ipv4_packet *ip,
			     struct icmp_echo *e)
{
	struct eth_frame f;

	if (!eth_parse(frame, n, &f) || ipv4_parse(f.payload, f.payload_len, ip))
		return "not a frame";
	return icmp_echo_parse(ip, e);
}

TEST(net_icmp_echo_round_trip)
{
	uint8_t frame[200], data[5] = "ping";
	struct icmp_echo e = {ICMP_ECHO_REQUEST, 0x454d, 7, data, 5}, got;
	struct ipv4_packet ip;
	size_t n = icmp_echo_frame_build(frame, sizeof(frame), mac_b, mac_a, 0x0a00020f, 0x0a000202,
					 &e, 1);

	ASSERT_EQ(n, NET_ICMP_FRAME_HLEN + 5);
	ASSERT(read_back(frame, n, &ip, &got) == NULL);
	EXPECT_EQ(ip.protocol, IPV4_PROTO_ICMP);
	EXPECT_EQ(ip.src, 0x0a00020f);
	EXPECT_EQ(ip.dst, 0x0a000202);
	EXPECT_EQ(got.type, ICMP_ECHO_REQUEST);
	EXPECT_EQ(got.id, 0x454d);
	EXPECT_EQ(got.seq, 7);
	ASSERT_EQ(got.len, 5);
	EXPECT(!memcmp(got.data, "ping", 5));
	/* The reply is built over the same buffer, from the request's data inside it. */
	got.type = ICMP_ECHO_REPLY;
	n = icmp_echo_frame_build(frame, sizeof(frame), mac_a, mac_b, 0x0a000202, 0x0a00020f, &got,
				  2);
	ASSERT(read_back(frame, n, &ip, &e) == NULL);
	EXPECT_EQ(e.type, ICMP_ECHO_REPLY);
	EXPECT_EQ(e.seq, 7);
	EXPECT(e.len == 5 && !memcmp(e.data, "ping", 5));
	/* Too small a buffer: nothing built. */
	EXPECT_EQ(icmp_echo_frame_build(frame, NET_ICMP_FRAME_HLEN + 4, mac_a, mac_b, 1, 2, &e, 3),
		  0);
}

static bool says(const char *why, const char *want)
{
	return why && !strcmp(why, want);
}

TEST(net_icmp_refusals)
{
	uint8_t frame[200], *msg = frame + 14 + IPV4_HLEN;
	struct icmp_echo e = {ICMP_ECHO_REQUEST, 1, 1, (const uint8_t *)"abcd", 4}, got;
	struct ipv4_packet ip;
	size_t n = icmp_echo_frame_build(frame, sizeof(frame), mac_b, mac_a, 1, 2, &e, 1);

	ASSERT(read_back(frame, n, &ip, &got) == NULL);
	ip.payload_len = ICMP_ECHO_HLEN - 1;
	EXPECT(says(icmp_echo_parse(&ip, &got), "shorter than an ICMP echo header"));
	ip.payload_len = ICMP_ECHO_HLEN + 4;
	ip.protocol = IPV4_PROTO_UDP;
	EXPECT(says(icmp_echo_parse(&ip, &got), "not ICMP"));
	ip.protocol = IPV4_PROTO_ICMP;
	msg[9] ^= 1; /* data changed under the checksum */
	EXPECT(says(icmp_echo_parse(&ip, &got), "bad ICMP checksum"));
	msg[9] ^= 1;
	/* Type 3 (unreachable) with its checksum made right: still not an echo. */
	msg[0] = 3;
	msg[2] = msg[3] = 0;
	net_put16(msg + 2, net_checksum_fold(net_sum(msg, ICMP_ECHO_HLEN + 4, 0)));
	EXPECT(says(icmp_echo_parse(&ip, &got), "not an ICMP echo"));
	msg[0] = ICMP_ECHO_REQUEST;
	msg[1] = 1;
	msg[2] = msg[3] = 0;
	net_put16(msg + 2, net_checksum_fold(net_sum(msg, ICMP_ECHO_HLEN + 4, 0)));
	EXPECT(says(icmp_echo_parse(&ip, &got), "ICMP echo with a code other than 0"));
}
