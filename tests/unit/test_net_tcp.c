/* TCP (net/tcp_segment.c, net/tcp_conn.c): the active open with MSS, data in order and out
 * of order (ranges kept, too many holes dropped), delayed and duplicate ACKs, the window,
 * retransmission with backoff until the connection gives up, RST and SYN checks (RFC 5961),
 * FIN both ways, and the segment parser's refusals. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/net/eth.h>
#include <ember/net/tcp.h>

#define LOCAL 0x0a00020fu
#define REMOTE 0x0a000202u
#define LPORT 50000
#define RPORT 80
#define ISS 1000u
#define IRS 70000u
#define MS 1000000ull

static const struct ipv4_packet from_peer = {.src = REMOTE, .dst = LOCAL, .protocol = 6};

static void peer(struct tcp_conn *c, uint32_t seq, uint32_t ack, uint8_t flags, const void *data,
		 size_t len, uint64_t now)
{
	struct tcp_segment s = {.src_port = RPORT,
				.dst_port = LPORT,
				.seq = seq,
				.ack = ack,
				.flags = flags,
				.window = 8192,
				.payload = data,
				.len = len};
	tcp_conn_input(c, &from_peer, &s, now);
}

static struct tcp_conn *established(void)
{
	struct tcp_conn *c = calloc(1, sizeof(*c));
	struct tcp_segment out;
	struct tcp_segment synack = {.src_port = RPORT,
				     .dst_port = LPORT,
				     .seq = IRS,
				     .ack = ISS + 1,
				     .flags = TCP_SYN | TCP_ACK,
				     .window = 8192,
				     .mss = 1000};

	tcp_conn_open(c, LOCAL, LPORT, REMOTE, RPORT, ISS);
	tcp_conn_output(c, 0, &out);
	tcp_conn_input(c, &from_peer, &synack, 10 * MS);
	tcp_conn_output(c, 10 * MS, &out); /* the ACK of the SYN-ACK */
	return c;
}

TEST(net_tcp_open_sends_syn_with_mss_and_takes_the_peers)
{
	struct tcp_conn *c = calloc(1, sizeof(*c));
	struct tcp_segment out;
	struct tcp_segment synack = {.src_port = RPORT,
				     .dst_port = LPORT,
				     .seq = IRS,
				     .ack = ISS + 1,
				     .flags = TCP_SYN | TCP_ACK,
				     .window = 8192,
				     .mss = 9000};

	tcp_conn_open(c, LOCAL, LPORT, REMOTE, RPORT, ISS);
	ASSERT(tcp_conn_output(c, 0, &out));
	EXPECT_EQ(out.flags, TCP_SYN);
	EXPECT_EQ(out.seq, ISS);
	EXPECT_EQ(out.mss, TCP_MSS_MAX);
	EXPECT(!tcp_conn_output(c, 0, &out));
	/* An ACK of something else in SYN-SENT is dropped; a RST without ACK too. */
	peer(c, IRS, ISS + 7, TCP_SYN | TCP_ACK, NULL, 0, MS);
	peer(c, IRS, 0, TCP_RST, NULL, 0, MS);
	EXPECT_EQ(c->state, TCP_SYN_SENT);
	tcp_conn_input(c, &from_peer, &synack, 3 * MS);
	EXPECT_EQ(c->state, TCP_ESTABLISHED);
	EXPECT_EQ(c->mss, TCP_MSS_MAX); /* 9000 is more than a frame holds */
	EXPECT_EQ(c->rcv_nxt, IRS + 1);
	EXPECT_EQ(c->srtt_ns, 3 * MS);
	ASSERT(tcp_conn_output(c, 3 * MS, &out));
	EXPECT_EQ(out.flags, TCP_ACK);
	EXPECT_EQ(out.ack, IRS + 1);
	EXPECT_EQ(out.seq, ISS + 1);
	free(c);
}

