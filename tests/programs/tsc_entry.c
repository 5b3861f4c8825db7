/* A boot payload for `make bench` (scripts/bench-qemu): reads the time-stamp counter first
 * thing in its entry point and prints it. Under QEMU's -icount shift=0 the counter is
 * virtual nanoseconds since reset, so the figure is the firmware's boot time. */
#include <efi.h>
#include <efilib.h>

static inline UINT64 read_tsc(void)
{
	UINT32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((UINT64)hi << 32) | lo;
}

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	UINT64 tsc = read_tsc();

	InitializeLib(image, systab);
	Print(L"tsc-entry: %lu\n", tsc);
	return EFI_SUCCESS;
}
