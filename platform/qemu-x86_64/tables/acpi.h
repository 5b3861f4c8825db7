/* Tables Ember adds to QEMU's ACPI tables once they are published (tables/acpi.c). */
#ifndef EMBER_QEMU_ACPI_H
#define EMBER_QEMU_ACPI_H

#include <efi/acpi.h>

/* Lists the table at address (below 4 GiB, in ACPI memory) in the XSDT and in an RSDT of
 * Ember's. EFI_NOT_READY before QEMU's tables are published. */
EFI_STATUS acpi_add_table(UINT64 address);

/* QEMU's RSDT header, whose OEM fields new tables copy; NULL before publication. */
const EFI_ACPI_DESCRIPTION_HEADER *acpi_oem_header(void);

/* Draws the boot logo and describes it in a BGRT (tables/bgrt.c). */
void bgrt_show_logo(void);

#endif
