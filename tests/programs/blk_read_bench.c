/* A boot payload for `make bench` (scripts/bench-devices), standing in for a loader that
 * reads a disk: prints the time-stamp counter first thing (the firmware's boot time under
 * QEMU's -icount shift=0, where the counter is virtual nanoseconds since reset), then reads
 * the first 64 MiB of the whole disk through BlockIo in 1 MiB requests and prints how long
 * that took. The disk is the first whole-disk BlockIo (not a partition) large enough. */
#include <efi.h>
#include <efilib.h>

#define BENCH_BYTES (64ULL << 20)
#define REQUEST_BYTES (1ULL << 20)

static inline UINT64 read_tsc(void)
{
	UINT32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((UINT64)hi << 32) | lo;
}

static EFI_BLOCK_IO *find_disk(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	EFI_BLOCK_IO *found = NULL;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &BlockIoProtocol,
					NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++) {
		EFI_BLOCK_IO *blk;

		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i], &BlockIoProtocol,
						(void **)&blk)))
			continue;
		if (blk->Media->LogicalPartition || !blk->Media->MediaPresent)
			continue;
		if ((blk->Media->LastBlock + 1) * blk->Media->BlockSize >= BENCH_BYTES)
			found = blk;
	}
	uefi_call_wrapper(BS->FreePool, 1, handles);
	return found;
}

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	UINT64 entry = read_tsc();
	EFI_PHYSICAL_ADDRESS buffer;
	EFI_BLOCK_IO *blk;
	EFI_STATUS status;
	UINT64 start, end;

	InitializeLib(image, systab);
	Print(L"tsc-entry: %lu\n", entry);
	blk = find_disk();
	if (!blk) {
		Print(L"blk-read: no disk of 64 MiB\n");
		return EFI_NOT_FOUND;
	}
	status = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, EfiLoaderData,
				   REQUEST_BYTES / 4096, &buffer);
	if (EFI_ERROR(status)) {
		Print(L"blk-read: AllocatePages: %r\n", status);
		return status;
	}
	start = read_tsc();
	for (UINT64 at = 0; at < BENCH_BYTES; at += REQUEST_BYTES) {
		status = uefi_call_wrapper(blk->ReadBlocks, 5, blk, blk->Media->MediaId,
					   at / blk->Media->BlockSize, REQUEST_BYTES,
					   (void *)(UINTN)buffer);
		if (EFI_ERROR(status)) {
			Print(L"blk-read: ReadBlocks at %lu: %r\n", at, status);
			return status;
		}
	}
	end = read_tsc();
	Print(L"blk-read: %lu bytes in %lu ns\n", BENCH_BYTES, end - start);
	return EFI_SUCCESS;
}
