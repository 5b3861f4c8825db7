/* UDP (RFC 768) over IPv4: datagrams checked and framed. */
#include <ember/net/eth.h>
#include <ember/net/ipv4.h>

/* The pseudo-header's share of the checksum (RFC 768). */
static uint32_t udp_pseudo_sum(uint32_t src, uint32_t dst, size_t udp_len)
{
	uint8_t pseudo[12];

	net_put32(pseudo, src);
	net_put32(pseudo + 4, dst);
	pseudo[8] = 0;
	pseudo[9] = IPV4_PROTO_UDP;
	net_put16(pseudo + 10, (uint16_t)udp_len);
	return net_sum(pseudo, sizeof(pseudo), 0);
}

const char *udp_parse(const struct ipv4_packet *ip, struct udp_datagram *out)
{
	const uint8_t *p = ip->payload;
	size_t len;

	if (ip->protocol != IPV4_PROTO_UDP)
		return "not UDP";
	if (ip->payload_len < UDP_HLEN)
		return "shorter than a UDP header";
	len = net_get16(p + 4);
	if (len < UDP_HLEN || len > ip->payload_len)
		return "UDP length out of bounds";
	if (net_get16(p + 6) != 0 &&
	    net_checksum_fold(net_sum(p, len, udp_pseudo_sum(ip->src, ip->dst, len))) != 0)
		return "bad UDP checksum";
	out->src_port = net_get16(p);
	out->dst_port = net_get16(p + 2);
	out->payload = p + UDP_HLEN;
	out->len = len - UDP_HLEN;
	return NULL;
}

size_t udp_frame_build(uint8_t *buf, size_t cap, const uint8_t *dst_mac, const uint8_t *src_mac,
		       uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
		       size_t payload_len, uint16_t ip_id)
{
	uint8_t *udp = buf + ETH_HLEN + IPV4_HLEN;
	size_t udp_len = UDP_HLEN + payload_len;
	uint16_t sum;

	if (cap < NET_UDP_FRAME_HLEN || payload_len > cap - NET_UDP_FRAME_HLEN ||
	    udp_len > 65535 - IPV4_HLEN)
		return 0;
	eth_build(buf, cap, dst_mac, src_mac, ETH_TYPE_IPV4);
	ipv4_build(buf + ETH_HLEN, cap - ETH_HLEN, src_ip, dst_ip, IPV4_PROTO_UDP, udp_len, ip_id);
	net_put16(udp, src_port);
	net_put16(udp + 2, dst_port);
	net_put16(udp + 4, (uint16_t)udp_len);
	net_put16(udp + 6, 0);
	sum = net_checksum_fold(net_sum(udp, udp_len, udp_pseudo_sum(src_ip, dst_ip, udp_len)));
	/* A computed 0 is sent as all ones: 0 means "no checksum". */
	net_put16(udp + 6, sum ? sum : 0xffff);
	return NET_UDP_FRAME_HLEN + payload_len;
}
