/* ARP for IPv4 over Ethernet (RFC 826): packets and a small cache. */
#ifndef EMBER_NET_ARP_H
#define EMBER_NET_ARP_H

#include <ember/net/net.h>

#define ARP_LEN 28
#define ARP_REQUEST 1
#define ARP_REPLY 2
#define ARP_CACHE_SIZE 8

struct arp_packet {
	uint16_t op;
	uint8_t sha[NET_MAC_LEN], tha[NET_MAC_LEN];
	uint32_t spa, tpa;
};

/* Reads an ARP packet (Ethernet padding after it allowed); refuses other hardware or
 * protocol types and sizes, operations other than request and reply, and a sender address
 * that is broadcast or multicast. */
bool arp_parse(const uint8_t *p, size_t len, struct arp_packet *out);
/* Writes a at buf; returns ARP_LEN, or 0 if cap is too small. */
size_t arp_build(uint8_t *buf, size_t cap, const struct arp_packet *a);

struct arp_cache {
	struct {
		uint32_t ip; /* 0: free */
		uint8_t mac[NET_MAC_LEN];
	} entry[ARP_CACHE_SIZE];
	unsigned next; /* the slot replaced next when all are used */
};

/* Records ip at mac, replacing the oldest entry when the cache is full. */
void arp_cache_put(struct arp_cache *c, uint32_t ip, const uint8_t *mac);
/* Looks ip up; copies its MAC to mac when known. */
bool arp_cache_get(const struct arp_cache *c, uint32_t ip, uint8_t *mac);

/* Takes in a received ARP packet for the host at our_ip/our_mac (RFC 826's algorithm:
 * the sender is learnt when it is known or asks for us); when it asks for our_ip, writes the
 * reply's ARP payload at reply (ARP_LEN bytes) and returns true. */
bool arp_input(struct arp_cache *c, uint32_t our_ip, const uint8_t *our_mac,
	       const struct arp_packet *in, struct arp_packet *reply);

#endif