TEST(net_tcp_refused_connection)
{
	struct tcp_conn *c = calloc(1, sizeof(*c));
	struct tcp_segment out;

	tcp_conn_open(c, LOCAL, LPORT, REMOTE, RPORT, ISS);
	tcp_conn_output(c, 0, &out);
	peer(c, 0, ISS + 1, TCP_RST | TCP_ACK, NULL, 0, MS);
	EXPECT(tcp_conn_dead(c));
	EXPECT(c->error && strstr(c->error, "refused"));
	free(c);
}

TEST(net_tcp_send_and_acknowledge)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;
	char req[3000];

	memset(req, 'r', sizeof(req));
	ASSERT_EQ(tcp_conn_write(c, req, sizeof(req)), sizeof(req));
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	EXPECT_EQ(out.len, 1000u); /* the peer's MSS */
	EXPECT_EQ(out.seq, ISS + 1);
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	EXPECT_EQ(out.seq, ISS + 2001);
	EXPECT(!tcp_conn_output(c, 20 * MS, &out));
	peer(c, IRS + 1, ISS + 1001, TCP_ACK, NULL, 0, 25 * MS);
	EXPECT_EQ(c->tx_len, 2000u);
	EXPECT(c->rto_deadline != 0);
	peer(c, IRS + 1, ISS + 3001, TCP_ACK, NULL, 0, 26 * MS);
	EXPECT_EQ(c->tx_len, 0u);
	EXPECT_EQ(c->rto_deadline, 0u);
	/* An ACK of bytes never sent is answered, not taken. */
	peer(c, IRS + 1, ISS + 9000, TCP_ACK, NULL, 0, 27 * MS);
	EXPECT_EQ(c->snd_una, ISS + 3001);
	ASSERT(tcp_conn_output(c, 27 * MS, &out));
	EXPECT_EQ(out.flags, TCP_ACK);
	free(c);
}

TEST(net_tcp_delayed_ack_for_every_second_segment)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;
	char data[1000], got[3000];

	memset(data, 'a', sizeof(data));
	peer(c, IRS + 1, ISS + 1, TCP_ACK, data, 1000, 20 * MS);
	EXPECT(!tcp_conn_output(c, 21 * MS, &out));
	ASSERT(tcp_conn_output(c, 26 * MS, &out)); /* the delayed ACK's time */
	EXPECT_EQ(out.ack, IRS + 1001);
	peer(c, IRS + 1001, ISS + 1, TCP_ACK, data, 1000, 30 * MS);
	peer(c, IRS + 2001, ISS + 1, TCP_ACK, data, 1000, 30 * MS);
	ASSERT(tcp_conn_output(c, 30 * MS, &out));
	EXPECT_EQ(out.ack, IRS + 3001);
	EXPECT_EQ(tcp_conn_read(c, got, sizeof(got)), 3000u);
	free(c);
}

/* Segment i of 100 bytes, filled with i. */
static void seg(struct tcp_conn *c, unsigned i)
{
	uint8_t d[100];

	memset(d, (int)i, sizeof(d));
	peer(c, IRS + 1 + 100 * i, ISS + 1, TCP_ACK, d, sizeof(d), 20 * MS);
}

TEST(net_tcp_out_of_order_segments_are_kept_and_dup_acked)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;
	uint8_t got[1000];

	seg(c, 2);
	ASSERT(tcp_conn_output(c, 20 * MS, &out)); /* a duplicate ACK at once */
	EXPECT_EQ(out.ack, IRS + 1);
	seg(c, 4);
	seg(c, 3);
	seg(c, 2); /* again */
	EXPECT_EQ(c->ooo_count, 1u);
	EXPECT_EQ(tcp_conn_read(c, got, sizeof(got)), 0u);
	seg(c, 0);
	seg(c, 1);
	EXPECT_EQ(c->ooo_count, 0u);
	ASSERT_EQ(tcp_conn_read(c, got, sizeof(got)), 500u);
	for (unsigned i = 0; i < 500; i++)
		ASSERT_EQ(got[i], i / 100);
	EXPECT(c->out_of_order >= 4);
	free(c);
}

