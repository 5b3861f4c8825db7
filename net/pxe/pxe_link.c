/* The PXE driver's link: UDP over IPv4 over Ethernet through the SNP, with ARP. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/net/eth.h>
#include <ember/net/icmp.h>
#include "pxe.h"

#define ARP_TRIES 4
#define ARP_WAIT_NS 500000000ull
#define PXE_PAUSE_MAX_US 10000

static const uint8_t broadcast_mac[NET_MAC_LEN] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

EFI_STATUS pxe_link_up(struct pxe_dev *d)
{
	EFI_SIMPLE_NETWORK_PROTOCOL *snp = d->snp;
	UINT32 filters = EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST;
	EFI_STATUS status = EFI_SUCCESS;

	if (snp->Mode->State == EfiSimpleNetworkStopped)
		status = snp->Start(snp);
	if (!EFI_ERROR(status) && snp->Mode->State == EfiSimpleNetworkStarted)
		status = snp->Initialize(snp, 0, 0);
	if (EFI_ERROR(status)) {
		log_debug("starting the SNP: %r\n", status);
		return status;
	}
	status =
	    snp->ReceiveFilters(snp, filters & snp->Mode->ReceiveFilterMask, 0, false, 0, NULL);
	if (EFI_ERROR(status))
		log_debug("receive filters: %r (carrying on)\n", status);
	mem_copy(d->mac, snp->Mode->CurrentAddress.Addr, NET_MAC_LEN);
	return EFI_SUCCESS;
}

EFI_STATUS pxe_transmit(struct pxe_dev *d, const void *frame, size_t len)
{
	EFI_STATUS status = d->snp->Transmit(d->snp, 0, len, (void *)frame, NULL, NULL, NULL);
	void *done = NULL;

	if (EFI_ERROR(status)) {
		log_debug("transmit of %u bytes: %r\n", (unsigned)len, status);
		return status;
	}
	/* Reclaim the buffer, so the SNP never holds one we are about to rewrite. */
	for (int i = 0; i < 1000 && !done; i++) {
		UINT32 irq;
		if (EFI_ERROR(d->snp->GetStatus(d->snp, &irq, &done)))
			break;
		if (!done)
			core_stall_us(10);
	}
	return EFI_SUCCESS;
}

static void pxe_arp_send(struct pxe_dev *d, const struct arp_packet *a, const uint8_t *dst)
{
	uint8_t frame[60] = {0}; /* padded to Ethernet's minimum */

	eth_build(frame, sizeof(frame), dst, d->mac, ETH_TYPE_ARP);
	arp_build(frame + ETH_HLEN, sizeof(frame) - ETH_HLEN, a);
	pxe_transmit(d, frame, sizeof(frame));
}

static void pxe_arp_in(struct pxe_dev *d, const struct eth_frame *f)
{
	struct arp_packet in, reply;

	if (!arp_parse(f->payload, f->payload_len, &in))
		return;
	if (arp_input(&d->arp, d->ip, d->mac, &in, &reply))
		pxe_arp_send(d, &reply, in.sha);
}

bool pxe_receive_ip(struct pxe_dev *d, struct ipv4_packet *ip, bool *got_frame)
{
	UINTN size = sizeof(d->rx);
	struct eth_frame f;
	const char *why;

	*got_frame = !EFI_ERROR(d->snp->Receive(d->snp, NULL, &size, d->rx, NULL, NULL, NULL));
	if (!*got_frame || !eth_parse(d->rx, size, &f))
		return false;
	if (f.type == ETH_TYPE_ARP) {
		pxe_arp_in(d, &f);
		return false;
	}
	if (f.type != ETH_TYPE_IPV4)
		return false;
	why = ipv4_parse(f.payload, f.payload_len, ip);
	if (why) {
		log_debug("dropped a packet: %s\n", why);
		return false;
	}
	/* Echo requests to our address are answered here, whoever is waiting. */
	if (ip->protocol == IPV4_PROTO_ICMP && d->ip && ip->dst == d->ip && ip->payload_len >= 1 &&
	    ip->payload[0] == ICMP_ECHO_REQUEST) {
		pxe_icmp_answer(d, ip, f.src);
		return false;
	}
	/* Before DHCP binds us, replies may be sent to the address offered. */
	return !d->ip || ip->dst == d->ip || ip->dst == NET_IPV4_BROADCAST;
}

