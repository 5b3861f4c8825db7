/* Tables Ember adds to QEMU's: the BGRT of the boot logo, and the RSDT and XSDT rebuilt to
 * list one more table (the OS finds every table through both). Pure: the firmware
 * (tables/acpi.c, tables/bgrt.c) and the unit tests share it. */
#ifndef EMBER_ACPI_BGRT_H
#define EMBER_ACPI_BGRT_H

#include <efi/acpi.h>

/* Bytes of an RSDT with count entries. */
#define ACPI_RSDT_SIZE(count) (sizeof(EFI_ACPI_DESCRIPTION_HEADER) + 4 * (count))

/* Writes an RSDT listing tables (each below 4 GiB; OEM fields copied from like) with its
 * checksum. */
void acpi_build_rsdt(void *buffer, const EFI_ACPI_DESCRIPTION_HEADER *like, const UINT64 *tables,
		     UINTN count);

/* Writes a BGRT (version 1, a BMP, status "displayed") for an image at image_address drawn
 * with its upper-left corner at (x, y); OEM fields from like; checksum included. */
void acpi_build_bgrt(EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE *bgrt,
		     const EFI_ACPI_DESCRIPTION_HEADER *like, UINT64 image_address, UINT32 x,
		     UINT32 y);

#endif
