/* Host names of URLs: an A query (net/dns_message.c) to the name server DHCP named
 * (option 6), asked again after 1, 2 and 4 seconds. */
#define LOG_PREFIX "dns: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/net/dns.h>
#include "pxe.h"

#define DNS_TRIES 3
#define NS_PER_S 1000000000ull

EFI_STATUS pxe_dns_resolve(struct pxe_dev *d, const char *name, uint32_t *ip)
{
	uint16_t port = pxe_new_port(d), id = (uint16_t)(core_time_ns() >> 10);
	uint32_t server = d->dns;
	size_t n;

	if (!server) {
		log_warn("no name server for %s: DHCP named none\n", name);
		return EFI_NOT_FOUND;
	}
	for (int i = 0; i < DNS_TRIES; i++) {
		UINT64 deadline;
		struct udp_datagram u;
		uint32_t from;
		EFI_STATUS status;

		n = dns_query_build(pxe_tx_payload(d), PXE_UDP_PAYLOAD_MAX, id, name);
		if (!n) {
			log_warn("\"%s\" is not a host name\n", name);
			return EFI_INVALID_PARAMETER;
		}
		status = pxe_send_udp(d, server, port, DNS_PORT, n);
		if (EFI_ERROR(status))
			return status;
		deadline = core_time_ns() + (NS_PER_S << i);
		while (pxe_wait_udp(d, port, deadline, &u, &from)) {
			const char *why;
			if (from != server || u.src_port != DNS_PORT)
				continue;
			why = dns_response_parse(u.payload, u.len, id, name, ip);
			if (!why)
				return EFI_SUCCESS;
			log_debug("reply about %s refused: %s\n", name, why);
			if (u.len >= 4 && net_get16(u.payload) == id)
				return EFI_NOT_FOUND; /* the server's answer: asking again is no use
						       */
		}
	}
	log_debug("no answer about %s\n", name);
	return EFI_TIMEOUT;
}
