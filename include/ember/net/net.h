/* What every layer of Ember's network stack shares: network byte order, addresses.
 * The packet layers (net/ except net/pxe) are pure and libc-free: each is bounded by the length it
 * is given and refuses malformed input rather than guessing. IPv4 addresses are held in host order
 * (10.0.2.15 is 0x0a00020f). */
#ifndef EMBER_NET_NET_H
#define EMBER_NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_MAC_LEN 6
#define NET_IPV4_BROADCAST 0xffffffffu

static inline uint16_t net_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t net_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void net_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void net_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The ones' complement sum of RFC 1071 over data, added to sum (not yet folded or
 * inverted): checksums over several pieces add their sums. */
uint32_t net_sum(const void *data, size_t len, uint32_t sum);
/* Folds and inverts a net_sum into the 16-bit Internet checksum. */
uint16_t net_checksum_fold(uint32_t sum);

#endif
