/* TCP (RFC 9293) for one client connection at a time: segments checked and framed
 * (net/tcp_segment.c) and the connection's state machine (net/tcp_conn.c): active open with
 * the MSS option, in-order delivery through a receive ring whose free space is the window,
 * out-of-order segments kept in that ring (a few ranges, more are dropped), retransmission
 * after an RTO with exponential backoff (RFC 6298), FIN and RST (with RFC 5961's checks).
 * Pure: the caller sends the segments tcp_conn_output gives and feeds in what comes. */
#ifndef EMBER_NET_TCP_H
#define EMBER_NET_TCP_H

#include <ember/net/ipv4.h>

#define IPV4_PROTO_TCP 6
#define TCP_HLEN 20
#define TCP_SYN_HLEN 24 /* with the MSS option */
#define NET_TCP_FRAME_HLEN (14 + IPV4_HLEN + TCP_HLEN)
#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_PSH 0x08
#define TCP_ACK 0x10
/* What one Ethernet frame carries after the IPv4 and TCP headers. */
#define TCP_MSS_MAX 1460
#define TCP_MSS_DEFAULT 536 /* a peer that gives no MSS option (RFC 9293, 3.7.1) */
#define TCP_RX_SIZE 65536   /* the receive ring; the window is at most 65535 */
#define TCP_TX_SIZE 4096    /* what the client sends (an HTTP request, a DNS query) */
#define TCP_OOO_MAX 4	    /* out-of-order ranges kept; a segment that needs more is dropped */
#define TCP_RTO_INITIAL_NS 1000000000ull
#define TCP_RTO_MIN_NS 200000000ull
#define TCP_RTO_MAX_NS 8000000000ull
#define TCP_MAX_RETRIES 8

struct tcp_segment {
	uint16_t src_port, dst_port;
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t window;
	uint16_t mss;		/* the MSS option, 0 when absent */
	const uint8_t *payload; /* inside the packet parsed, or the caller's data to send */
	size_t len;
};

/* Reads the TCP segment an IPv4 packet carries. Refuses: a header shorter than 20 bytes or a
 * data offset past the packet, a bad checksum (with the pseudo-header), an option running
 * past the header, an MSS option of a length other than 4, and SYN with RST or FIN. */
const char *tcp_parse(const struct ipv4_packet *ip, struct tcp_segment *out);

/* Writes a whole frame for s (Ethernet, IPv4, TCP with the MSS option when s->mss is set,
 * then s->len bytes copied from s->payload); returns its length, or 0 when it does not fit
 * cap. */
size_t tcp_frame_build(uint8_t *buf, size_t cap, const uint8_t *dst_mac, const uint8_t *src_mac,
		       uint32_t src_ip, uint32_t dst_ip, const struct tcp_segment *s,
		       uint16_t ip_id);

enum tcp_state {
	TCP_CLOSED,
	TCP_SYN_SENT,
	TCP_ESTABLISHED,
	TCP_FIN_WAIT_1, /* we closed; our FIN not yet acknowledged */
	TCP_FIN_WAIT_2, /* our FIN acknowledged; the peer's not yet seen */
	TCP_CLOSE_WAIT, /* the peer closed; we have not */
	TCP_CLOSING,	/* both closed; our FIN not yet acknowledged */
	TCP_LAST_ACK,
	TCP_TIME_WAIT, /* both FINs done: the connection is over */
};

struct tcp_range {
	uint32_t start, end; /* sequence numbers [start, end) held past rcv_nxt */
};

struct tcp_conn {
	enum tcp_state state;
	const char *error; /* why the connection ended badly (reset, timeout), NULL if not */
	uint32_t local_ip, remote_ip;
	uint16_t local_port, remote_port;
	/* Send side (RFC 9293, 3.3.1). */
	uint32_t iss, snd_una, snd_nxt;
	uint32_t snd_wnd;	 /* the peer's window */
	uint16_t mss;		 /* what we send per segment: the peer's MSS, at most ours */
	uint8_t tx[TCP_TX_SIZE]; /* bytes from snd_una (after the SYN) not yet acknowledged */
	size_t tx_len;
	bool close_wanted, fin_sent;
	/* Receive side. */
	uint32_t irs, rcv_nxt;
	bool peer_fin;
	uint8_t rx[TCP_RX_SIZE]; /* a ring: rx_len bytes in order from rx_head */
	size_t rx_head, rx_len;
	struct tcp_range ooo[TCP_OOO_MAX]; /* sorted, disjoint, above rcv_nxt */
	unsigned ooo_count;
	uint16_t wnd_sent;     /* the window last advertised */
	bool ack_now;	       /* an ACK (or window update) is owed now */
	unsigned acks_owed;    /* in-order segments not yet acknowledged */
	uint64_t ack_deadline; /* when a delayed ACK goes out; 0: none owed */
	/* Retransmission (RFC 6298). */
	uint64_t rto_ns, rto_deadline; /* deadline 0: the timer is off */
	uint64_t srtt_ns, rttvar_ns;
	uint64_t rtt_start;
	uint32_t rtt_seq; /* the segment timed (Karn: never a retransmitted one) */
	bool rtt_timing;
	unsigned retries;
	bool probe; /* the persist timer fired: one byte may go into a closed window */
	/* Counters, for the tests and the user. */
	uint64_t retransmits, dropped, out_of_order;
};

/* Starts an active open from local_ip:local_port to remote_ip:remote_port with initial
 * sequence number iss: the SYN goes out at the next tcp_conn_output. */
void tcp_conn_open(struct tcp_conn *c, uint32_t local_ip, uint16_t local_port, uint32_t remote_ip,
		   uint16_t remote_port, uint32_t iss);
/* Queues len bytes to send; returns how many fit (0 once closing or closed). */
size_t tcp_conn_write(struct tcp_conn *c, const void *data, size_t len);
/* Copies up to cap received bytes, in order, to buf; returns how many. */
size_t tcp_conn_read(struct tcp_conn *c, void *buf, size_t cap);
/* Our side is done sending: a FIN follows the queued data. */
void tcp_conn_close(struct tcp_conn *c);
/* Takes in a segment from the IPv4 packet's source to its destination at time now_ns. */
void tcp_conn_input(struct tcp_conn *c, const struct ipv4_packet *ip, const struct tcp_segment *s,
		    uint64_t now_ns);
/* The next segment to send at now_ns (payload pointing into c), or false when nothing is
 * due. Call until false. Runs the retransmission timer: after TCP_MAX_RETRIES unanswered
 * retransmissions the connection ends with error set. */
bool tcp_conn_output(struct tcp_conn *c, uint64_t now_ns, struct tcp_segment *out);
/* The peer sent its FIN and every byte before it was read: nothing more will come. */
bool tcp_conn_eof(const struct tcp_conn *c);
/* The connection can carry no more data either way (closed, reset, timed out). */
bool tcp_conn_dead(const struct tcp_conn *c);

#endif