TEST(net_tcp_too_many_holes_drop_safely)
{
	struct tcp_conn *c = established();
	uint8_t got[2000];

	for (unsigned i = 1; i < 12; i += 2)
		seg(c, i); /* six ranges: the fifth and sixth are dropped */
	EXPECT_EQ(c->ooo_count, (unsigned)TCP_OOO_MAX);
	EXPECT(c->dropped >= 2);
	for (unsigned i = 0; i < 12; i += 2)
		seg(c, i);
	seg(c, 9);
	seg(c, 11);
	ASSERT_EQ(tcp_conn_read(c, got, sizeof(got)), 1200u);
	for (unsigned i = 0; i < 1200; i++)
		ASSERT_EQ(got[i], i / 100);
	free(c);
}

TEST(net_tcp_window_closes_and_reopens)
{
	struct tcp_conn *c = established();
	static uint8_t big[1000], sink[TCP_RX_SIZE];
	struct tcp_segment out;
	uint32_t seq = IRS + 1;

	while (seq - (IRS + 1) < TCP_RX_SIZE) {
		size_t n = TCP_RX_SIZE - (seq - (IRS + 1));
		n = n < sizeof(big) ? n : sizeof(big);
		peer(c, seq, ISS + 1, TCP_ACK, big, n, 20 * MS);
		seq += (uint32_t)n;
	}
	EXPECT_EQ(c->rx_len, (size_t)TCP_RX_SIZE);
	while (tcp_conn_output(c, 20 * MS, &out))
		;
	EXPECT_EQ(out.window, 0);
	peer(c, seq, ISS + 1, TCP_ACK, big, 100, 20 * MS); /* past a closed window */
	EXPECT_EQ(c->rx_len, (size_t)TCP_RX_SIZE);
	EXPECT(!tcp_conn_output(c, 20 * MS, &out) || out.ack == seq);
	EXPECT_EQ(tcp_conn_read(c, sink, 10000), 10000u);
	ASSERT(tcp_conn_output(c, 20 * MS, &out)); /* the window update */
	EXPECT_EQ(out.window, 10000);
	free(c);
}

TEST(net_tcp_retransmits_with_backoff_then_gives_up)
{
	struct tcp_conn *c = calloc(1, sizeof(*c));
	struct tcp_segment out;
	uint64_t now = 0, gaps[3];

	tcp_conn_open(c, LOCAL, LPORT, REMOTE, RPORT, ISS);
	ASSERT(tcp_conn_output(c, now, &out));
	for (int i = 0; i < 3; i++) {
		uint64_t sent = now;
		while (!tcp_conn_output(c, now, &out))
			now += MS;
		EXPECT_EQ(out.flags, TCP_SYN);
		gaps[i] = now - sent;
	}
	EXPECT_EQ(gaps[0], 1000 * MS);
	EXPECT_EQ(gaps[1], 2000 * MS);
	EXPECT_EQ(gaps[2], 4000 * MS);
	EXPECT_EQ(c->retransmits, 3u);
	for (int i = 0; i < 100 && !tcp_conn_dead(c); i++)
		while (!tcp_conn_output(c, now, &out) && !tcp_conn_dead(c))
			now += 100 * MS;
	EXPECT(tcp_conn_dead(c));
	EXPECT(c->error && strstr(c->error, "retransmissions"));
	EXPECT_EQ(c->retransmits, (uint64_t)TCP_MAX_RETRIES);
	free(c);
}

