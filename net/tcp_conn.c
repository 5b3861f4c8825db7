/* One TCP connection's state machine (RFC 9293, 3.10), the client's side: active open,
 * in-order delivery through the receive ring, out-of-order ranges kept in the ring ahead of
 * rcv_nxt, ACKs for every second segment (at once for anything out of order, so a sender
 * retransmits fast), the retransmission timer of RFC 6298 with Karn's rule and exponential
 * backoff, and RST/SYN checked as RFC 5961 asks (a reset only at exactly rcv_nxt). */
#include <ember/lib/str.h>
#include <ember/net/tcp.h>

#define TCP_DELACK_NS 5000000ull /* a lone segment's ACK waits this long for the next */
#define TCP_MSS_MIN 64		 /* a smaller MSS option is raised to it */

static bool seq_lt(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

static bool seq_le(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) <= 0;
}

/* The receive window: the ring's free space, as the 16-bit field can carry it. */
static uint32_t tcp_rcv_wnd(const struct tcp_conn *c)
{
	size_t free = TCP_RX_SIZE - c->rx_len;

	return free > 65535 ? 65535 : (uint32_t)free;
}

static void tcp_fail(struct tcp_conn *c, const char *why)
{
	c->state = TCP_CLOSED;
	c->error = why;
	c->rto_deadline = 0;
}

void tcp_conn_open(struct tcp_conn *c, uint32_t local_ip, uint16_t local_port, uint32_t remote_ip,
		   uint16_t remote_port, uint32_t iss)
{
	mem_set(c, 0, sizeof(*c));
	c->state = TCP_SYN_SENT;
	c->local_ip = local_ip;
	c->local_port = local_port;
	c->remote_ip = remote_ip;
	c->remote_port = remote_port;
	c->iss = c->snd_una = c->snd_nxt = iss;
	c->mss = TCP_MSS_DEFAULT;
	c->rto_ns = TCP_RTO_INITIAL_NS;
}

size_t tcp_conn_write(struct tcp_conn *c, const void *data, size_t len)
{
	bool open =
	    c->state == TCP_SYN_SENT || c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT;
	size_t room = TCP_TX_SIZE - c->tx_len;

	if (!open || c->close_wanted)
		return 0;
	if (len > room)
		len = room;
	mem_copy(c->tx + c->tx_len, data, len);
	c->tx_len += len;
	return len;
}

/* Copies len bytes to the ring at offset bytes past its head, wrapping. */
static void tcp_ring_put(struct tcp_conn *c, size_t offset, const uint8_t *p, size_t len)
{
	size_t at = (c->rx_head + offset) % TCP_RX_SIZE;
	size_t first = TCP_RX_SIZE - at < len ? TCP_RX_SIZE - at : len;

	mem_copy(c->rx + at, p, first);
	mem_copy(c->rx, p + first, len - first);
}

size_t tcp_conn_read(struct tcp_conn *c, void *buf, size_t cap)
{
	size_t n = cap < c->rx_len ? cap : c->rx_len;
	size_t first = TCP_RX_SIZE - c->rx_head < n ? TCP_RX_SIZE - c->rx_head : n;
	uint32_t wnd;

	mem_copy(buf, c->rx + c->rx_head, first);
	mem_copy((uint8_t *)buf + first, c->rx, n - first);
	c->rx_head = (c->rx_head + n) % TCP_RX_SIZE;
	c->rx_len -= n;
	/* A window that had closed by half or more is announced as soon as it opens again by
	 * two segments (receiver-side silly window avoidance, RFC 1122 4.2.3.3). */
	wnd = tcp_rcv_wnd(c);
	if (c->wnd_sent < TCP_RX_SIZE / 2 && wnd >= c->wnd_sent + 2u * TCP_MSS_MAX)
		c->ack_now = true;
	return n;
}

void tcp_conn_close(struct tcp_conn *c)
{
	if (c->state == TCP_SYN_SENT)
		tcp_fail(c, "closed before it was established");
	else
		c->close_wanted = true;
}

bool tcp_conn_eof(const struct tcp_conn *c)
{
	return c->peer_fin && c->rx_len == 0;
}

bool tcp_conn_dead(const struct tcp_conn *c)
{
	return c->state == TCP_CLOSED;
}

/* ---- Retransmission timer (RFC 6298) ---- */

