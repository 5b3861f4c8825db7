/* A datagram to a UDP echo server on the host (10.0.2.2 is the host's 127.0.0.1) and its
 * echo back: the reply comes from a host socket, so it arrives only if the network runs
 * while the probe waits on WaitForPacket. */
#include "probe.h"

#define SNP probe_snp
#define TRIES 20
#define REPLY_WAIT_MS 200
#define PROBE_PORT 40000

struct echo_wait {
	UINT16 port;
	const char *text;
	size_t size;
};

static bool accept_echo(const UINT8 *frame, UINTN length, void *ctx)
{
	struct echo_wait *w = ctx;
	size_t size;
	const UINT8 *p = frame_udp_payload(frame, length, w->port, PROBE_PORT, &size);

	return p && size == w->size && !mem_cmp(p, w->text, size);
}

bool probe_host_mac(UINT8 mac[6])
{
	static UINT8 request[60];
	UINT8 reply[1514];

	for (int i = 0; i < TRIES; i++) {
		UINTN length = sizeof(reply);
		frame_arp_request(request, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
				  probe_host_ip);
		if (probe_send(request, sizeof(request), 0, 0) &&
		    probe_receive(reply, &length, REPLY_WAIT_MS, NULL, NULL) &&
		    frame_arp_reply(reply, length, probe_host_ip, mac))
			return true;
	}
	return CHECK_FAIL("no ARP reply from 10.0.2.2");
}

void probe_udp_echo(UINT16 port)
{
	static UINT8 frame[1514];
	UINT8 reply[1514], mac[6];
	struct echo_wait w = {port, "ember snp-probe", 15};
	int tries = 0;
	bool got = false;

	if (!probe_bring_up() || !probe_host_mac(mac))
		return;
	while (!got && tries++ < TRIES) {
		UINTN length = sizeof(reply);
		UINTN size = frame_udp(frame, mac, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
				       probe_host_ip, PROBE_PORT, port, w.text, w.size);
		got = probe_send(frame, size, 0, 0) &&
		      probe_receive(reply, &length, REPLY_WAIT_MS, accept_echo, &w);
	}
	if (CHECK(got))
		app_print("udp: echo from 10.0.2.2:%u (try %d)\n", port, tries);
}

/* The network runs on the timer tick too: a datagram's echo is received while the probe
 * only stalls, then read from Statistics, the one call that does not run the network. */
void probe_tick(UINT16 port)
{
	static UINT8 frame[1514];
	UINT8 mac[6];
	EFI_NETWORK_STATISTICS stats;
	UINTN size = sizeof(stats);
	UINTN length;

	if (!probe_bring_up() || !probe_host_mac(mac))
		return;
	CHECK_STATUS(SNP->Statistics(SNP, TRUE, NULL, NULL), EFI_SUCCESS);
	length = frame_udp(frame, mac, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
			   probe_host_ip, PROBE_PORT, port, "tick", 4);
	if (!CHECK_STATUS(SNP->Transmit(SNP, 0, length, frame, NULL, NULL, NULL), EFI_SUCCESS))
		return;
	app_bs->Stall(300 * 1000);
	CHECK_STATUS(SNP->Statistics(SNP, FALSE, &size, &stats), EFI_SUCCESS);
	app_print("tick: %llu frame(s) received while stalling\n",
		  (unsigned long long)stats.RxGoodFrames);
}
