/* ICMP echo request and reply (RFC 792): checked on the way in, framed on the way out. */
#include <ember/lib/str.h>
#include <ember/net/eth.h>
#include <ember/net/icmp.h>

const char *icmp_echo_parse(const struct ipv4_packet *ip, struct icmp_echo *out)
{
	const uint8_t *p = ip->payload;

	if (ip->protocol != IPV4_PROTO_ICMP)
		return "not ICMP";
	if (ip->payload_len < ICMP_ECHO_HLEN)
		return "shorter than an ICMP echo header";
	/* The checksum covers the whole message, data included (RFC 792). */
	if (net_checksum_fold(net_sum(p, ip->payload_len, 0)) != 0)
		return "bad ICMP checksum";
	if (p[0] != ICMP_ECHO_REQUEST && p[0] != ICMP_ECHO_REPLY)
		return "not an ICMP echo";
	if (p[1] != 0)
		return "ICMP echo with a code other than 0";
	out->type = p[0];
	out->id = net_get16(p + 4);
	out->seq = net_get16(p + 6);
	out->data = p + ICMP_ECHO_HLEN;
	out->len = ip->payload_len - ICMP_ECHO_HLEN;
	return NULL;
}

size_t icmp_echo_frame_build(uint8_t *buf, size_t cap, const uint8_t *dst_mac,
			     const uint8_t *src_mac, uint32_t src_ip, uint32_t dst_ip,
			     const struct icmp_echo *e, uint16_t ip_id)
{
	uint8_t *icmp = buf + ETH_HLEN + IPV4_HLEN;
	size_t len = ICMP_ECHO_HLEN + e->len;

	if (cap < NET_ICMP_FRAME_HLEN || e->len > cap - NET_ICMP_FRAME_HLEN ||
	    len > 65535 - IPV4_HLEN)
		return 0;
	/* The data first: it may be the request's, read from the same buffer. */
	mem_copy(icmp + ICMP_ECHO_HLEN, e->data, e->len);
	eth_build(buf, cap, dst_mac, src_mac, ETH_TYPE_IPV4);
	ipv4_build(buf + ETH_HLEN, cap - ETH_HLEN, src_ip, dst_ip, IPV4_PROTO_ICMP, len, ip_id);
	icmp[0] = e->type;
	icmp[1] = 0;
	net_put16(icmp + 2, 0);
	net_put16(icmp + 4, e->id);
	net_put16(icmp + 6, e->seq);
	net_put16(icmp + 2, net_checksum_fold(net_sum(icmp, len, 0)));
	return NET_ICMP_FRAME_HLEN + e->len;
}
