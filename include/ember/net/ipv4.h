/* IPv4 (RFC 791) and UDP (RFC 768): parsing of received packets, headers of sent ones. */
#ifndef EMBER_NET_IPV4_H
#define EMBER_NET_IPV4_H

#include <ember/net/net.h>

#define IPV4_HLEN 20
#define UDP_HLEN 8
#define IPV4_PROTO_UDP 17
/* Ethernet, IPv4 and UDP headers in front of a UDP payload in a frame. */
#define NET_UDP_FRAME_HLEN (14 + IPV4_HLEN + UDP_HLEN)

struct ipv4_packet {
	uint32_t src, dst;
	uint8_t protocol, ttl;
	const uint8_t *payload; /* inside the packet that was parsed, options skipped */
	size_t payload_len;	/* from the header's total length, not the frame's */
};

/* Reads an IPv4 packet of at most len bytes (Ethernet padding after it allowed). Refuses:
 * a version other than 4, a header length below 20 bytes or past the data, a total length
 * below the header or past the data, a bad header checksum, a fragment (More Fragments or an
 * offset: nothing is reassembled) and a TTL of 0. Options are skipped, never honoured. */
const char *ipv4_parse(const uint8_t *p, size_t len, struct ipv4_packet *out);

/* Writes a 20-byte header (no options, Don't Fragment, TTL 64) for payload_len bytes at buf;
 * returns IPV4_HLEN, or 0 when cap is too small or the packet would exceed 65535 bytes. */
size_t ipv4_build(uint8_t *buf, size_t cap, uint32_t src, uint32_t dst, uint8_t protocol,
		  size_t payload_len, uint16_t id);

struct udp_datagram {
	uint16_t src_port, dst_port;
	const uint8_t *payload; /* inside the IPv4 payload */
	size_t len;
};

/* Reads the UDP datagram an IPv4 packet carries. Refuses a length field below 8 or past the
 * IPv4 payload, and a wrong checksum (checked when not zero, as RFC 768 allows). */
const char *udp_parse(const struct ipv4_packet *ip, struct udp_datagram *out);

/* Completes a UDP frame whose payload_len bytes the caller wrote at
 * buf + NET_UDP_FRAME_HLEN: fills the Ethernet, IPv4 and UDP headers (the UDP checksum
 * computed). Returns the frame's length, or 0 when it does not fit cap. */
size_t udp_frame_build(uint8_t *buf, size_t cap, const uint8_t *dst_mac, const uint8_t *src_mac,
		       uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
		       size_t payload_len, uint16_t ip_id);

#endif
