/* Fuzzes TCP (net/tcp_segment.c, net/tcp_conn.c). The first record of the input is parsed
 * as an IPv4 packet carrying a segment; the rest drive a connection: each record of 16
 * bytes is a segment from the peer (sequence and acknowledgement numbers relative to the
 * connection's, flags, window, a payload length) or, by its first byte, a read, a write, a
 * close or time passing. What the connection holds and sends must stay in its bounds. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/net/tcp.h>

#define LOCAL 0x0a00020fu
#define REMOTE 0x0a000202u

static void check(const struct tcp_conn *c, const struct tcp_segment *out, bool sent)
{
	if (c->rx_len > TCP_RX_SIZE || c->tx_len > TCP_TX_SIZE || c->ooo_count > TCP_OOO_MAX)
		abort();
	for (unsigned i = 0; i < c->ooo_count; i++) {
		uint32_t s = c->ooo[i].start - c->rcv_nxt, e = c->ooo[i].end - c->rcv_nxt;
		if (s == 0 || s >= e || c->rx_len + e > TCP_RX_SIZE)
			abort();
		if (i && s <= c->ooo[i - 1].end - c->rcv_nxt)
			abort();
	}
	if (!sent)
		return;
	if (out->len > c->mss || out->len > TCP_TX_SIZE)
		abort();
	if (out->len && (out->payload < c->tx || out->payload + out->len > c->tx + TCP_TX_SIZE))
		abort();
}

static void parse_one(const uint8_t *data, size_t size)
{
	struct ipv4_packet ip;
	struct tcp_segment s;

	if (!ipv4_parse(data, size, &ip) && !tcp_parse(&ip, &s))
		if (s.payload < data || s.payload + s.len > data + size)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tcp_conn c;
	static uint8_t sink[4096];
	struct ipv4_packet from = {.src = REMOTE, .dst = LOCAL, .protocol = IPV4_PROTO_TCP};
	struct tcp_segment out;
	uint64_t now = 0;
	uint32_t irs = 5000;
	size_t at = 0, first = size < 2 ? 0 : (size_t)(data[0] << 8 | data[1]) % 1600;

	if (first > size - (size < 2 ? 0 : 2))
		first = size - (size < 2 ? 0 : 2);
	if (size >= 2) {
		parse_one(data + 2, first);
		at = 2 + first;
	}
	tcp_conn_open(&c, LOCAL, 40000, REMOTE, 80, 100);
	while (at + 16 <= size) {
		const uint8_t *r = data + at;
		struct tcp_segment s = {.src_port = 80, .dst_port = 40000};
		size_t len = net_get16(r + 12) % 2048;
		bool sent;

		at += 16;
		switch (r[0] & 7) {
		case 0:
			tcp_conn_read(&c, sink, net_get16(r + 1) % sizeof(sink));
			break;
		case 1:
			tcp_conn_write(&c, r + 1, 15);
			break;
		case 2:
			if (r[1] == 0xc1)
				tcp_conn_close(&c);
			now += (uint64_t)net_get16(r + 2) * 1000000;
			break;
		default:
			s.seq = irs + net_get32(r + 1);
			s.ack = 100 + net_get32(r + 5);
			s.flags = r[9] & 0x3f;
			s.window = net_get16(r + 10);
			s.mss = r[14] & 1 ? net_get16(r + 12) : 0;
			if (len > size - at)
				len = size - at;
			s.payload = data + at;
			s.len = len;
			at += len;
			tcp_conn_input(&c, &from, &s, now);
		}
		do {
			sent = tcp_conn_output(&c, now, &out);
			check(&c, &out, sent);
		} while (sent && out.len + (out.flags & (TCP_SYN | TCP_FIN)) > 0 &&
			 !tcp_conn_dead(&c));
	}
	return 0;
}
