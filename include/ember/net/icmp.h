/* ICMP echo (RFC 792): the request and reply that ping sends and answers. Other ICMP
 * messages are not read. */
#ifndef EMBER_NET_ICMP_H
#define EMBER_NET_ICMP_H

#include <ember/net/ipv4.h>

#define IPV4_PROTO_ICMP 1
#define ICMP_ECHO_REPLY 0
#define ICMP_ECHO_REQUEST 8
#define ICMP_ECHO_HLEN 8
/* Ethernet, IPv4 and ICMP echo headers in front of the echo's data in a frame. */
#define NET_ICMP_FRAME_HLEN (14 + IPV4_HLEN + ICMP_ECHO_HLEN)

struct icmp_echo {
	uint8_t type; /* ICMP_ECHO_REQUEST or ICMP_ECHO_REPLY */
	uint16_t id, seq;
	const uint8_t *data; /* inside the packet that was parsed */
	size_t len;
};

/* Reads the ICMP echo request or reply an IPv4 packet carries (its whole payload is the
 * message). Refuses: another protocol, less than the 8-byte header, a bad checksum, any type
 * other than echo request and reply, and a code other than 0. */
const char *icmp_echo_parse(const struct ipv4_packet *ip, struct icmp_echo *out);

/* Writes a whole frame (Ethernet, IPv4, the echo message of e with its checksum) at buf;
 * e->data may lie inside buf past the headers (it is moved, not copied over itself).
 * Returns the frame's length, or 0 when it does not fit cap. */
size_t icmp_echo_frame_build(uint8_t *buf, size_t cap, const uint8_t *dst_mac,
			     const uint8_t *src_mac, uint32_t src_ip, uint32_t dst_ip,
			     const struct icmp_echo *e, uint16_t ip_id);

#endif
