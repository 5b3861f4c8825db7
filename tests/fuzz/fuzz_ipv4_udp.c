/* Fuzzes the receive path of a frame (net/eth.c, net/ipv4.c, net/udp.c): Ethernet, then
 * IPv4, then UDP. Every payload found must lie inside the input. */
#include "fuzz.h"
#include <stdlib.h>

#include <ember/net/eth.h>
#include <ember/net/ipv4.h>

static void inside(const uint8_t *p, size_t len, const uint8_t *data, size_t size)
{
	if (p < data || p > data + size || len > (size_t)(data + size - p))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eth_frame f;
	struct ipv4_packet ip;
	struct udp_datagram u;

	if (!eth_parse(data, size, &f))
		return 0;
	inside(f.payload, f.payload_len, data, size);
	if (ipv4_parse(f.payload, f.payload_len, &ip))
		return 0;
	inside(ip.payload, ip.payload_len, data, size);
	if (ip.ttl == 0)
		abort();
	if (udp_parse(&ip, &u))
		return 0;
	inside(u.payload, u.len, ip.payload, ip.payload_len);
	return 0;
}
