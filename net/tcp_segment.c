/* TCP segments (RFC 9293, 3.1): received ones checked, sent ones framed. Of the options
 * only MSS is read; the others are skipped by their length, never honoured. */
#include <ember/lib/str.h>
#include <ember/net/eth.h>
#include <ember/net/tcp.h>

#define TCP_OPT_END 0
#define TCP_OPT_NOP 1
#define TCP_OPT_MSS 2

/* The pseudo-header's share of the checksum (RFC 9293, 3.1). */
static uint32_t tcp_pseudo_sum(uint32_t src, uint32_t dst, size_t tcp_len)
{
	uint8_t pseudo[12];

	net_put32(pseudo, src);
	net_put32(pseudo + 4, dst);
	pseudo[8] = 0;
	pseudo[9] = IPV4_PROTO_TCP;
	net_put16(pseudo + 10, (uint16_t)tcp_len);
	return net_sum(pseudo, sizeof(pseudo), 0);
}

/* Walks the options of len bytes; returns why they are refused, or NULL. */
static const char *tcp_options(const uint8_t *p, size_t len, struct tcp_segment *out)
{
	size_t at = 0;

	while (at < len) {
		uint8_t kind = p[at], olen;

		if (kind == TCP_OPT_END)
			break;
		if (kind == TCP_OPT_NOP) {
			at++;
			continue;
		}
		if (at + 2 > len)
			return "option header past the header";
		olen = p[at + 1];
		if (olen < 2 || olen > len - at)
			return "option length out of bounds";
		if (kind == TCP_OPT_MSS) {
			if (olen != 4)
				return "MSS option of a bad length";
			out->mss = net_get16(p + at + 2);
		}
		at += olen;
	}
	return NULL;
}

const char *tcp_parse(const struct ipv4_packet *ip, struct tcp_segment *out)
{
	const uint8_t *p = ip->payload;
	size_t hlen;
	const char *why;

	if (ip->protocol != IPV4_PROTO_TCP)
		return "not TCP";
	if (ip->payload_len < TCP_HLEN)
		return "shorter than a TCP header";
	hlen = (size_t)(p[12] >> 4) * 4;
	if (hlen < TCP_HLEN || hlen > ip->payload_len)
		return "data offset out of bounds";
	if (net_checksum_fold(net_sum(p, ip->payload_len,
				      tcp_pseudo_sum(ip->src, ip->dst, ip->payload_len))) != 0)
		return "bad TCP checksum";
	mem_set(out, 0, sizeof(*out));
	why = tcp_options(p + TCP_HLEN, hlen - TCP_HLEN, out);
	if (why)
		return why;
	out->flags = p[13] & 0x3f;
	if ((out->flags & TCP_SYN) && (out->flags & (TCP_RST | TCP_FIN)))
		return "SYN with RST or FIN";
	out->src_port = net_get16(p);
	out->dst_port = net_get16(p + 2);
	out->seq = net_get32(p + 4);
	out->ack = net_get32(p + 8);
	out->window = net_get16(p + 14);
	out->payload = p + hlen;
	out->len = ip->payload_len - hlen;
	return NULL;
}

size_t tcp_frame_build(uint8_t *buf, size_t cap, const uint8_t *dst_mac, const uint8_t *src_mac,
		       uint32_t src_ip, uint32_t dst_ip, const struct tcp_segment *s,
		       uint16_t ip_id)
{
	size_t hlen = s->mss ? TCP_SYN_HLEN : TCP_HLEN;
	size_t head = ETH_HLEN + IPV4_HLEN + hlen;
	uint8_t *t = buf + ETH_HLEN + IPV4_HLEN;
	size_t tcp_len = hlen + s->len;

	if (cap < head || s->len > cap - head || tcp_len > 65535 - IPV4_HLEN)
		return 0;
	eth_build(buf, cap, dst_mac, src_mac, ETH_TYPE_IPV4);
	ipv4_build(buf + ETH_HLEN, cap - ETH_HLEN, src_ip, dst_ip, IPV4_PROTO_TCP, tcp_len, ip_id);
	net_put16(t, s->src_port);
	net_put16(t + 2, s->dst_port);
	net_put32(t + 4, s->seq);
	net_put32(t + 8, s->ack);
	t[12] = (uint8_t)(hlen / 4 << 4);
	t[13] = s->flags;
	net_put16(t + 14, s->window);
	net_put32(t + 16, 0); /* checksum and urgent pointer */
	if (s->mss) {
		t[20] = TCP_OPT_MSS;
		t[21] = 4;
		net_put16(t + 22, s->mss);
	}
	if (s->len)
		mem_copy(t + hlen, s->payload, s->len);
	net_put16(t + 16,
		  net_checksum_fold(net_sum(t, tcp_len, tcp_pseudo_sum(src_ip, dst_ip, tcp_len))));
	return head + s->len;
}