/* Receives one frame; returns true when it is a UDP datagram to port for us. */
static bool pxe_receive_one(struct pxe_dev *d, uint16_t port, struct udp_datagram *out,
			    uint32_t *src_ip, bool *got_frame)
{
	struct ipv4_packet ip;
	const char *why;

	if (!pxe_receive_ip(d, &ip, got_frame) || ip.protocol != IPV4_PROTO_UDP)
		return false;
	why = udp_parse(&ip, out);
	if (why) {
		log_debug("dropped a packet: %s\n", why);
		return false;
	}
	*src_ip = ip.src;
	return !port || out->dst_port == port;
}

bool pxe_wait_udp(struct pxe_dev *d, uint16_t port, UINT64 deadline_ns, struct udp_datagram *out,
		  uint32_t *src_ip)
{
	UINT64 pause_us = 10;
	bool got_frame;

	do {
		if (pxe_receive_one(d, port, out, src_ip, &got_frame))
			return true;
		/* The pause between looks grows with the time waited: a reply that comes at
		 * once is seen at once, and a long wait costs few polls. */
		if (got_frame) {
			pause_us = 10;
		} else {
			core_stall_us(pause_us);
			pause_us = pause_us < PXE_PAUSE_MAX_US ? pause_us * 2 : PXE_PAUSE_MAX_US;
		}
	} while (core_time_ns() < deadline_ns);
	return false;
}

EFI_STATUS pxe_resolve(struct pxe_dev *d, uint32_t ip, uint8_t *mac)
{
	struct arp_packet req = {.op = ARP_REQUEST, .spa = d->ip, .tpa = ip};
	struct udp_datagram ignored;
	uint32_t from;

	mem_copy(req.sha, d->mac, NET_MAC_LEN);
	for (int i = 0; i < ARP_TRIES; i++) {
		UINT64 deadline;

		if (arp_cache_get(&d->arp, ip, mac))
			return EFI_SUCCESS;
		pxe_arp_send(d, &req, broadcast_mac);
		deadline = core_time_ns() + ARP_WAIT_NS;
		/* Datagrams that come meanwhile are dropped: their senders will resend. */
		while (!arp_cache_get(&d->arp, ip, mac) && core_time_ns() < deadline)
			pxe_wait_udp(d, 0, core_time_ns() + 1000000, &ignored, &from);
	}
	if (arp_cache_get(&d->arp, ip, mac))
		return EFI_SUCCESS;
	log_debug("no ARP answer from %u.%u.%u.%u\n", ip >> 24, ip >> 16 & 0xff, ip >> 8 & 0xff,
		  ip & 0xff);
	return EFI_NO_RESPONSE;
}

EFI_STATUS pxe_next_hop(struct pxe_dev *d, uint32_t dst_ip, uint8_t *mac)
{
	uint32_t hop = dst_ip;

	/* Off our subnet, the router is the next hop. */
	if (d->subnet && d->router && (dst_ip & d->subnet) != (d->ip & d->subnet))
		hop = d->router;
	return pxe_resolve(d, hop, mac);
}

uint16_t pxe_new_port(struct pxe_dev *d)
{
	return (uint16_t)(49152 + d->next_port++ % 16384);
}

EFI_STATUS pxe_send_udp(struct pxe_dev *d, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
			size_t len)
{
	uint8_t mac[NET_MAC_LEN];
	size_t n;

	if (dst_ip == NET_IPV4_BROADCAST || !d->ip) {
		mem_copy(mac, broadcast_mac, NET_MAC_LEN);
	} else {
		EFI_STATUS status = pxe_next_hop(d, dst_ip, mac);
		if (EFI_ERROR(status))
			return status;
	}
	n = udp_frame_build(d->tx, sizeof(d->tx), mac, d->mac, d->ip, dst_ip, src_port, dst_port,
			    len, d->ip_id++);
	if (!n)
		return EFI_BAD_BUFFER_SIZE;
	/* Padded to Ethernet's minimum frame: not every SNP pads what it is given. */
	if (n < 60) {
		mem_set(d->tx + n, 0, 60 - n);
		n = 60;
	}
	return pxe_transmit(d, d->tx, n);
}
