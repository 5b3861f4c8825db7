/* Fuzzes ICMP echo (net/icmp.c) as the PXE driver meets it: Ethernet, IPv4, then the echo
 * message. Every echo read must lie inside the input, and the reply built from it must read
 * back as the same echo with a good checksum. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/net/eth.h>
#include <ember/net/icmp.h>

static const uint8_t mac_a[NET_MAC_LEN] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
static const uint8_t mac_b[NET_MAC_LEN] = {0x52, 0x55, 10, 0, 2, 2};

static void inside(const uint8_t *p, size_t len, const uint8_t *data, size_t size)
{
	if (p < data || p > data + size || len > (size_t)(data + size - p))
		abort();
}

/* The reply to e, as the driver would send it, read back. */
static void round_trip(const struct icmp_echo *e, uint32_t src, uint32_t dst)
{
	static uint8_t frame[1536];
	struct icmp_echo reply = *e, back;
	struct eth_frame f;
	struct ipv4_packet ip;
	size_t n;

	reply.type = ICMP_ECHO_REPLY;
	n = icmp_echo_frame_build(frame, sizeof(frame), mac_b, mac_a, dst, src, &reply, 7);
	if (!n) {
		/* Only a message too long for the frame is refused. */
		if (e->len <= sizeof(frame) - NET_ICMP_FRAME_HLEN)
			abort();
		return;
	}
	if (n != NET_ICMP_FRAME_HLEN + e->len || !eth_parse(frame, n, &f) ||
	    ipv4_parse(f.payload, f.payload_len, &ip) || icmp_echo_parse(&ip, &back))
		abort();
	if (back.type != ICMP_ECHO_REPLY || back.id != e->id || back.seq != e->seq ||
	    back.len != e->len || memcmp(back.data, e->data, e->len) != 0 || ip.src != dst ||
	    ip.dst != src)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eth_frame f;
	struct ipv4_packet ip;
	struct icmp_echo e;

	if (!eth_parse(data, size, &f) || ipv4_parse(f.payload, f.payload_len, &ip))
		return 0;
	if (icmp_echo_parse(&ip, &e))
		return 0;
	inside(e.data, e.len, ip.payload, ip.payload_len);
	if (e.len + ICMP_ECHO_HLEN != ip.payload_len ||
	    (e.type != ICMP_ECHO_REQUEST && e.type != ICMP_ECHO_REPLY))
		abort();
	round_trip(&e, ip.src, ip.dst);
	return 0;
}
