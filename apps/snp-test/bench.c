/* snp-bench: SNP_BENCH_BYTES through Transmit in frames of the largest size, to a peer MAC
 * with an experimental EtherType (QEMU's user network drops them), each buffer recycled
 * through GetStatus before it is used again. The time is the time-stamp counter's, which
 * under QEMU's -icount shift=0 counts virtual nanoseconds (scripts/bench-net). */
#include "snp_test.h"

#define SNP_BENCH_BYTES (4u << 20)
#define FRAME 1514
#define BUFFERS 16

static UINT8 frames[BUFFERS][FRAME];
static bool busy[BUFFERS];

static UINT64 read_tsc(void)
{
	UINT32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (UINT64)hi << 32 | lo;
}

/* Takes back one sent buffer, if the driver has one; false on an error. */
static bool recycle(UINTN *in_flight)
{
	void *tx = NULL;

	if (EFI_ERROR(snp->GetStatus(snp, NULL, &tx)))
		return false;
	for (UINTN i = 0; tx && i < BUFFERS; i++)
		if (tx == frames[i] && busy[i]) {
			busy[i] = false;
			(*in_flight)--;
		}
	return true;
}

static EFI_STATUS send_one(UINTN *in_flight)
{
	EFI_MAC_ADDRESS peer = {{0x52, 0x55, 0x0a, 0x00, 0x02, 0x02}};
	UINT16 protocol = 0x88b5;
	UINTN i = 0;

	while (i < BUFFERS && busy[i])
		i++;
	if (i == BUFFERS)
		return EFI_NOT_READY;
	EFI_STATUS status = snp->Transmit(snp, 14, FRAME, frames[i], NULL, &peer, &protocol);
	if (!EFI_ERROR(status)) {
		busy[i] = true;
		(*in_flight)++;
	}
	return status;
}

void snp_bench(void)
{
	UINT64 sent = 0, start, end;
	UINTN in_flight = 0, guard = 0;
	EFI_STATUS status;

	if (!CHECK_STATUS(snp->Start(snp), EFI_SUCCESS) ||
	    !CHECK_STATUS(snp->Initialize(snp, 0, 0), EFI_SUCCESS))
		return;
	start = read_tsc();
	while (sent < SNP_BENCH_BYTES && guard < 100000000) {
		status = send_one(&in_flight);
		if (!EFI_ERROR(status))
			sent += FRAME;
		else if (status != EFI_NOT_READY || !recycle(&in_flight))
			break;
		guard++;
	}
	while (in_flight && guard++ < 100000000 && recycle(&in_flight))
		;
	end = read_tsc();
	if (!CHECK(sent >= SNP_BENCH_BYTES && !in_flight))
		return;
	app_print("snp-bench: %llu bytes in %llu ns\n", (unsigned long long)sent,
		  (unsigned long long)(end - start));
}
