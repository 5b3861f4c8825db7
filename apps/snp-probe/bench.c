/* Raw SimpleNetwork throughput for `make bench` (scripts/bench-net), timed with the TSC
 * calibrated against Stall():
 *   bench-arp       ARP requests answered by the network itself: Transmit, GetStatus,
 *                   Receive and slirp's work per frame, with no host socket involved
 *   bench-udp=PORT  full-size UDP datagrams (1,472 bytes, 1,514-byte frames) to an echo
 *                   server on the host, at most WINDOW unanswered at a time, echoes
 *                   received: frames through slirp and the host's sockets both ways
 * Each prints "frames/s" lines that scripts/bench-net reads. */
#include "probe.h"
#include "../lib/tsc.h"

#define SNP probe_snp
#define ARP_ROUNDS 20000
#define UDP_DATAGRAMS 20000
#define UDP_PAYLOAD 1472
#define WINDOW 32
#define PROBE_PORT 40001
#define SILENCE_MS 200 /* no echo for this long: the ones in flight are lost */

/* Frames per second for count frames in ticks. */
static UINT64 per_second(UINT64 count, UINT64 ticks)
{
	return ticks ? count * app_tsc_hz() / ticks : 0;
}

/* Takes every transmitted buffer back (they are static: nothing else to do with them). */
static void recycle_all(void)
{
	void *tx;

	do {
		tx = NULL;
		if (EFI_ERROR(SNP->GetStatus(SNP, NULL, &tx)))
			return;
	} while (tx);
}

void probe_bench_arp(void)
{
	static UINT8 request[60];
	UINT8 reply[1514], mac[6];
	UINT32 answered = 0;
	UINT64 start;

	if (!probe_bring_up())
		return;
	frame_arp_request(request, SNP->Mode->CurrentAddress.Addr, probe_guest_ip, probe_host_ip);
	start = app_tsc();
	for (int i = 0; i < ARP_ROUNDS; i++) {
		UINTN size = sizeof(reply);
		if (EFI_ERROR(SNP->Transmit(SNP, 0, sizeof(request), request, NULL, NULL, NULL)))
			break;
		recycle_all();
		while (SNP->Receive(SNP, NULL, &size, reply, NULL, NULL, NULL) == EFI_SUCCESS) {
			answered += frame_arp_reply(reply, size, probe_host_ip, mac);
			size = sizeof(reply);
		}
	}
	start = app_tsc() - start;
	CHECK_EQ(answered, ARP_ROUNDS);
	app_print("bench-arp: %u exchanges, %llu frames/s\n", answered,
		  (unsigned long long)per_second(2ULL * answered, start));
}

struct udp_run {
	UINT8 host_mac[6];
	UINT16 port;
	UINT32 sent, echoed, lost;
};

/* Receives what has arrived; true when at least one echo came. */
static bool take_echoes(struct udp_run *r)
{
	static UINT8 frame[1514];
	bool any = false;

	for (;;) {
		UINTN size = sizeof(frame), payload;
		if (SNP->Receive(SNP, NULL, &size, frame, NULL, NULL, NULL) != EFI_SUCCESS)
			return any;
		if (frame_udp_payload(frame, size, r->port, PROBE_PORT, &payload) &&
		    payload == UDP_PAYLOAD) {
			r->echoed++;
			any = true;
		}
	}
}

/* Takes echoes until fewer than limit datagrams are in flight; after SILENCE_MS of
 * nothing, writes those in flight off as lost. */
static void wait_in_flight_below(struct udp_run *r, UINT32 limit)
{
	UINT64 quiet_since = app_tsc();

	while (r->sent - r->echoed - r->lost >= limit) {
		if (take_echoes(r))
			quiet_since = app_tsc();
		else if ((app_tsc() - quiet_since) * 1000 > app_tsc_hz() * SILENCE_MS)
			r->lost = r->sent - r->echoed;
	}
}

static void udp_blast(struct udp_run *r)
{
	static UINT8 frame[1514], payload[UDP_PAYLOAD];
	UINTN size = frame_udp(frame, r->host_mac, SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
			       probe_host_ip, PROBE_PORT, r->port, payload, sizeof(payload));

	while (r->sent < UDP_DATAGRAMS) {
		wait_in_flight_below(r, WINDOW);
		if (EFI_ERROR(SNP->Transmit(SNP, 0, size, frame, NULL, NULL, NULL)))
			break;
		r->sent++;
		recycle_all();
	}
	wait_in_flight_below(r, 1);
}

void probe_bench_udp(UINT16 port)
{
	static UINT8 request[60], reply[1514];
	struct udp_run r = {.port = port};
	UINTN length = sizeof(reply);
	UINT64 ticks;

	if (!probe_bring_up())
		return;
	frame_arp_request(request, SNP->Mode->CurrentAddress.Addr, probe_guest_ip, probe_host_ip);
	if (!probe_send(request, sizeof(request), 0, 0) ||
	    !probe_receive(reply, &length, 1000, NULL, NULL) ||
	    !CHECK(frame_arp_reply(reply, length, probe_host_ip, r.host_mac)))
		return;
	ticks = app_tsc();
	udp_blast(&r);
	ticks = app_tsc() - ticks;
	CHECK(r.echoed > r.sent / 2);
	app_print(
	    "bench-udp: %u sent, %u echoed, %llu frames/s, %llu MB/s of payload\n", r.sent,
	    r.echoed, (unsigned long long)per_second(r.sent + r.echoed, ticks),
	    (unsigned long long)(per_second(r.sent + r.echoed, ticks) * UDP_PAYLOAD / 1000000));
}
