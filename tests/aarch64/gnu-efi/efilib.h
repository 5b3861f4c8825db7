/* gnu-efi's library functions tests/programs use (tests/aarch64/gnu-efi/efi.h says why). */
#ifndef TESTS_AARCH64_GNU_EFILIB_H
#define TESTS_AARCH64_GNU_EFILIB_H

#include "efi.h"

#define IsDevicePathEnd(dp)                                                                        \
	((dp)->Type == END_DEVICE_PATH_TYPE && (dp)->SubType == END_ENTIRE_DEVICE_PATH_SUBTYPE)

void InitializeLib(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);
/* Print's conversions as gnu-efi has them: %s a CHAR16 string, %a a CHAR8 one, %r a status,
 * %d %x with l for 64 bits; "\n" is written as CR LF. */
UINTN Print(const CHAR16 *fmt, ...);
/* size in bytes, as gnu-efi's. */
UINTN SPrint(CHAR16 *buffer, UINTN size, const CHAR16 *fmt, ...);
INTN StrCmp(const CHAR16 *a, const CHAR16 *b);
UINTN StrLen(const CHAR16 *s);
VOID StrCat(CHAR16 *dest, const CHAR16 *src);
VOID CopyMem(VOID *dest, const VOID *src, UINTN size);

#endif
