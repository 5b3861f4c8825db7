/* The ACPI 2.0 entry points from QEMU's tables (see acpi_tables.h). */
#define LOG_PREFIX "acpi: "
#include "acpi_tables.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define ACPI_INVALID ((UINTN)-1)

UINT8 acpi_checksum(const void *p, UINTN n)
{
	const UINT8 *b = p;
	UINT8 sum = 0;

	for (UINTN i = 0; i < n; i++)
		sum += b[i];
	return (UINT8)-sum;
}

bool acpi_table_check(const struct qemu_loader *loader, UINT64 address,
		      EFI_ACPI_DESCRIPTION_HEADER *header)
{
	const UINT8 *p = qemu_loader_at(loader, address, sizeof(*header));

	if (!p) {
		log_debug("table at %llx: its header is in no loaded file\n",
			  (unsigned long long)address);
		return false;
	}
	mem_copy(header, p, sizeof(*header));
	if (header->Length < sizeof(*header) || !qemu_loader_at(loader, address, header->Length)) {
		log_debug("table at %llx: length %u does not fit its file\n",
			  (unsigned long long)address, header->Length);
		return false;
	}
	if (acpi_checksum(p, header->Length)) {
		log_debug("table at %llx (%.4s): bad checksum\n", (unsigned long long)address,
			  (const char *)header->Signature);
		return false;
	}
	return true;
}

/* QEMU's RSDP: revision 0 (20 bytes) or later; only its RSDT address is used. */
static bool rsdp_rsdt(const void *rsdp, UINTN size, UINT64 *rsdt)
{
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER r;

	if (size < EFI_ACPI_RSDP_V1_SIZE) {
		log_debug("RSDP: %llu bytes, too short\n", (unsigned long long)size);
		return false;
	}
	mem_set(&r, 0, sizeof(r));
	mem_copy(&r, rsdp, EFI_ACPI_RSDP_V1_SIZE);
	if (mem_cmp(r.Signature, EFI_ACPI_RSDP_SIGNATURE, 8)) {
		log_debug("RSDP: bad signature\n");
		return false;
	}
	if (acpi_checksum(rsdp, EFI_ACPI_RSDP_V1_SIZE)) {
		log_debug("RSDP: bad checksum\n");
		return false;
	}
	*rsdt = r.RsdtAddress;
	return true;
}

UINTN acpi_rsdt_tables(const struct qemu_loader *loader, const void *rsdp, UINTN rsdp_size,
		       UINT64 *tables, UINTN max, UINT64 *rsdt_address,
		       EFI_ACPI_DESCRIPTION_HEADER *rsdt)
{
	const UINT8 *entries;
	UINTN count = 0;

	if (!rsdp_rsdt(rsdp, rsdp_size, rsdt_address) ||
	    !acpi_table_check(loader, *rsdt_address, rsdt))
		return ACPI_INVALID; /* they said why */
	if (mem_cmp(rsdt->Signature, EFI_ACPI_RSDT_SIGNATURE, 4)) {
		log_debug("the RSDP points at no RSDT (%.4s)\n", (const char *)rsdt->Signature);
		return ACPI_INVALID;
	}
	entries = qemu_loader_at(loader, *rsdt_address, rsdt->Length) + sizeof(*rsdt);
	for (UINTN i = 0; i < (rsdt->Length - sizeof(*rsdt)) / 4 && count < max; i++) {
		EFI_ACPI_DESCRIPTION_HEADER h;
		UINT32 address;
		mem_copy(&address, entries + 4 * i, 4);
		if (acpi_table_check(loader, address, &h))
			tables[count++] = address;
	}
	return count;
}

/* A revision-2 RSDP (QEMU's on Arm): its XSDT address, the extended checksum checked. */
static bool rsdp_xsdt(const void *rsdp, UINTN size, UINT64 *xsdt)
{
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER r;
	UINT64 ignored;

	if (!rsdp_rsdt(rsdp, size, &ignored))
		return false; /* it said why */
	mem_set(&r, 0, sizeof(r));
	mem_copy(&r, rsdp, MIN(size, sizeof(r)));
	if (r.Revision < EFI_ACPI_RSDP_REVISION_2 || size < sizeof(r) || r.Length < sizeof(r) ||
	    r.Length > size) {
		log_debug("RSDP: revision %u, %u of %llu bytes: no XSDT\n", r.Revision, r.Length,
			  (unsigned long long)size);
		return false;
	}
	if (acpi_checksum(rsdp, r.Length)) {
		log_debug("RSDP: bad extended checksum\n");
		return false;
	}
	*xsdt = r.XsdtAddress;
	return true;
}

UINTN acpi_xsdt_tables(const struct qemu_loader *loader, const void *rsdp, UINTN rsdp_size,
		       UINT64 *tables, UINTN max, EFI_ACPI_DESCRIPTION_HEADER *xsdt)
{
	const UINT8 *entries;
	UINT64 xsdt_address;
	UINTN count = 0;

	if (!rsdp_xsdt(rsdp, rsdp_size, &xsdt_address) ||
	    !acpi_table_check(loader, xsdt_address, xsdt))
		return ACPI_INVALID; /* they said why */
	if (mem_cmp(xsdt->Signature, EFI_ACPI_XSDT_SIGNATURE, 4)) {
		log_debug("the RSDP points at no XSDT (%.4s)\n", (const char *)xsdt->Signature);
		return ACPI_INVALID;
	}
	entries = qemu_loader_at(loader, xsdt_address, xsdt->Length) + sizeof(*xsdt);
	for (UINTN i = 0; i < (xsdt->Length - sizeof(*xsdt)) / 8 && count < max; i++) {
		EFI_ACPI_DESCRIPTION_HEADER h;
		UINT64 address;
		mem_copy(&address, entries + 8 * i, 8);
		if (acpi_table_check(loader, address, &h))
			tables[count++] = address;
	}
	return count;
}

void acpi_build_xsdt(void *buffer, const EFI_ACPI_DESCRIPTION_HEADER *like, const UINT64 *tables,
		     UINTN count)
{
	EFI_ACPI_DESCRIPTION_HEADER h = *like;
	UINT8 *p = buffer;

	mem_copy(h.Signature, EFI_ACPI_XSDT_SIGNATURE, 4);
	h.Length = (UINT32)ACPI_XSDT_SIZE(count);
	h.Revision = EFI_ACPI_XSDT_REVISION;
	h.Checksum = 0;
	mem_copy(p, &h, sizeof(h));
	mem_copy(p + sizeof(h), tables, 8 * count);
	p[offsetof(EFI_ACPI_DESCRIPTION_HEADER, Checksum)] = acpi_checksum(p, h.Length);
}

void acpi_build_rsdp(EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp, const UINT8 oem_id[6],
		     UINT32 rsdt_address, UINT64 xsdt_address)
{
	mem_set(rsdp, 0, sizeof(*rsdp));
	mem_copy(rsdp->Signature, EFI_ACPI_RSDP_SIGNATURE, 8);
	mem_copy(rsdp->OemId, oem_id, 6);
	rsdp->Revision = EFI_ACPI_RSDP_REVISION_2;
	rsdp->RsdtAddress = rsdt_address;
	rsdp->Length = sizeof(*rsdp);
	rsdp->XsdtAddress = xsdt_address;
	rsdp->Checksum = acpi_checksum(rsdp, EFI_ACPI_RSDP_V1_SIZE);
	rsdp->ExtendedChecksum = acpi_checksum(rsdp, sizeof(*rsdp));
}
