/* Fuzzes ARP (net/arp.c): packets parsed and taken into a cache; a reply goes only to a
 * request for our address, and a group address never enters the cache. */
#include "fuzz.h"
#include <stdlib.h>

#include <ember/net/arp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t our_mac[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
	const uint32_t our_ip = 0x0a00020f;
	struct arp_cache c = {0};
	struct arp_packet a, reply;
	uint8_t mac[6];

	/* The input may hold several packets of 28 bytes, Ethernet padding allowed. */
	for (size_t at = 0; at < size; at += ARP_LEN) {
		if (!arp_parse(data + at, size - at, &a))
			continue;
		if (arp_input(&c, our_ip, our_mac, &a, &reply) &&
		    (a.op != ARP_REQUEST || a.tpa != our_ip || reply.tpa != a.spa))
			abort();
		if (arp_cache_get(&c, a.spa, mac) && (mac[0] & 1))
			abort();
	}
	return 0;
}
