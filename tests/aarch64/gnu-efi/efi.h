/* The part of gnu-efi's API that tests/programs use, over Ember's UEFI headers, so that
 * those programs (written for gnu-efi, standing in for third-party software) build for
 * AArch64, for which Debian has no gnu-efi on an amd64 host. lib.c implements it. */
#ifndef TESTS_AARCH64_GNU_EFI_H
#define TESTS_AARCH64_GNU_EFI_H

#include <efi/system_table.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/loaded_image.h>

typedef EFI_LOADED_IMAGE_PROTOCOL EFI_LOADED_IMAGE;
typedef EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL SIMPLE_TEXT_OUTPUT_INTERFACE;
typedef EFI_DEVICE_PATH_PROTOCOL EFI_DEVICE_PATH;

extern EFI_SYSTEM_TABLE *ST;
extern EFI_BOOT_SERVICES *BS;
extern EFI_RUNTIME_SERVICES *RT;
extern EFI_GUID LoadedImageProtocol;

/* Calls fn with n arguments, each passed as 64 bits (gnu-efi's wrapper of the x86-64 ABI
 * switch; on AArch64 a plain call). */
UINT64 uefi_call_wrapper(void *fn, unsigned long n, ...);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

#endif
