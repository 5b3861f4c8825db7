/* The frames snp-probe exchanges with the user network: an ARP request and its reply
 * (RFC 826), a DHCPDISCOVER and the DHCPOFFER (RFC 2131, 2132) it brings. Building and
 * checking only, no UEFI calls: compiled into the unit tests and a fuzzer too. Every check
 * is bounded by the length it was given and refuses a frame it does not fully understand. */
#ifndef SNP_PROBE_FRAMES_H
#define SNP_PROBE_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

#define FRAME_ETH_HEADER 14
#define FRAME_ARP_SIZE (FRAME_ETH_HEADER + 28)
/* libslirp reads a whole struct bootp_t (236 bytes and 312 of options) or drops the
 * request: the DISCOVER carries that much. */
#define FRAME_BOOTP_SIZE (236 + 312)
#define FRAME_DHCP_SIZE (FRAME_ETH_HEADER + 20 + 8 + FRAME_BOOTP_SIZE)

/* An ARP request "who has target? tell sender" from mac, including its Ethernet header;
 * returns its length (FRAME_ARP_SIZE). */
size_t frame_arp_request(UINT8 *frame, const UINT8 mac[6], const UINT8 sender[4],
			 const UINT8 target[4]);
/* Whether frame is an ARP reply from ip; its hardware address goes to mac. */
bool frame_arp_reply(const UINT8 *frame, size_t length, const UINT8 ip[4], UINT8 mac[6]);

/* A broadcast DHCPDISCOVER from mac with transaction id xid; returns FRAME_DHCP_SIZE. */
size_t frame_dhcp_discover(UINT8 *frame, const UINT8 mac[6], UINT32 xid);

struct frame_offer {
	UINT8 yiaddr[4]; /* the address offered */
	UINT8 server[4]; /* option 54, the server identifier (0 when missing) */
	UINT8 router[4]; /* option 3, the first router (0 when missing) */
	UINT32 lease;	 /* option 51, seconds (0 when missing) */
	char file[129];	 /* the header's boot file name field, terminated */
};
/* Whether frame is a DHCPOFFER (option 53 = 2) answering xid over IPv4/UDP 67 to 68. */
bool frame_dhcp_offer(const UINT8 *frame, size_t length, UINT32 xid, struct frame_offer *offer);

/* An IPv4/UDP datagram of size payload bytes between the given addresses and ports;
 * returns the frame's length. */
size_t frame_udp(UINT8 *frame, const UINT8 dest_mac[6], const UINT8 mac[6], const UINT8 src[4],
		 const UINT8 dst[4], UINT16 src_port, UINT16 dst_port, const void *payload,
		 size_t size);
/* The payload of an unfragmented IPv4/UDP datagram between the given ports (from_port 0:
 * any) (its size in *size), bounded by the frame and by the headers' own lengths; NULL for
 * anything else. */
const UINT8 *frame_udp_payload(const UINT8 *frame, size_t length, UINT16 from_port, UINT16 to_port,
			       size_t *size);

/* A TFTP read request (RFC 1350) for name in octet mode; returns its length, 0 when the
 * name does not fit in size bytes. */
size_t frame_tftp_rrq(UINT8 *out, size_t size, const char *name);

/* The IPv4 header checksum (RFC 791) over length bytes. */
UINT16 frame_ip_checksum(const UINT8 *header, size_t length);

#endif
