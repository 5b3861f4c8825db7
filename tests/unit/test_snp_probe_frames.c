/* snp-probe's frames (apps/snp-probe/pure/frames.c): what it builds reads back through its
 * own checks, the IPv4 checksum against RFC 1071's worked example, and frames that are
 * cut short, lie about their lengths or answer another request are refused. */
#include <string.h>

#include "../../apps/snp-probe/pure/frames.h"
#include "support/test.h"

static const UINT8 mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
static const UINT8 host_mac[6] = {0x52, 0x55, 0x0a, 0x00, 0x02, 0x02};
static const UINT8 guest[4] = {10, 0, 2, 15}, host[4] = {10, 0, 2, 2};

/* A request turned into the reply a peer sends. */
static void arp_answer(UINT8 *frame)
{
	UINT8 *arp = frame + FRAME_ETH_HEADER;
	UINT8 tpa[4];

	arp[7] = 2;
	memcpy(tpa, arp + 24, 4);
	memcpy(arp + 18, arp + 8, 10);
	memcpy(arp + 8, host_mac, 6);
	memcpy(arp + 14, tpa, 4);
}

TEST(snp_probe_arp)
{
	UINT8 frame[64] = {0}, got[6] = {0};

	ASSERT_EQ(frame_arp_request(frame, mac, guest, host), FRAME_ARP_SIZE);
	EXPECT(!frame_arp_reply(frame, FRAME_ARP_SIZE, host, got)); /* a request */
	arp_answer(frame);
	EXPECT(frame_arp_reply(frame, FRAME_ARP_SIZE, host, got));
	EXPECT(!memcmp(got, host_mac, 6));
	EXPECT(!frame_arp_reply(frame, FRAME_ARP_SIZE - 1, host, got));
	EXPECT(!frame_arp_reply(frame, FRAME_ARP_SIZE, guest, got)); /* from someone else */
	frame[FRAME_ETH_HEADER + 4] = 8;			     /* 8-byte addresses */
	EXPECT(!frame_arp_reply(frame, FRAME_ARP_SIZE, host, got));
}

TEST(snp_probe_ip_checksum)
{
	/* RFC 1071, 3: the words 0001 f203 f4f5 f6f7 sum to ddf2, complemented 220d. */
	static const UINT8 words[8] = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
	UINT8 frame[FRAME_DHCP_SIZE];

	EXPECT_EQ(frame_ip_checksum(words, 8), 0x220d);
	frame_dhcp_discover(frame, mac, 1);
	EXPECT_EQ(frame_ip_checksum(frame + FRAME_ETH_HEADER, 20), 0); /* a valid header */
}

/* A discover turned into the offer a server sends: op 2, yiaddr, options 53, 54, 51. */
static void dhcp_answer(UINT8 *frame)
{
	UINT8 *udp = frame + FRAME_ETH_HEADER + 20, *bootp = udp + 8, *opt = bootp + 240;
	static const UINT8 options[] = {53, 1, 2,    54,   4, 10, 0,  2, 2, 0, 51, 4,
					0,  1, 0x51, 0x80, 3, 4,  10, 0, 2, 2, 255};

	udp[1] = 67, udp[3] = 68;
	bootp[0] = 2;
	memcpy(bootp + 16, guest, 4);
	memcpy(opt, options, sizeof(options));
	memcpy(bootp + 108, "boot.efi", 9);
}

TEST(snp_probe_dhcp_offer)
{
	UINT8 frame[FRAME_DHCP_SIZE];
	struct frame_offer offer;

	ASSERT_EQ(frame_dhcp_discover(frame, mac, 0x1234), FRAME_DHCP_SIZE);
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 0x1234, &offer)); /* a request */
	dhcp_answer(frame);
	ASSERT(frame_dhcp_offer(frame, sizeof(frame), 0x1234, &offer));
	EXPECT(!memcmp(offer.yiaddr, guest, 4));
	EXPECT(!memcmp(offer.server, host, 4));
	EXPECT(!memcmp(offer.router, host, 4));
	EXPECT_EQ(offer.lease, 86400);
	EXPECT(!strcmp(offer.file, "boot.efi"));
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 0x1235, &offer));     /* another xid */
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame) - 1, 0x1234, &offer)); /* cut short */
}

TEST(snp_probe_dhcp_refuses_lying_lengths)
{
	UINT8 frame[FRAME_DHCP_SIZE];
	UINT8 *ip = frame + FRAME_ETH_HEADER, *bootp = ip + 28;
	struct frame_offer offer;

	frame_dhcp_discover(frame, mac, 7);
	dhcp_answer(frame);
	bootp[240 + 1] = 250; /* option 53 runs past the end */
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 7, &offer));
	dhcp_answer(frame);
	bootp[240 + 2] = 5; /* a DHCPACK, not an offer */
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 7, &offer));
	dhcp_answer(frame);
	ip[24] = 0x7f; /* a UDP length longer than the datagram */
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 7, &offer));
	frame_dhcp_discover(frame, mac, 7);
	dhcp_answer(frame);
	ip[6] = 0x20; /* more fragments */
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 7, &offer));
	ip[6] = 0, ip[0] = 0x4f; /* a 60-byte IP header */
	EXPECT(!frame_dhcp_offer(frame, sizeof(frame), 7, &offer));
}

TEST(snp_probe_udp)
{
	UINT8 frame[128];
	size_t size, n = frame_udp(frame, host_mac, mac, guest, host, 40000, 7, "echo", 4);
	const UINT8 *p;

	EXPECT_EQ(n, FRAME_ETH_HEADER + 28 + 4);
	p = frame_udp_payload(frame, n, 40000, 7, &size);
	ASSERT(p != NULL);
	EXPECT_EQ(size, 4);
	EXPECT(!memcmp(p, "echo", 4));
	EXPECT(!frame_udp_payload(frame, n, 7, 40000, &size));
	EXPECT(!frame_udp_payload(frame, n - 1, 40000, 7, &size));
}

TEST(snp_probe_tftp_rrq)
{
	UINT8 out[32];

	EXPECT_EQ(frame_tftp_rrq(out, sizeof(out), "a.efi"), 2 + 6 + 6);
	EXPECT(!memcmp(out, "\0\1a.efi\0octet\0", 14));
	EXPECT_EQ(frame_tftp_rrq(out, 13, "a.efi"), 0); /* one byte short */
}

TEST(snp_probe_dhcp_file_is_terminated)
{
	UINT8 frame[FRAME_DHCP_SIZE];
	struct frame_offer offer;

	frame_dhcp_discover(frame, mac, 9);
	dhcp_answer(frame);
	memset(frame + FRAME_ETH_HEADER + 28 + 108, 'x', 128); /* no NUL in the field */
	ASSERT(frame_dhcp_offer(frame, sizeof(frame), 9, &offer));
	EXPECT_EQ(strlen(offer.file), 128);
}