TEST(net_tcp_lost_data_is_sent_again_from_the_oldest)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;

	tcp_conn_write(c, "GET / HTTP/1.1\r\n\r\n", 18);
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	EXPECT(!tcp_conn_output(c, 100 * MS, &out)); /* the RTO: 200 ms at least */
	ASSERT(tcp_conn_output(c, 2000 * MS, &out));
	EXPECT_EQ(out.seq, ISS + 1);
	EXPECT_EQ(out.len, 18u);
	EXPECT(memcmp(out.payload, "GET", 3) == 0);
	peer(c, IRS + 1, ISS + 19, TCP_ACK, NULL, 0, 2010 * MS);
	EXPECT_EQ(c->retries, 0u);
	EXPECT_EQ(c->rto_deadline, 0u);
	free(c);
}

TEST(net_tcp_reset_only_at_rcv_nxt)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;

	peer(c, IRS + 50, 0, TCP_RST, NULL, 0, 20 * MS); /* in the window, not exact */
	EXPECT(!tcp_conn_dead(c));
	ASSERT(tcp_conn_output(c, 20 * MS, &out)); /* the challenge ACK */
	EXPECT_EQ(out.ack, IRS + 1);
	peer(c, IRS + 100000, 0, TCP_RST, NULL, 0, 20 * MS); /* outside: ignored */
	EXPECT(!tcp_conn_dead(c));
	EXPECT(!tcp_conn_output(c, 20 * MS, &out));
	peer(c, IRS + 1, ISS + 1, TCP_SYN, NULL, 0, 20 * MS);
	EXPECT(!tcp_conn_dead(c));
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	peer(c, IRS + 1, 0, TCP_RST, NULL, 0, 20 * MS);
	EXPECT(tcp_conn_dead(c));
	EXPECT(c->error && strstr(c->error, "reset"));
	free(c);
}

TEST(net_tcp_fin_both_ways)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;
	char got[16];

	peer(c, IRS + 1, ISS + 1, TCP_ACK | TCP_FIN, "bye", 3, 20 * MS);
	EXPECT_EQ(c->state, TCP_CLOSE_WAIT);
	EXPECT(!tcp_conn_eof(c));
	EXPECT_EQ(tcp_conn_read(c, got, sizeof(got)), 3u);
	EXPECT(tcp_conn_eof(c));
	tcp_conn_close(c);
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	EXPECT_EQ(out.flags, TCP_FIN | TCP_ACK);
	EXPECT_EQ(out.ack, IRS + 5);
	EXPECT_EQ(c->state, TCP_LAST_ACK);
	peer(c, IRS + 5, ISS + 2, TCP_ACK, NULL, 0, 21 * MS);
	EXPECT_EQ(c->state, TCP_TIME_WAIT);
	free(c);
}

TEST(net_tcp_fin_before_missing_data_waits)
{
	struct tcp_conn *c = established();
	struct tcp_segment out;

	peer(c, IRS + 101, ISS + 1, TCP_ACK | TCP_FIN, "x", 1, 20 * MS);
	EXPECT_EQ(c->state, TCP_ESTABLISHED);
	seg(c, 0);
	EXPECT_EQ(c->state, TCP_ESTABLISHED);
	peer(c, IRS + 101, ISS + 1, TCP_ACK | TCP_FIN, "x", 1, 20 * MS);
	EXPECT_EQ(c->state, TCP_CLOSE_WAIT);
	ASSERT(tcp_conn_output(c, 20 * MS, &out));
	EXPECT_EQ(out.ack, IRS + 103);
	free(c);
}

TEST(net_tcp_other_connections_are_ignored)
{
	struct tcp_conn *c = established();
	struct tcp_segment s = {
	    .src_port = 81, .dst_port = LPORT, .seq = IRS + 1, .ack = ISS + 1, .flags = TCP_RST};

	tcp_conn_input(c, &from_peer, &s, 20 * MS);
	EXPECT(!tcp_conn_dead(c));
	EXPECT_EQ(c->dropped, 1u);
	free(c);
}

/* ---- Segments ---- */

static uint8_t frame[1600];

static const char *parse_frame(size_t n, struct tcp_segment *s)
{
	struct ipv4_packet ip;
	const char *why = ipv4_parse(frame + ETH_HLEN, n - ETH_HLEN, &ip);

	return why ? why : tcp_parse(&ip, s);
}