static void tcp_rtt_sample(struct tcp_conn *c, uint64_t now)
{
	uint64_t r = now - c->rtt_start, rto;

	if (!c->srtt_ns) {
		c->srtt_ns = r ? r : 1;
		c->rttvar_ns = r / 2;
	} else {
		uint64_t diff = c->srtt_ns > r ? c->srtt_ns - r : r - c->srtt_ns;
		c->rttvar_ns = (3 * c->rttvar_ns + diff) / 4;
		c->srtt_ns = (7 * c->srtt_ns + r) / 8;
	}
	rto = c->srtt_ns + 4 * c->rttvar_ns;
	c->rto_ns = rto < TCP_RTO_MIN_NS   ? TCP_RTO_MIN_NS
		    : rto > TCP_RTO_MAX_NS ? TCP_RTO_MAX_NS
					   : rto;
	c->rtt_timing = false;
}

/* The timer fired: go back to the oldest unacknowledged byte, wait twice as long next. */
static void tcp_timeout(struct tcp_conn *c)
{
	if (c->retries >= TCP_MAX_RETRIES) {
		tcp_fail(c, "no answer from the peer (retransmissions exhausted)");
		return;
	}
	c->retries++;
	c->retransmits++;
	c->rto_ns = c->rto_ns * 2 > TCP_RTO_MAX_NS ? TCP_RTO_MAX_NS : c->rto_ns * 2;
	c->rto_deadline = 0;
	c->rtt_timing = false; /* Karn: a retransmitted segment is never timed */
	c->snd_nxt = c->snd_una;
	if (c->state == TCP_SYN_SENT)
		return;
	c->fin_sent = false;
}

/* ---- Input ---- */

/* Records [seq, seq + len) as held ahead of rcv_nxt, merging ranges; false when it would
 * need more than TCP_OOO_MAX ranges. */
static bool tcp_ooo_add(struct tcp_conn *c, uint32_t seq, uint32_t len)
{
	struct tcp_range merged[TCP_OOO_MAX + 2];
	uint32_t s = seq - c->rcv_nxt, e = s + len; /* offsets from rcv_nxt */
	unsigned n = 0;
	bool placed = false;

	for (unsigned i = 0; i < c->ooo_count; i++) {
		uint32_t rs = c->ooo[i].start - c->rcv_nxt, re = c->ooo[i].end - c->rcv_nxt;
		if (re < s || rs > e) {
			if (!placed && rs > e) {
				merged[n++] = (struct tcp_range){s, e};
				placed = true;
			}
			merged[n++] = (struct tcp_range){rs, re};
		} else {
			s = rs < s ? rs : s;
			e = re > e ? re : e;
		}
		if (n > TCP_OOO_MAX)
			return false;
	}
	if (!placed)
		merged[n++] = (struct tcp_range){s, e};
	if (n > TCP_OOO_MAX)
		return false;
	for (unsigned i = 0; i < n; i++)
		c->ooo[i] =
		    (struct tcp_range){c->rcv_nxt + merged[i].start, c->rcv_nxt + merged[i].end};
	c->ooo_count = n;
	return true;
}

/* rcv_nxt moved: ranges it reached become in-order data. */
static void tcp_ooo_advance(struct tcp_conn *c)
{
	while (c->ooo_count && seq_le(c->ooo[0].start, c->rcv_nxt)) {
		if (seq_lt(c->rcv_nxt, c->ooo[0].end)) {
			c->rx_len += c->ooo[0].end - c->rcv_nxt;
			c->rcv_nxt = c->ooo[0].end;
		}
		c->ooo_count--;
		mem_copy(c->ooo, c->ooo + 1, c->ooo_count * sizeof(c->ooo[0]));
	}
}

static void tcp_receive_data(struct tcp_conn *c, uint32_t seq, const uint8_t *p, size_t len,
			     uint64_t now)
{
	uint32_t wnd = tcp_rcv_wnd(c), off;

	if (seq_lt(seq, c->rcv_nxt)) {
		uint32_t skip = c->rcv_nxt - seq;
		if (skip >= len) {
			c->ack_now = true; /* a duplicate: our ACK was lost */
			return;
		}
		p += skip;
		len -= skip;
		seq = c->rcv_nxt;
	}
	off = seq - c->rcv_nxt;
	if (off >= wnd) {
		c->dropped++;
		c->ack_now = true;
		return;
	}
	if (len > wnd - off)
		len = wnd - off;
	if (off) {
		c->out_of_order++;
		c->ack_now = true; /* a duplicate ACK: the sender's fast retransmit */
		if (!tcp_ooo_add(c, seq, (uint32_t)len)) {
			c->dropped++;
			return;
		}
		tcp_ring_put(c, c->rx_len + off, p, len);
		return;
	}
	tcp_ring_put(c, c->rx_len, p, len);
	c->rx_len += len;
	c->rcv_nxt += (uint32_t)len;
	if (c->ooo_count) {
		tcp_ooo_advance(c);
		c->ack_now = true; /* a hole filled: tell the sender at once */
	} else if (++c->acks_owed >= 2) {
		c->ack_now = true;
	} else if (!c->ack_deadline) {
		c->ack_deadline = now + TCP_DELACK_NS;
	}
}

