/* A program that recurses without end: its stack runs into the guard page below it, and
 * the firmware reports a stack overflow instead of writing over its own memory. */
#include <efi.h>
#include <efilib.h>

/* Each call keeps a frame of its own: the buffer is volatile and the sum needs the
 * callee's result, so the compiler can turn it into neither a loop nor a tail call. */
static __attribute__((noinline)) UINTN descend(UINTN depth)
{
	volatile UINT8 frame[200];

	if (depth == ~(UINTN)0)
		return 0; /* never: the stack ends long before */
	frame[0] = (UINT8)depth;
	frame[199] = (UINT8)(depth >> 8);
	return descend(depth + 1) + frame[0] + frame[199];
}

EFI_STATUS
efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	Print(L"stack_overflow: recursing\n");
	Print(L"stack_overflow: %lu\n", descend(0));
	return EFI_SUCCESS;
}
