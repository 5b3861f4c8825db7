/* The PXE driver's DHCP: the exchange of net/dhcp4_client.c over the link, each message
 * sent again after 1, 2, 4 and 4 seconds without an answer. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "pxe.h"

#define DHCP_ROUNDS 4
#define NS_PER_S 1000000000ull

static EFI_STATUS pxe_dhcp_send(struct pxe_dev *d, UINT64 start)
{
	UINT64 secs = (core_time_ns() - start) / NS_PER_S;
	size_t n = dhcp4_client_message(&d->dhcp, pxe_tx_payload(d), PXE_UDP_PAYLOAD_MAX,
					(uint16_t)(secs > 0xffff ? 0xffff : secs));

	if (d->dhcp.state == DHCP4_SELECTING) {
		mem_copy(d->mode.DhcpDiscover.Raw, pxe_tx_payload(d), n);
		d->mode.DhcpDiscoverValid = true;
	}
	return pxe_send_udp(d, NET_IPV4_BROADCAST, DHCP4_CLIENT_PORT, DHCP4_SERVER_PORT, n);
}

#define PROXY_WAIT_NS (2 * NS_PER_S)

/* Keeps a packet as it came in one of the Mode's packets, which loaders read. */
static void pxe_keep(EFI_PXE_BASE_CODE_PACKET *to, BOOLEAN *flag, const struct udp_datagram *u)
{
	size_t n = u->len < sizeof(*to) ? u->len : sizeof(*to);

	mem_set(to->Raw, 0, sizeof(*to));
	mem_copy(to->Raw, u->payload, n);
	*flag = true;
}

/* Waits for replies until deadline; returns the event that changed the state (or a
 * proxyDHCP offer), or DHCP4_IGNORED when none came. */
static enum dhcp4_event pxe_dhcp_wait(struct pxe_dev *d, UINT64 deadline)
{
	struct udp_datagram u;
	uint32_t from;

	while (pxe_wait_udp(d, DHCP4_CLIENT_PORT, deadline, &u, &from)) {
		const char *why;
		enum dhcp4_event ev = dhcp4_client_input(&d->dhcp, u.payload, u.len, &why);

		if (ev == DHCP4_BOUND_NOW)
			pxe_keep(&d->mode.DhcpAck, &d->mode.DhcpAckReceived, &u);
		if (ev == DHCP4_PROXY)
			pxe_keep(&d->mode.ProxyOffer, &d->mode.ProxyOfferReceived, &u);
		if (ev != DHCP4_IGNORED)
			return ev;
		log_debug("DHCP reply ignored: %s\n", why);
	}
	return DHCP4_IGNORED;
}

static void pxe_bind(struct pxe_dev *d)
{
	const struct dhcp4_reply *l = &d->dhcp.lease;

	d->ip = l->yiaddr;
	d->subnet = l->subnet;
	d->router = l->router;
	d->dns = l->dns;
	d->bound = true;
	d->static_policy = false; /* whoever asked, the address is now DHCP's */
	net_put32(d->mode.StationIp.v4.Addr, d->ip);
	net_put32(d->mode.SubnetMask.v4.Addr, d->subnet);
	/* The lease names no boot file: a proxyDHCP server may, a little later (PXE only:
	 * HTTP boot takes its URL from the lease or the boot option). */
	if (!d->bound_http && !d->config_dhcp && !dhcp4_client_boot(&d->dhcp))
		pxe_dhcp_wait(d, core_time_ns() + PROXY_WAIT_NS);
	l = dhcp4_client_boot(&d->dhcp);
	log_info("DHCP: address %u.%u.%u.%u, boot file \"%s\"%s\n", d->ip >> 24, d->ip >> 16 & 0xff,
		 d->ip >> 8 & 0xff, d->ip & 0xff, l ? l->boot_file : "",
		 l == &d->dhcp.proxy ? " (proxyDHCP)" : "");
}

EFI_STATUS pxe_dhcp(struct pxe_dev *d, bool http)
{
	UINT64 start = core_time_ns();
	uint32_t xid = (uint32_t)(start ^ start >> 32) ^ net_get32(d->mac + 2);
	int round = 0;
	uint8_t uuid[16];
	bool has_uuid = pxe_system_uuid(uuid);

	d->ip = 0;
	d->bound = false;
	d->mode.DhcpAckReceived = false;
	d->mode.ProxyOfferReceived = false;
	dhcp4_client_init(&d->dhcp, d->mac, has_uuid ? uuid : NULL, xid, http);
	d->bound_http = http;
	while (round < DHCP_ROUNDS) {
		UINT64 wait = (UINT64)(round < 2 ? 1 << round : 4) * NS_PER_S;
		EFI_STATUS status = pxe_dhcp_send(d, start);
		enum dhcp4_event ev;

		if (EFI_ERROR(status))
			return status;
		UINT64 deadline = core_time_ns() + wait;
		do
			ev = pxe_dhcp_wait(d, deadline);
		while (ev == DHCP4_PROXY);
		if (ev == DHCP4_BOUND_NOW) {
			pxe_bind(d);
			return EFI_SUCCESS;
		}
		/* After an offer the REQUEST goes out at once; a NAK counts as a round, so a
		 * server that refuses for ever does not keep us here. */
		if (ev != DHCP4_OFFERED)
			round++;
	}
	log_debug("DHCP: no %s\n", d->dhcp.state == DHCP4_SELECTING ? "offer" : "ACK");
	return EFI_TIMEOUT;
}

void pxe_unbind(struct pxe_dev *d)
{
	d->ip = d->subnet = d->router = d->dns = 0;
	d->bound = false;
	d->mode.DhcpAckReceived = false;
	d->mode.ProxyOfferReceived = false;
	mem_set(&d->mode.StationIp, 0, sizeof(d->mode.StationIp));
	mem_set(&d->mode.SubnetMask, 0, sizeof(d->mode.SubnetMask));
}
