/* Ethernet II framing. */
#include <ember/lib/str.h>
#include <ember/net/eth.h>

bool eth_parse(const uint8_t *frame, size_t len, struct eth_frame *out)
{
	if (!frame || len < ETH_HLEN)
		return false;
	out->type = net_get16(frame + 12);
	/* Values up to 1500 are 802.3 lengths (LLC frames), which the stack does not speak. */
	if (out->type < 0x0600)
		return false;
	mem_copy(out->dst, frame, NET_MAC_LEN);
	mem_copy(out->src, frame + 6, NET_MAC_LEN);
	out->payload = frame + ETH_HLEN;
	out->payload_len = len - ETH_HLEN;
	return true;
}

size_t eth_build(uint8_t *buf, size_t cap, const uint8_t *dst, const uint8_t *src, uint16_t type)
{
	if (cap < ETH_HLEN)
		return 0;
	mem_copy(buf, dst, NET_MAC_LEN);
	mem_copy(buf + 6, src, NET_MAC_LEN);
	net_put16(buf + 12, type);
	return ETH_HLEN;
}