/* The SYN-ACK of our SYN (RFC 9293, 3.10.7.3). */
static void tcp_input_syn_sent(struct tcp_conn *c, const struct tcp_segment *s, uint64_t now)
{
	bool ack_ok = (s->flags & TCP_ACK) && s->ack == c->iss + 1 && c->snd_nxt == c->iss + 1;

	if ((s->flags & TCP_ACK) && !ack_ok) {
		c->dropped++;
		return;
	}
	if (s->flags & TCP_RST) {
		if (ack_ok)
			tcp_fail(c, "connection refused");
		return;
	}
	if (!(s->flags & TCP_SYN) || !ack_ok) {
		c->dropped++; /* a simultaneous open is not supported */
		return;
	}
	c->irs = s->seq;
	c->rcv_nxt = s->seq + 1;
	c->snd_una = s->ack;
	c->snd_wnd = s->window;
	c->mss = s->mss ? s->mss : TCP_MSS_DEFAULT;
	c->mss = c->mss > TCP_MSS_MAX ? TCP_MSS_MAX : c->mss < TCP_MSS_MIN ? TCP_MSS_MIN : c->mss;
	if (c->rtt_timing)
		tcp_rtt_sample(c, now);
	c->state = TCP_ESTABLISHED;
	c->retries = 0;
	c->rto_deadline = 0;
	c->ack_now = true;
}

/* Whether a segment lies (partly) in the receive window (RFC 9293, 3.10.7.4). */
static bool tcp_acceptable(const struct tcp_conn *c, const struct tcp_segment *s)
{
	uint32_t wnd = tcp_rcv_wnd(c);
	uint32_t len = (uint32_t)s->len + ((s->flags & TCP_FIN) ? 1 : 0);
	uint32_t off = s->seq - c->rcv_nxt, last = off + len - 1;

	if (!wnd)
		return len == 0 && s->seq == c->rcv_nxt;
	if (!len)
		return off < wnd;
	return off < wnd || last < wnd;
}

/* Our FIN was acknowledged. */
static void tcp_fin_acked(struct tcp_conn *c)
{
	if (c->state == TCP_FIN_WAIT_1)
		c->state = TCP_FIN_WAIT_2;
	else if (c->state == TCP_CLOSING || c->state == TCP_LAST_ACK)
		c->state = TCP_TIME_WAIT;
}

static void tcp_input_ack(struct tcp_conn *c, const struct tcp_segment *s, uint64_t now)
{
	uint32_t acked;

	if (seq_lt(c->snd_nxt, s->ack)) {
		c->ack_now = true; /* acknowledges what was never sent */
		return;
	}
	if (seq_le(c->snd_una, s->ack))
		c->snd_wnd = s->window;
	if (!seq_lt(c->snd_una, s->ack))
		return;
	acked = s->ack - c->snd_una;
	if (acked > c->tx_len) {
		c->tx_len = 0; /* the rest is our FIN */
		tcp_fin_acked(c);
	} else {
		c->tx_len -= acked;
		mem_copy(c->tx, c->tx + acked, c->tx_len);
	}
	if (c->rtt_timing && seq_le(c->rtt_seq, s->ack))
		tcp_rtt_sample(c, now);
	c->snd_una = s->ack;
	c->retries = 0;
	c->rto_deadline = c->snd_una == c->snd_nxt ? 0 : now + c->rto_ns;
}

static void tcp_input_fin(struct tcp_conn *c, const struct tcp_segment *s)
{
	c->ack_now = true;
	if (c->peer_fin || s->seq + (uint32_t)s->len != c->rcv_nxt)
		return; /* a repeat, or data before it is missing: the peer sends it again */
	c->peer_fin = true;
	c->rcv_nxt++;
	/* Nothing follows a FIN: segments held beyond it were never data of this stream. */
	c->ooo_count = 0;
	if (c->state == TCP_ESTABLISHED)
		c->state = TCP_CLOSE_WAIT;
	else if (c->state == TCP_FIN_WAIT_1)
		c->state = TCP_CLOSING;
	else if (c->state == TCP_FIN_WAIT_2)
		c->state = TCP_TIME_WAIT;
}

