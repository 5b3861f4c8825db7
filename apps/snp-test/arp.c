/* A real exchange with QEMU's user network (slirp): an ARP request for the gateway 10.0.2.2,
 * sent with HeaderSize 14 so that the driver writes the media header, the buffer recycled
 * through GetStatus with the transmit interrupt, then the reply awaited on WaitForPacket,
 * seen in GetStatus's receive interrupt, refused once with EFI_BUFFER_TOO_SMALL and the
 * size it needs, and received with its addresses and protocol. */
#include "snp_test.h"

#define ETH_P_ARP 0x0806
#define WAIT_100NS 50000000ULL /* 5 s */

static UINT8 request[60];
static UINT8 reply[1600];
static const UINT8 our_ip[4] = {10, 0, 2, 15}, gateway_ip[4] = {10, 0, 2, 2};

/* Ethernet/IPv4 ARP request (RFC 826) after the 14-byte media header. */
static void build_request(void)
{
	UINT8 *arp = request + 14;
	static const UINT8 fixed[8] = {0, 1, 8, 0, 6, 4, 0, 1}; /* htype, ptype, hlen, plen, op */

	mem_set(request, 0, sizeof(request));
	mem_copy(arp, fixed, 8);
	mem_copy(arp + 8, snp->Mode->CurrentAddress.Addr, 6);
	mem_copy(arp + 14, our_ip, 4);
	mem_copy(arp + 24, gateway_ip, 4);
}

static void send_request(void)
{
	EFI_MAC_ADDRESS broadcast = snp->Mode->BroadcastAddress;
	UINT16 protocol = ETH_P_ARP;
	UINT32 interrupts = 0, seen = 0;
	void *tx = NULL;

	build_request();
	if (!CHECK_STATUS(
		snp->Transmit(snp, 14, sizeof(request), request, NULL, &broadcast, &protocol),
		EFI_SUCCESS))
		return;
	/* The driver wrote the media header into the caller's buffer. */
	CHECK(!mem_cmp(request, broadcast.Addr, 6));
	CHECK(!mem_cmp(request + 6, snp->Mode->CurrentAddress.Addr, 6));
	CHECK(request[12] == 0x08 && request[13] == 0x06);
	for (int i = 0; i < 2000 && tx != request; i++) {
		if (!CHECK_STATUS(snp->GetStatus(snp, &interrupts, &tx), EFI_SUCCESS))
			return;
		seen |= interrupts;
		if (tx != request)
			app_bs->Stall(1000);
	}
	CHECK(tx == request);
	CHECK(seen & EFI_SIMPLE_NETWORK_TRANSMIT_INTERRUPT);
	CHECK_STATUS(snp->GetStatus(snp, NULL, &tx), EFI_SUCCESS);
	CHECK(tx == NULL); /* recycled once only */
}

static bool is_reply(const UINT8 *f, UINTN size)
{
	return size >= 42 && f[12] == 0x08 && f[13] == 0x06 && f[20] == 0 && f[21] == 2 &&
	       !mem_cmp(f + 28, gateway_ip, 4) &&
	       !mem_cmp(f + 32, snp->Mode->CurrentAddress.Addr, 6);
}

enum got { NOTHING, OTHER, REPLY };

/* Receives one frame, first into a buffer too small for it. */
static enum got receive_one(void)
{
	EFI_MAC_ADDRESS src, dest;
	UINTN size = 10, header = 0;
	UINT16 protocol = 0;
	EFI_STATUS status = snp->Receive(snp, &header, &size, reply, &src, &dest, &protocol);

	if (status == EFI_NOT_READY)
		return NOTHING;
	if (!CHECK_STATUS(status, EFI_BUFFER_TOO_SMALL) || !CHECK(size >= 14 && size <= 1514))
		return NOTHING;
	if (!CHECK_STATUS(snp->Receive(snp, &header, &size, reply, &src, &dest, &protocol),
			  EFI_SUCCESS))
		return NOTHING;
	if (!is_reply(reply, size))
		return OTHER;
	CHECK_EQ(header, 14);
	CHECK_EQ(protocol, ETH_P_ARP);
	CHECK(!mem_cmp(src.Addr, reply + 6, 6));
	CHECK(!mem_cmp(dest.Addr, snp->Mode->CurrentAddress.Addr, 6));
	app_print("snp-test: ARP reply from 10.0.2.2 (%02x:%02x:%02x:%02x:%02x:%02x)\n", reply[22],
		  reply[23], reply[24], reply[25], reply[26], reply[27]);
	return REPLY;
}

static void await_reply(void)
{
	EFI_EVENT timer, events[2];
	UINT32 interrupts = 0;
	enum got got = NOTHING;
	UINTN index;

	if (!CHECK_STATUS(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer), EFI_SUCCESS))
		return;
	app_bs->SetTimer(timer, TimerRelative, WAIT_100NS);
	events[0] = snp->WaitForPacket;
	events[1] = timer;
	while (got != REPLY) {
		if (EFI_ERROR(app_bs->WaitForEvent(2, events, &index)) || index != 0)
			break;
		CHECK_STATUS(snp->GetStatus(snp, &interrupts, NULL), EFI_SUCCESS);
		CHECK(interrupts & EFI_SIMPLE_NETWORK_RECEIVE_INTERRUPT);
		do
			got = receive_one();
		while (got == OTHER);
	}
	app_bs->CloseEvent(timer);
	if (got != REPLY)
		CHECK_FAIL("no ARP reply from 10.0.2.2 within 5 s");
}

void snp_check_arp(void)
{
	UINT32 on = EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST;

	if (!CHECK_STATUS(snp->ReceiveFilters(snp, on, 0, FALSE, 0, NULL), EFI_SUCCESS))
		return;
	CHECK_EQ(snp->Mode->ReceiveFilterSetting & on, on);
	send_request();
	await_reply();
}
