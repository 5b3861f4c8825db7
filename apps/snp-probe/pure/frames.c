/* Ethernet frames of ARP and DHCP for snp-probe (frames.h). */
#include "frames.h"
#include <ember/lib/str.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_ARP 0x0806
#define IP_UDP 17
#define DHCP_SERVER_PORT 67
#define DHCP_CLIENT_PORT 68
#define BOOTP_OPTIONS 236 /* the magic cookie, then the options */
#define DHCP_COOKIE 0x63825363

static const UINT8 broadcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

static void put16(UINT8 *p, UINT16 v)
{
	p[0] = (UINT8)(v >> 8);
	p[1] = (UINT8)v;
}

static void put32(UINT8 *p, UINT32 v)
{
	put16(p, (UINT16)(v >> 16));
	put16(p + 2, (UINT16)v);
}

static UINT16 get16(const UINT8 *p)
{
	return (UINT16)(p[0] << 8 | p[1]);
}

static UINT32 get32(const UINT8 *p)
{
	return (UINT32)get16(p) << 16 | get16(p + 2);
}

static bool same(const UINT8 *a, const UINT8 *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void eth_header(UINT8 *frame, const UINT8 dest[6], const UINT8 src[6], UINT16 type)
{
	mem_copy(frame, dest, 6);
	mem_copy(frame + 6, src, 6);
	put16(frame + 12, type);
}

UINT16 frame_ip_checksum(const UINT8 *header, size_t length)
{
	UINT32 sum = 0;

	for (size_t i = 0; i + 1 < length; i += 2)
		sum += get16(header + i);
	if (length & 1)
		sum += (UINT32)header[length - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (UINT16)~sum;
}

/* ---- ARP ---- */

size_t frame_arp_request(UINT8 *frame, const UINT8 mac[6], const UINT8 sender[4],
			 const UINT8 target[4])
{
	UINT8 *arp = frame + FRAME_ETH_HEADER;

	eth_header(frame, broadcast, mac, ETHERTYPE_ARP);
	put16(arp, 1); /* Ethernet */
	put16(arp + 2, ETHERTYPE_IPV4);
	arp[4] = 6, arp[5] = 4;
	put16(arp + 6, 1); /* request */
	mem_copy(arp + 8, mac, 6);
	mem_copy(arp + 14, sender, 4);
	mem_set(arp + 18, 0, 6);
	mem_copy(arp + 24, target, 4);
	return FRAME_ARP_SIZE;
}

bool frame_arp_reply(const UINT8 *frame, size_t length, const UINT8 ip[4], UINT8 mac[6])
{
	const UINT8 *arp = frame + FRAME_ETH_HEADER;

	if (length < FRAME_ARP_SIZE || get16(frame + 12) != ETHERTYPE_ARP)
		return false;
	if (get16(arp) != 1 || get16(arp + 2) != ETHERTYPE_IPV4 || arp[4] != 6 || arp[5] != 4 ||
	    get16(arp + 6) != 2 || !same(arp + 14, ip, 4))
		return false;
	mem_copy(mac, arp + 8, 6);
	return true;
}

/* ---- DHCP ---- */

/* The IPv4 and UDP headers of a datagram of payload bytes; the UDP checksum stays 0 (none,
 * RFC 768). */
static void ip_udp_header(UINT8 *ip, const UINT8 src[4], const UINT8 dst[4], UINT16 src_port,
			  UINT16 dst_port, size_t payload)
{
	UINT8 *udp = ip + 20;

	mem_set(ip, 0, 28);
	ip[0] = 0x45; /* version 4, 5 words of header */
	put16(ip + 2, (UINT16)(28 + payload));
	ip[8] = 64; /* time to live */
	ip[9] = IP_UDP;
	mem_copy(ip + 12, src, 4);
	mem_copy(ip + 16, dst, 4);
	put16(ip + 10, frame_ip_checksum(ip, 20));
	put16(udp, src_port);
	put16(udp + 2, dst_port);
	put16(udp + 4, (UINT16)(8 + payload));
}

size_t frame_udp(UINT8 *frame, const UINT8 dest_mac[6], const UINT8 mac[6], const UINT8 src[4],
		 const UINT8 dst[4], UINT16 src_port, UINT16 dst_port, const void *payload,
		 size_t size)
{
	eth_header(frame, dest_mac, mac, ETHERTYPE_IPV4);
	ip_udp_header(frame + FRAME_ETH_HEADER, src, dst, src_port, dst_port, size);
	mem_copy(frame + FRAME_ETH_HEADER + 28, payload, size);
	return FRAME_ETH_HEADER + 28 + size;
}

size_t frame_dhcp_discover(UINT8 *frame, const UINT8 mac[6], UINT32 xid)
{
	static const UINT8 none[4] = {0, 0, 0, 0}, all[4] = {0xff, 0xff, 0xff, 0xff};
	UINT8 *bootp = frame + FRAME_ETH_HEADER + 28, *options = bootp + BOOTP_OPTIONS;

	mem_set(frame, 0, FRAME_DHCP_SIZE);
	eth_header(frame, broadcast, mac, ETHERTYPE_IPV4);
	ip_udp_header(frame + FRAME_ETH_HEADER, none, all, DHCP_CLIENT_PORT, DHCP_SERVER_PORT,
		      FRAME_BOOTP_SIZE);
	bootp[0] = 1;		    /* BOOTREQUEST */
	bootp[1] = 1, bootp[2] = 6; /* Ethernet addresses */
	put32(bootp + 4, xid);
	put16(bootp + 10, 0x8000); /* broadcast the reply: no address yet */
	mem_copy(bootp + 28, mac, 6);
	put32(options, DHCP_COOKIE);
	options[4] = 53, options[5] = 1, options[6] = 1; /* DHCPDISCOVER */
	options[7] = 255;
	return FRAME_DHCP_SIZE;
}

const UINT8 *frame_udp_payload(const UINT8 *frame, size_t length, UINT16 from_port, UINT16 to_port,
			       size_t *size)
{
	const UINT8 *ip = frame + FRAME_ETH_HEADER, *udp;
	size_t ip_header, ip_total, udp_length;

	if (length < FRAME_ETH_HEADER + 20 || get16(frame + 12) != ETHERTYPE_IPV4)
		return NULL;
	ip_header = (size_t)(ip[0] & 0x0f) * 4;
	ip_total = get16(ip + 2);
	if ((ip[0] >> 4) != 4 || ip_header < 20 || ip_total < ip_header + 8 ||
	    ip_total > length - FRAME_ETH_HEADER || ip[9] != IP_UDP || (get16(ip + 6) & 0x3fff))
		return NULL; /* not IPv4/UDP, truncated, or a fragment */
	udp = ip + ip_header;
	udp_length = get16(udp + 4);
	if ((from_port && get16(udp) != from_port) || get16(udp + 2) != to_port || udp_length < 8 ||
	    udp_length > ip_total - ip_header)
		return NULL;
	*size = udp_length - 8;
	return udp + 8;
}

/* Walks the options after the cookie; false on one that runs past the end. */
static bool dhcp_options(const UINT8 *p, size_t size, UINT8 *type, struct frame_offer *offer)
{
	size_t i = 0;

	while (i < size && p[i] != 255) {
		UINT8 code = p[i], len;
		if (code == 0) {
			i++;
			continue;
		}
		if (i + 2 > size || i + 2 + p[i + 1] > size)
			return false;
		len = p[i + 1];
		if (code == 53 && len == 1)
			*type = p[i + 2];
		else if (code == 54 && len == 4)
			mem_copy(offer->server, p + i + 2, 4);
		else if (code == 3 && len >= 4)
			mem_copy(offer->router, p + i + 2, 4);
		else if (code == 51 && len == 4)
			offer->lease = get32(p + i + 2);
		i += 2 + (size_t)len;
	}
	return true;
}

bool frame_dhcp_offer(const UINT8 *frame, size_t length, UINT32 xid, struct frame_offer *offer)
{
	size_t size;
	const UINT8 *bootp =
	    frame_udp_payload(frame, length, DHCP_SERVER_PORT, DHCP_CLIENT_PORT, &size);
	UINT8 type = 0;

	if (!bootp || size < BOOTP_OPTIONS + 4)
		return false;
	if (bootp[0] != 2 || get32(bootp + 4) != xid || get32(bootp + BOOTP_OPTIONS) != DHCP_COOKIE)
		return false;
	mem_set(offer, 0, sizeof(*offer));
	mem_copy(offer->yiaddr, bootp + 16, 4);
	mem_copy(offer->file, bootp + 108, 128);
	offer->file[128] = 0;
	if (!dhcp_options(bootp + BOOTP_OPTIONS + 4, size - BOOTP_OPTIONS - 4, &type, offer))
		return false;
	return type == 2;
}

size_t frame_tftp_rrq(UINT8 *out, size_t size, const char *name)
{
	static const char mode[] = "octet";
	size_t n = str8_len(name);

	if (size < 2 + n + 1 + sizeof(mode))
		return 0;
	put16(out, 1); /* RRQ */
	mem_copy(out + 2, name, n + 1);
	mem_copy(out + 2 + n + 1, mode, sizeof(mode));
	return 2 + n + 1 + sizeof(mode);
}
