/* A boot payload for `make bench` (scripts/bench-aarch64): reads the generic timer's
 * virtual counter first thing in its entry point and prints it as nanoseconds. Under QEMU's
 * -icount shift=0 the counter runs on the virtual clock (one nanosecond per instruction)
 * from reset, so the figure is the firmware's boot time. */
#include <efi/system_table.h>

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	UINT64 count, frequency, ns;
	CHAR16 digits[24];
	int at = 21;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(count));
	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(frequency));
	/* count / frequency seconds; whole seconds and the rest apart, so nothing overflows. */
	ns = count / frequency * 1000000000ULL + count % frequency * 1000000000ULL / frequency;
	digits[23] = 0;
	digits[22] = u'\n';
	digits[21] = u'\r';
	do {
		digits[--at] = (CHAR16)(u'0' + ns % 10);
		ns /= 10;
	} while (ns);
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)u"counter-entry: ");
	st->ConOut->OutputString(st->ConOut, digits + at);
	return EFI_SUCCESS;
}
