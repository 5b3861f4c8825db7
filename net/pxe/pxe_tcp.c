/* TCP over the PXE driver's link: the segments net/tcp_conn.c owes are framed and sent
 * to the next hop, and the TCP segments that arrive are fed back to it. */
#define LOG_PREFIX "tcp: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "pxe.h"

#define PXE_TCP_FRAMES 64 /* frames taken in per pump before sending again */

static EFI_STATUS pxe_tcp_flush(struct pxe_dev *d, struct pxe_tcp *t)
{
	struct tcp_segment seg;

	while (tcp_conn_output(&t->conn, core_time_ns(), &seg)) {
		size_t n = tcp_frame_build(d->tx, sizeof(d->tx), t->mac, d->mac, d->ip,
					   t->conn.remote_ip, &seg, d->ip_id++);
		EFI_STATUS status;

		if (!n)
			return EFI_BAD_BUFFER_SIZE;
		if (n < 60) {
			mem_set(d->tx + n, 0, 60 - n);
			n = 60;
		}
		status = pxe_transmit(d, d->tx, n);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

/* What a connection that ended badly means for the caller. */
static EFI_STATUS pxe_tcp_status(const struct tcp_conn *c)
{
	if (c->error && !str8_ncmp(c->error, "connection refused", 18))
		return EFI_NO_RESPONSE;
	if (c->error && !str8_ncmp(c->error, "no answer", 9))
		return EFI_TIMEOUT;
	return EFI_ABORTED;
}

EFI_STATUS pxe_tcp_pump(struct pxe_dev *d, struct pxe_tcp *t, bool *got_frame)
{
	EFI_STATUS status = pxe_tcp_flush(d, t);

	*got_frame = false;
	for (int i = 0; i < PXE_TCP_FRAMES && !EFI_ERROR(status); i++) {
		struct ipv4_packet ip;
		struct tcp_segment seg;
		bool got;
		const char *why;

		if (!pxe_receive_ip(d, &ip, &got)) {
			if (!got)
				break;
			*got_frame = true;
			continue;
		}
		*got_frame = true;
		if (ip.protocol != IPV4_PROTO_TCP)
			continue;
		why = tcp_parse(&ip, &seg);
		if (why) {
			log_debug("dropped a segment: %s\n", why);
			continue;
		}
		tcp_conn_input(&t->conn, &ip, &seg, core_time_ns());
		/* An ACK owed now goes now: each segment out of order gets its duplicate ACK,
		 * which the sender counts for its fast retransmit. */
		if (t->conn.ack_now)
			status = pxe_tcp_flush(d, t);
	}
	if (!EFI_ERROR(status))
		status = pxe_tcp_flush(d, t);
	if (!EFI_ERROR(status) && tcp_conn_dead(&t->conn)) {
		log_debug("connection to port %u: %s\n", t->conn.remote_port,
			  t->conn.error ? t->conn.error : "closed");
		status = pxe_tcp_status(&t->conn);
	}
	return status;
}

EFI_STATUS pxe_tcp_connect(struct pxe_dev *d, struct pxe_tcp *t, uint32_t ip, uint16_t port)
{
	UINT64 now = core_time_ns();
	uint32_t iss = (uint32_t)(now ^ now >> 32) * 2654435761u;
	EFI_STATUS status = pxe_next_hop(d, ip, t->mac);

	if (EFI_ERROR(status))
		return status;
	tcp_conn_open(&t->conn, d->ip, pxe_new_port(d), ip, port, iss);
	while (t->conn.state == TCP_SYN_SENT) {
		bool got;
		status = pxe_tcp_pump(d, t, &got);
		if (EFI_ERROR(status))
			return status;
		if (!got)
			core_stall_us(50);
	}
	return EFI_SUCCESS;
}