TEST(net_tcp_segment_round_trip)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 1};
	struct tcp_segment s = {.src_port = 1,
				.dst_port = 2,
				.seq = 3,
				.ack = 4,
				.flags = TCP_SYN,
				.window = 5,
				.mss = 1460},
			   got;
	size_t n = tcp_frame_build(frame, sizeof(frame), mac, mac, LOCAL, REMOTE, &s, 9);

	ASSERT_EQ(n, (size_t)(ETH_HLEN + IPV4_HLEN + TCP_SYN_HLEN));
	ASSERT(parse_frame(n, &got) == NULL);
	EXPECT_EQ(got.mss, 1460);
	EXPECT_EQ(got.seq, 3u);
	EXPECT_EQ(got.window, 5);
	s = (struct tcp_segment){.src_port = 1,
				 .dst_port = 2,
				 .flags = TCP_ACK,
				 .payload = (const uint8_t *)"hello",
				 .len = 5};
	n = tcp_frame_build(frame, sizeof(frame), mac, mac, LOCAL, REMOTE, &s, 9);
	ASSERT(parse_frame(n, &got) == NULL);
	EXPECT_EQ(got.len, 5u);
	EXPECT(memcmp(got.payload, "hello", 5) == 0);
	EXPECT_EQ(got.mss, 0);
	frame[n - 1] ^= 1;
	EXPECT(parse_frame(n, &got) != NULL); /* the checksum */
	EXPECT_EQ(tcp_frame_build(frame, 58, mac, mac, LOCAL, REMOTE, &s, 9), 0u);
}

/* A TCP header of hlen bytes (options from opts) in an IPv4 packet, checksummed. */
static const char *parse_raw(const uint8_t *opts, size_t opts_len, uint8_t offset_words)
{
	static uint8_t pkt[128];
	struct ipv4_packet ip = {.src = REMOTE, .dst = LOCAL, .protocol = 6, .payload = pkt};
	struct tcp_segment s;
	uint8_t pseudo[12];
	uint16_t sum;

	memset(pkt, 0, sizeof(pkt));
	pkt[12] = (uint8_t)(offset_words << 4);
	pkt[13] = TCP_ACK;
	if (opts_len)
		memcpy(pkt + 20, opts, opts_len);
	ip.payload_len = 20 + opts_len;
	net_put32(pseudo, REMOTE);
	net_put32(pseudo + 4, LOCAL);
	pseudo[8] = 0;
	pseudo[9] = 6;
	net_put16(pseudo + 10, (uint16_t)ip.payload_len);
	sum = net_checksum_fold(net_sum(pkt, ip.payload_len, net_sum(pseudo, 12, 0)));
	net_put16(pkt + 16, sum);
	return tcp_parse(&ip, &s);
}

TEST(net_tcp_hostile_headers_are_refused)
{
	static const uint8_t mss_short[4] = {2, 3, 5, 0};
	static const uint8_t past_end[4] = {1, 1, 8, 10};
	static const uint8_t zero_len[4] = {9, 0, 0, 0};
	static const uint8_t fine[8] = {1, 1, 2, 4, 5, 180, 0, 0};
	struct ipv4_packet ip = {.protocol = 6, .payload = frame, .payload_len = 10};
	struct tcp_segment s;

	EXPECT(parse_raw(fine, 8, 7) == NULL);
	EXPECT(parse_raw(mss_short, 4, 6) != NULL);
	EXPECT(parse_raw(past_end, 4, 6) != NULL);
	EXPECT(parse_raw(zero_len, 4, 6) != NULL);
	EXPECT(parse_raw(NULL, 0, 4) != NULL);	/* offset below 20 bytes */
	EXPECT(parse_raw(fine, 8, 15) != NULL); /* offset past the packet */
	EXPECT(tcp_parse(&ip, &s) != NULL);
}
