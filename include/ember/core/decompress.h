/* The firmware's UEFI decompression (core/misc/decompress.c): EFI_DECOMPRESS_PROTOCOL and
 * the internal call the option ROM loader uses. */
#ifndef EMBER_CORE_DECOMPRESS_H
#define EMBER_CORE_DECOMPRESS_H

#include <efi/types.h>
#include <efi/status.h>

/* Decompresses src[0..size) (UEFI compression format) into a new pool buffer of boot
 * services data (*out, *out_size). EFI_INVALID_PARAMETER for a corrupt stream (logged at
 * debug level), EFI_OUT_OF_RESOURCES when memory runs out. */
EFI_STATUS core_decompress(const void *src, UINTN size, void **out, UINTN *out_size);

#endif
