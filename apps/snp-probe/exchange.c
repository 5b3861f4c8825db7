/* Frames on the wire: an ARP exchange with the host (10.0.2.2), a DHCPDISCOVER answered by
 * an offer of 10.0.2.15, and a count of ARP replies for the loss tests. Requests are sent
 * again until answered (tries are few and short), as a network stack would on a lossy
 * link. */
#include "probe.h"

#define SNP probe_snp
#define TRIES 20
#define REPLY_WAIT_MS 100
#define COUNT_REQUESTS 100
#define COUNT_WAIT_MS 20

bool probe_bring_up(void)
{
	UINT32 filters = EFI_SIMPLE_NETWORK_RECEIVE_UNICAST | EFI_SIMPLE_NETWORK_RECEIVE_BROADCAST;

	if (SNP->Mode->State == EfiSimpleNetworkStopped)
		CHECK_STATUS(SNP->Start(SNP), EFI_SUCCESS);
	if (SNP->Mode->State == EfiSimpleNetworkStarted)
		CHECK_STATUS(SNP->Initialize(SNP, 0, 0), EFI_SUCCESS);
	return CHECK_STATUS(SNP->ReceiveFilters(SNP, filters, 0, FALSE, 0, NULL), EFI_SUCCESS);
}

/* GetStatus hands back transmitted buffers in order; this one must come back. */
static bool recycle(void *frame)
{
	for (int i = 0; i < 1000; i++) {
		UINT32 interrupts = 0;
		void *tx = NULL;
		if (!CHECK_STATUS(SNP->GetStatus(SNP, &interrupts, &tx), EFI_SUCCESS))
			return false;
		if (tx == frame)
			return true;
		if (!tx)
			app_bs->Stall(1000);
	}
	return CHECK_FAIL("GetStatus never handed the transmitted buffer back");
}

bool probe_send(void *frame, UINTN length, UINTN header_size, UINT16 protocol)
{
	EFI_MAC_ADDRESS dest = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};

	if (!CHECK_STATUS(SNP->Transmit(SNP, header_size, length, frame, NULL,
					header_size ? &dest : NULL, header_size ? &protocol : NULL),
			  EFI_SUCCESS))
		return false;
	return recycle(frame);
}

/* Waits on WaitForPacket or the timer; false when the timer went first. */
static bool wait_packet(EFI_EVENT timer)
{
	EFI_EVENT events[2] = {SNP->WaitForPacket, timer};
	UINTN index = 2;

	if (!CHECK_STATUS(app_bs->WaitForEvent(2, events, &index), EFI_SUCCESS))
		return false;
	return index == 0;
}

static bool receive_until(EFI_EVENT timer, UINT8 *frame, UINTN *length,
			  bool (*accept)(const UINT8 *, UINTN, void *), void *ctx)
{
	UINTN capacity = *length;

	while (wait_packet(timer)) {
		for (;;) {
			UINTN size = capacity;
			EFI_STATUS status = SNP->Receive(SNP, NULL, &size, frame, NULL, NULL, NULL);
			if (status == EFI_NOT_READY)
				break;
			if (!CHECK_STATUS(status, EFI_SUCCESS))
				return false;
			if (!accept || accept(frame, size, ctx)) {
				*length = size;
				return true;
			}
		}
	}
	return false;
}

bool probe_receive(UINT8 *frame, UINTN *length, UINT32 timeout_ms,
		   bool (*accept)(const UINT8 *frame, UINTN length, void *ctx), void *ctx)
{
	EFI_EVENT timer;
	bool got;

	if (!CHECK_STATUS(app_bs->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer), EFI_SUCCESS))
		return false;
	app_bs->SetTimer(timer, TimerRelative, (UINT64)timeout_ms * 10000);
	got = receive_until(timer, frame, length, accept, ctx);
	app_bs->CloseEvent(timer);
	return got;
}

/* ---- ARP ---- */

struct arp_wait {
	UINT8 mac[6];
};

static bool accept_arp_reply(const UINT8 *frame, UINTN length, void *ctx)
{
	struct arp_wait *w = ctx;

	return frame_arp_reply(frame, length, probe_host_ip, w->mac);
}

