/* Ethernet framing (net/eth.c): a round trip and the frames refused. */
#include <string.h>

#include "support/test.h"
#include <ember/net/eth.h>

static const uint8_t mac_a[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
static const uint8_t mac_b[6] = {0x52, 0x55, 0x0a, 0, 2, 2};

TEST(net_eth_round_trip_and_refusals)
{
	uint8_t frame[64] = {0};
	struct eth_frame f;

	EXPECT_EQ(eth_build(frame, 13, mac_a, mac_b, ETH_TYPE_ARP), 0);
	ASSERT_EQ(eth_build(frame, sizeof(frame), mac_a, mac_b, ETH_TYPE_ARP), ETH_HLEN);
	ASSERT(eth_parse(frame, sizeof(frame), &f));
	EXPECT(!memcmp(f.dst, mac_a, 6) && !memcmp(f.src, mac_b, 6));
	EXPECT_EQ(f.type, ETH_TYPE_ARP);
	EXPECT_EQ(f.payload_len, sizeof(frame) - ETH_HLEN);
	EXPECT(f.payload == frame + ETH_HLEN);
	EXPECT(!eth_parse(frame, ETH_HLEN - 1, &f));
	EXPECT(!eth_parse(NULL, 60, &f));
	/* An 802.3 length field (1500) instead of an EtherType. */
	frame[12] = 0x05;
	frame[13] = 0xdc;
	EXPECT(!eth_parse(frame, sizeof(frame), &f));
}
