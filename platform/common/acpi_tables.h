/* Building the ACPI 2.0 entry points from QEMU's tables, once the table-loader ran: QEMU
 * hands over a revision-0 RSDP pointing at an RSDT; the firmware validates every table the
 * RSDT lists and publishes an RSDP revision 2 with an XSDT of the same tables. Pure logic on
 * the loader's blobs (outside data, all checked), shared by the firmware and its tests. */
#ifndef EMBER_ACPI_TABLES_H
#define EMBER_ACPI_TABLES_H

#include <efi/acpi.h>
#include "qemu_loader.h"

/* The value that makes bytes [0, n) of p sum to zero when stored in a zero byte among them. */
UINT8 acpi_checksum(const void *p, UINTN n);

/* Copies the header of the table at address into *header if a blob holds the whole table
 * (Length at least a header) and its bytes sum to zero. */
bool acpi_table_check(const struct qemu_loader *loader, UINT64 address,
		      EFI_ACPI_DESCRIPTION_HEADER *header);

/* From QEMU's RSDP (rsdp_size bytes), the addresses of the valid tables its RSDT lists, at
 * most max of them; *rsdt_address and *rsdt (its header) describe the RSDT. Returns the
 * number found, or -1 (as UINTN) if the RSDP or the RSDT is invalid. */
UINTN acpi_rsdt_tables(const struct qemu_loader *loader, const void *rsdp, UINTN rsdp_size,
		       UINT64 *tables, UINTN max, UINT64 *rsdt_address,
		       EFI_ACPI_DESCRIPTION_HEADER *rsdt);

/* The same from a revision-2 RSDP and its XSDT (QEMU's on Arm, where there is no RSDT);
 * *xsdt is the XSDT's header. */
UINTN acpi_xsdt_tables(const struct qemu_loader *loader, const void *rsdp, UINTN rsdp_size,
		       UINT64 *tables, UINTN max, EFI_ACPI_DESCRIPTION_HEADER *xsdt);

/* Bytes of an XSDT with count entries. */
#define ACPI_XSDT_SIZE(count) (sizeof(EFI_ACPI_DESCRIPTION_HEADER) + 8 * (count))

/* Writes an XSDT listing tables (OEM fields copied from like) with its checksum. */
void acpi_build_xsdt(void *buffer, const EFI_ACPI_DESCRIPTION_HEADER *like, const UINT64 *tables,
		     UINTN count);

/* Writes a revision-2 RSDP with both checksums. */
void acpi_build_rsdp(EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp, const UINT8 oem_id[6],
		     UINT32 rsdt_address, UINT64 xsdt_address);

#endif