/* One request of the header-filling kind: Transmit writes the Ethernet header. */
static bool arp_once(UINT32 wait_ms, struct arp_wait *w)
{
	static UINT8 request[FRAME_ARP_SIZE + 18]; /* padded to Ethernet's 60 bytes */
	UINT8 reply[1514];
	UINTN length = sizeof(reply);

	frame_arp_request(request, SNP->Mode->CurrentAddress.Addr, probe_guest_ip, probe_host_ip);
	mem_set(request, 0, 12); /* Transmit fills the addresses and type in */
	if (!probe_send(request, sizeof(request), SNP->Mode->MediaHeaderSize, 0x0806))
		return false;
	return probe_receive(reply, &length, wait_ms, accept_arp_reply, w);
}

/* A queued frame too large for the buffer stays queued; Receive says how big it is and
 * fills the header fields on the next call. */
static void check_receive_sizes(struct arp_wait *w)
{
	UINT8 frame[1514];
	UINTN small = 10, size = sizeof(frame), header = 0;
	EFI_MAC_ADDRESS src, dest;
	UINT16 protocol = 0;
	UINT8 mac[6];

	if (!probe_send(frame,
			frame_arp_request(frame, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
					  probe_host_ip),
			0, 0))
		return;
	if (SNP->Receive(SNP, NULL, &small, frame, NULL, NULL, NULL) == EFI_NOT_READY)
		return; /* the request or its reply was lost (loss=): nothing to look at */
	CHECK(small >= FRAME_ARP_SIZE && small <= sizeof(frame));
	CHECK_STATUS(SNP->Receive(SNP, &header, &size, frame, &src, &dest, &protocol), EFI_SUCCESS);
	CHECK_EQ(size, small);
	CHECK_EQ(header, 14);
	CHECK_EQ(protocol, 0x0806);
	CHECK(!mem_cmp(dest.Addr, SNP->Mode->CurrentAddress.Addr, 6));
	CHECK(frame_arp_reply(frame, size, probe_host_ip, mac) && !mem_cmp(src.Addr, mac, 6));
	CHECK(!mem_cmp(mac, w->mac, 6));
}

void probe_arp(void)
{
	struct arp_wait w;
	int tries = 0;

	if (!probe_bring_up())
		return;
	while (tries++ < TRIES && !arp_once(REPLY_WAIT_MS, &w))
		;
	if (!CHECK(tries <= TRIES))
		return;
	app_print("arp: 10.0.2.2 is at %02x:%02x:%02x:%02x:%02x:%02x (try %d)\n", w.mac[0],
		  w.mac[1], w.mac[2], w.mac[3], w.mac[4], w.mac[5], tries);
	check_receive_sizes(&w);
}

void probe_arp_count(void)
{
	struct arp_wait w;
	UINT32 answered = 0;

	if (!probe_bring_up())
		return;
	for (int i = 0; i < COUNT_REQUESTS; i++)
		answered += arp_once(COUNT_WAIT_MS, &w);
	app_print("arp-count: %d sent, %u answered\n", COUNT_REQUESTS, answered);
}

/* ---- DHCP ---- */

struct dhcp_wait {
	UINT32 xid;
	struct frame_offer offer;
};

static bool accept_offer(const UINT8 *frame, UINTN length, void *ctx)
{
	struct dhcp_wait *w = ctx;

	return frame_dhcp_offer(frame, length, w->xid, &w->offer);
}

void probe_dhcp(void)
{
	static UINT8 discover[FRAME_DHCP_SIZE];
	UINT8 reply[1514];
	struct dhcp_wait w = {.xid = 0x454d4252};
	const UINT8 *a = w.offer.yiaddr, *s = w.offer.server;
	int tries = 0;
	bool got = false;

	if (!probe_bring_up())
		return;
	while (!got && tries++ < TRIES) {
		UINTN length = sizeof(reply);
		frame_dhcp_discover(discover, SNP->Mode->CurrentAddress.Addr, ++w.xid);
		got = probe_send(discover, sizeof(discover), 0, 0) &&
		      probe_receive(reply, &length, REPLY_WAIT_MS, accept_offer, &w);
	}
	if (!CHECK(got))
		return;
	app_print("dhcp: offer %u.%u.%u.%u from %u.%u.%u.%u (try %d)\n", a[0], a[1], a[2], a[3],
		  s[0], s[1], s[2], s[3], tries);
	if (w.offer.file[0])
		app_print("dhcp: boot file %s\n", w.offer.file);
	CHECK(!mem_cmp(a, probe_guest_ip, 4));
	CHECK(!mem_cmp(s, probe_host_ip, 4));
}
