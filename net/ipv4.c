/* IPv4 (RFC 791): received packets checked, headers of sent ones written. */
#include <ember/net/ipv4.h>

const char *ipv4_parse(const uint8_t *p, size_t len, struct ipv4_packet *out)
{
	size_t ihl, total;

	if (!p || len < IPV4_HLEN)
		return "shorter than an IPv4 header";
	if (p[0] >> 4 != 4)
		return "not IPv4";
	ihl = (size_t)(p[0] & 0xf) * 4;
	if (ihl < IPV4_HLEN || ihl > len)
		return "header length out of bounds";
	total = net_get16(p + 2);
	if (total < ihl || total > len)
		return "total length out of bounds";
	if (net_checksum_fold(net_sum(p, ihl, 0)) != 0)
		return "bad header checksum";
	/* More Fragments or a fragment offset: fragments are refused, never reassembled. */
	if (net_get16(p + 6) & 0x3fff)
		return "a fragment";
	if (p[8] == 0)
		return "TTL 0";
	out->src = net_get32(p + 12);
	out->dst = net_get32(p + 16);
	out->protocol = p[9];
	out->ttl = p[8];
	out->payload = p + ihl;
	out->payload_len = total - ihl;
	return NULL;
}

size_t ipv4_build(uint8_t *buf, size_t cap, uint32_t src, uint32_t dst, uint8_t protocol,
		  size_t payload_len, uint16_t id)
{
	if (cap < IPV4_HLEN || payload_len > 65535 - IPV4_HLEN)
		return 0;
	buf[0] = 0x45;
	buf[1] = 0;
	net_put16(buf + 2, (uint16_t)(IPV4_HLEN + payload_len));
	net_put16(buf + 4, id);
	net_put16(buf + 6, 0x4000);
	buf[8] = 64;
	buf[9] = protocol;
	net_put16(buf + 10, 0);
	net_put32(buf + 12, src);
	net_put32(buf + 16, dst);
	net_put16(buf + 10, net_checksum_fold(net_sum(buf, IPV4_HLEN, 0)));
	return IPV4_HLEN;
}
