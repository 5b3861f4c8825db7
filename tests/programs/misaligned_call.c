/* Breaks the calling convention: calls ConOut->OutputString with a stack that is not
 * 16-byte aligned at the call (UEFI 2.3.4.2). When the firmware's code faults on it, the
 * report must blame this program, not the firmware. */
#include <efi.h>
#include <efilib.h>

static CHAR16 text[] = L"misaligned_call: the firmware coped\r\n";

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = systab->ConOut;
	UINT64 status;

	InitializeLib(image, systab);
	Print(L"misaligned_call: calling OutputString with rsp 8 bytes off\n");
	/* 32 bytes of shadow space, then 8 more: at the call rsp is 8 modulo 16. */
	__asm__ __volatile__("movq %%rsp, %%rbx\n\t"
			     "andq $-16, %%rsp\n\t"
			     "subq $40, %%rsp\n\t"
			     "movq %[this], %%rcx\n\t"
			     "movq %[str], %%rdx\n\t"
			     "callq *%[fn]\n\t"
			     "movq %%rbx, %%rsp"
			     : "=a"(status)
			     : [this] "r"(out), [str] "r"(text), [fn] "r"(out->OutputString)
			     : "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "memory", "cc");
	return status ? EFI_DEVICE_ERROR : EFI_UNSUPPORTED;
}
