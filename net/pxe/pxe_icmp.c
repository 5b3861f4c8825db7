/* ICMP echo over the PXE driver's link (RFC 792): requests to our address answered, and
 * ping's request sent and its reply awaited. */
#define LOG_PREFIX "icmp: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/net/icmp.h>
#include "pxe.h"

#define PING_DATA_LEN 32
#define PING_ID 0x454d /* "EM": ours, whatever the sequence */
#define PING_PAUSE_MAX_US 1000

void pxe_icmp_answer(struct pxe_dev *d, const struct ipv4_packet *ip, const uint8_t *src_mac)
{
	struct icmp_echo e;
	const char *why = icmp_echo_parse(ip, &e);
	size_t n;

	if (why) {
		log_debug("dropped a packet: %s\n", why);
		return;
	}
	/* The reply goes back to the MAC the request came from: no ARP, which would receive
	 * frames over the request we are reading. */
	e.type = ICMP_ECHO_REPLY;
	n = icmp_echo_frame_build(d->icmp_tx, sizeof(d->icmp_tx), src_mac, d->mac, d->ip, ip->src,
				  &e, d->ip_id++);
	if (!n) {
		log_debug("an echo request of %u bytes is too long to answer\n", (unsigned)e.len);
		return;
	}
	if (n < 60) {
		mem_set(d->icmp_tx + n, 0, 60 - n);
		n = 60;
	}
	pxe_transmit(d, d->icmp_tx, n);
}

static void ping_data(uint8_t *data, uint16_t seq)
{
	for (size_t i = 0; i < PING_DATA_LEN; i++)
		data[i] = (uint8_t)('a' + (i + seq) % 26);
}

/* Whether the packet is the reply to our request seq from ip. */
static bool ping_is_reply(const struct ipv4_packet *p, uint32_t ip, uint16_t seq,
			  const uint8_t *data)
{
	struct icmp_echo e;

	if (p->protocol != IPV4_PROTO_ICMP || p->src != ip || icmp_echo_parse(p, &e))
		return false;
	return e.type == ICMP_ECHO_REPLY && e.id == PING_ID && e.seq == seq &&
	       e.len == PING_DATA_LEN && !mem_cmp(e.data, data, PING_DATA_LEN);
}

EFI_STATUS pxe_ping(struct pxe_dev *d, uint32_t ip, uint16_t seq, UINT64 timeout_ns, UINT64 *rtt_ns)
{
	uint8_t mac[NET_MAC_LEN], data[PING_DATA_LEN];
	struct icmp_echo e = {ICMP_ECHO_REQUEST, PING_ID, seq, data, PING_DATA_LEN};
	UINT64 start, pause_us = 1;
	EFI_STATUS status;
	size_t n;

	if (!d->ip)
		return EFI_NO_MAPPING;
	status = pxe_next_hop(d, ip, mac);
	if (EFI_ERROR(status))
		return status;
	ping_data(data, seq);
	n = icmp_echo_frame_build(d->icmp_tx, sizeof(d->icmp_tx), mac, d->mac, d->ip, ip, &e,
				  d->ip_id++);
	start = core_time_ns();
	status = pxe_transmit(d, d->icmp_tx, n);
	if (EFI_ERROR(status))
		return status;
	do {
		struct ipv4_packet p;
		bool got_frame;

		if (pxe_receive_ip(d, &p, &got_frame) && ping_is_reply(&p, ip, seq, data)) {
			*rtt_ns = core_time_ns() - start;
			return EFI_SUCCESS;
		}
		if (got_frame) {
			pause_us = 1;
		} else {
			core_stall_us(pause_us);
			pause_us = pause_us < PING_PAUSE_MAX_US ? pause_us * 2 : PING_PAUSE_MAX_US;
		}
	} while (core_time_ns() - start < timeout_ns);
	log_debug("no echo reply %u from %u.%u.%u.%u\n", seq, ip >> 24, ip >> 16 & 0xff,
		  ip >> 8 & 0xff, ip & 0xff);
	return EFI_TIMEOUT;
}
