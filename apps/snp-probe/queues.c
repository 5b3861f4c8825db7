/* The NIC's queues at their bounds: transmitted buffers come back through GetStatus in
 * the order they were sent, and when none come back Transmit runs out of room
 * (EFI_NOT_READY); received frames nobody takes fill the receive queue, then are dropped
 * and counted in RxDroppedFrames. Needs a network that answers ARP requests at once
 * (--net user, no loss). */
#include "probe.h"

#define SNP probe_snp
#define MAX_TX 4096
#define FLOOD 3000 /* more than a receive queue holds */

static void check_transmit_room(void)
{
	static UINT8 request[MAX_TX][60];
	UINT32 sent = 0;
	void *tx = NULL;

	for (; sent < MAX_TX; sent++) {
		frame_arp_request(request[sent], SNP->Mode->CurrentAddress.Addr, probe_guest_ip,
				  probe_host_ip);
		if (SNP->Transmit(SNP, 0, 60, request[sent], NULL, NULL, NULL) != EFI_SUCCESS)
			break;
	}
	CHECK(sent > 0 && sent < MAX_TX);
	CHECK_STATUS(SNP->Transmit(SNP, 0, 60, request[0], NULL, NULL, NULL), EFI_NOT_READY);
	for (UINT32 i = 0; i < sent; i++) {
		if (!CHECK_STATUS(SNP->GetStatus(SNP, NULL, &tx), EFI_SUCCESS) ||
		    !CHECK(tx == request[i]))
			return;
	}
	CHECK_STATUS(SNP->GetStatus(SNP, NULL, &tx), EFI_SUCCESS);
	CHECK(tx == NULL);
	app_print("queues: %u buffers in flight before EFI_NOT_READY\n", sent);
}

/* Sends FLOOD requests, taking each buffer back but no reply. */
static void flood(void)
{
	static UINT8 request[60];
	void *tx;

	frame_arp_request(request, SNP->Mode->CurrentAddress.Addr, probe_guest_ip, probe_host_ip);
	for (int i = 0; i < FLOOD; i++) {
		if (!CHECK_STATUS(SNP->Transmit(SNP, 0, 60, request, NULL, NULL, NULL),
				  EFI_SUCCESS))
			return;
		SNP->GetStatus(SNP, NULL, &tx);
	}
}

static void check_receive_overflow(void)
{
	UINT8 frame[1514];
	EFI_NETWORK_STATISTICS stats;
	UINTN size = sizeof(stats);
	UINT32 queued = 0;

	/* Drop whatever is queued, then start counting from zero. */
	CHECK_STATUS(SNP->Reset(SNP, FALSE), EFI_SUCCESS);
	CHECK_STATUS(SNP->Statistics(SNP, TRUE, NULL, NULL), EFI_SUCCESS);
	flood();
	for (;;) {
		UINTN length = sizeof(frame);
		if (SNP->Receive(SNP, NULL, &length, frame, NULL, NULL, NULL) != EFI_SUCCESS)
			break;
		queued++;
	}
	CHECK(queued > 0 && queued < FLOOD);
	CHECK_STATUS(SNP->Statistics(SNP, FALSE, &size, &stats), EFI_SUCCESS);
	CHECK_EQ(stats.RxDroppedFrames, FLOOD - queued);
	CHECK_EQ(stats.RxGoodFrames, queued);
	CHECK_EQ(stats.TxGoodFrames, FLOOD);
	app_print("queues: %u frames queued, %llu dropped\n", queued,
		  (unsigned long long)stats.RxDroppedFrames);
}

void probe_queues(void)
{
	if (!probe_bring_up())
		return;
	check_transmit_room();
	check_receive_overflow();
}
