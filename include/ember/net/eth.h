/* Ethernet II framing (IEEE 802.3 with an EtherType). */
#ifndef EMBER_NET_ETH_H
#define EMBER_NET_ETH_H

#include <ember/net/net.h>

#define ETH_HLEN 14
#define ETH_TYPE_IPV4 0x0800
#define ETH_TYPE_ARP 0x0806

struct eth_frame {
	uint8_t dst[NET_MAC_LEN], src[NET_MAC_LEN];
	uint16_t type;
	const uint8_t *payload; /* inside the frame that was parsed */
	size_t payload_len;	/* to the end of the frame, padding included */
};

/* Splits a received frame; refuses one shorter than the header or with an 802.3 length
 * instead of an EtherType (below 0x0600). */
bool eth_parse(const uint8_t *frame, size_t len, struct eth_frame *out);
/* Writes the 14-byte header at buf; returns ETH_HLEN, or 0 if cap is too small. */
size_t eth_build(uint8_t *buf, size_t cap, const uint8_t *dst, const uint8_t *src, uint16_t type);

#endif
