/* Firmware volumes in the DXE core (core/fv): EFI_FIRMWARE_VOLUME2_PROTOCOL over a
 * memory-mapped, read-only volume, on a handle with an Fv() device path, and the dispatcher
 * that runs the volume's DRIVER files after the built-in drivers (PI 1.8 volume 2,
 * chapter 10: dependency expressions over the protocol database). */
#ifndef EMBER_CORE_FV_H
#define EMBER_CORE_FV_H

#include <stdbool.h>
#include <efi/status.h>
#include <efi/types.h>
#include <efi/protocol/device_path.h>

/* Publishes the volume at base (size bytes of memory-mapped flash) on a new handle. A
 * volume whose header is refused is reported (log_warn) and not published. */
EFI_STATUS fv_publish(const void *base, UINTN size, EFI_HANDLE *handle);

/* Loads and starts the DRIVER files of every published volume whose dependency expression
 * holds (in volume order when none has one; each start re-evaluates the others); a
 * damaged file is reported and never run. Returns how many drivers started. */
UINTN fv_dispatch(void);

/* True when handle carries a volume published by fv_publish: its images are the
 * platform's own code (not judged by Secure Boot, measured into PCR 0). */
bool fv_handle_is_platform(EFI_HANDLE handle);

/* The PE32 image of file name in the volume on handle, in a pool buffer (pool_free it).
 * EFI_NOT_FOUND when there is none, EFI_DEVICE_ERROR when the file is damaged. */
EFI_STATUS fv_read_image(EFI_HANDLE handle, const EFI_GUID *name, void **image, UINTN *size);

/* Measures an image read from a published volume into PCR 0 (platform code: PFP 1.05
 * 3.3.4.1) by its Authenticode digest, with a UEFI_IMAGE_LOAD_EVENT naming path. */
void fv_measure_image(const void *file, UINTN file_size, UINT16 subsystem, UINT64 base,
		      UINT64 size_in_memory, UINT64 link_address,
		      const EFI_DEVICE_PATH_PROTOCOL *path);

#endif