void tcp_conn_input(struct tcp_conn *c, const struct ipv4_packet *ip, const struct tcp_segment *s,
		    uint64_t now)
{
	if (ip->src != c->remote_ip || ip->dst != c->local_ip || s->src_port != c->remote_port ||
	    s->dst_port != c->local_port || c->state == TCP_CLOSED) {
		c->dropped++;
		return;
	}
	if (c->state == TCP_SYN_SENT) {
		tcp_input_syn_sent(c, s, now);
		return;
	}
	if (!tcp_acceptable(c, s)) {
		c->dropped++;
		if (!(s->flags & TCP_RST))
			c->ack_now = true;
		return;
	}
	/* RFC 5961: only a reset at exactly rcv_nxt counts; a SYN gets a challenge ACK. */
	if (s->flags & (TCP_RST | TCP_SYN)) {
		if ((s->flags & TCP_RST) && s->seq == c->rcv_nxt)
			tcp_fail(c, "connection reset by the peer");
		else
			c->ack_now = true;
		return;
	}
	if (!(s->flags & TCP_ACK))
		return;
	tcp_input_ack(c, s, now);
	if (s->len && !c->peer_fin)
		tcp_receive_data(c, s->seq, s->payload, s->len, now);
	if (s->flags & TCP_FIN)
		tcp_input_fin(c, s);
}

/* ---- Output ---- */

static void tcp_segment_fill(struct tcp_conn *c, struct tcp_segment *out, uint32_t seq,
			     uint8_t flags)
{
	mem_set(out, 0, sizeof(*out));
	out->src_port = c->local_port;
	out->dst_port = c->remote_port;
	out->seq = seq;
	out->flags = flags;
	if (c->state != TCP_SYN_SENT) {
		out->flags |= TCP_ACK;
		out->ack = c->rcv_nxt;
	}
	out->window = (uint16_t)tcp_rcv_wnd(c);
	c->wnd_sent = out->window;
	c->ack_now = false;
	c->acks_owed = 0;
	c->ack_deadline = 0;
}

static void tcp_arm(struct tcp_conn *c, uint64_t now, uint32_t seq_after)
{
	if (!c->rto_deadline)
		c->rto_deadline = now + c->rto_ns;
	if (!c->rtt_timing && !c->retries) {
		c->rtt_timing = true;
		c->rtt_seq = seq_after;
		c->rtt_start = now;
	}
}

/* The next data segment or FIN, if the window lets one go. */
static bool tcp_output_data(struct tcp_conn *c, uint64_t now, struct tcp_segment *out)
{
	size_t sent = c->snd_nxt - c->snd_una, n;
	size_t wnd_left = c->snd_wnd > sent ? c->snd_wnd - sent : 0;

	if (sent < c->tx_len) {
		/* A closed window is probed with one byte when the timer fires. */
		if (!wnd_left && !sent && (c->retries || c->probe))
			wnd_left = 1;
		c->probe = false;
		n = c->tx_len - sent;
		n = n < wnd_left ? n : wnd_left;
		n = n < c->mss ? n : c->mss;
		if (!n) {
			if (!c->rto_deadline)
				c->rto_deadline = now + c->rto_ns; /* the persist timer */
			return false;
		}
		tcp_segment_fill(c, out, c->snd_nxt, TCP_PSH);
		out->payload = c->tx + sent;
		out->len = n;
		c->snd_nxt += (uint32_t)n;
		tcp_arm(c, now, c->snd_nxt);
		return true;
	}
	if (!c->close_wanted || c->fin_sent || sent > c->tx_len)
		return false;
	tcp_segment_fill(c, out, c->snd_nxt, TCP_FIN);
	c->snd_nxt++;
	c->fin_sent = true;
	if (c->state == TCP_ESTABLISHED)
		c->state = TCP_FIN_WAIT_1;
	else if (c->state == TCP_CLOSE_WAIT)
		c->state = TCP_LAST_ACK;
	tcp_arm(c, now, c->snd_nxt);
	return true;
}

bool tcp_conn_output(struct tcp_conn *c, uint64_t now, struct tcp_segment *out)
{
	if (c->state == TCP_CLOSED)
		return false;
	if (c->rto_deadline && now >= c->rto_deadline) {
		if (c->snd_una != c->snd_nxt) {
			tcp_timeout(c);
		} else {
			c->rto_deadline = 0; /* the persist timer: a probe goes below */
			c->probe = true;
		}
	}
	if (c->state == TCP_CLOSED)
		return false;
	if (c->state == TCP_SYN_SENT) {
		if (c->snd_nxt != c->iss)
			return false;
		tcp_segment_fill(c, out, c->iss, TCP_SYN);
		out->mss = TCP_MSS_MAX;
		c->snd_nxt = c->iss + 1;
		tcp_arm(c, now, c->snd_nxt);
		return true;
	}
	if (c->state != TCP_TIME_WAIT && c->state != TCP_FIN_WAIT_2 && tcp_output_data(c, now, out))
		return true;
	if (c->ack_deadline && now >= c->ack_deadline)
		c->ack_now = true;
	if (!c->ack_now)
		return false;
	tcp_segment_fill(c, out, c->snd_nxt, 0);
	return true;
}
