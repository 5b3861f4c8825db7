/* The ACPI tables as an OS finds them: the RSDP under the ACPI 2.0 GUID (revision 2, both
 * checksums), its XSDT and RSDT, every table they list, the FADT's DSDT and FACS. Prints
 * what the QEMU tests compare: table signatures, the FADT's PM1a control block, MCFG. */
#include "pci_test.h"
#include <efi/acpi.h>

#define MCFG_ALLOCATION_OFFSET 44

static EFI_GUID acpi20_guid = EFI_ACPI_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

static UINT32 u32_at(const void *p)
{
	UINT32 v;
	mem_copy(&v, p, 4);
	return v;
}

static UINT64 u64_at(const void *p)
{
	UINT64 v;
	mem_copy(&v, p, 8);
	return v;
}

/* A table with its header: checks the checksum and prints a line; NULL if not valid. */
static const UINT8 *check_table(UINT64 address, const char *expect)
{
	const UINT8 *t = (const UINT8 *)(uintptr_t)address;
	UINT32 length;

	if (!CHECK(address != 0))
		return NULL;
	length = u32_at(t + 4);
	app_print("ACPI table %c%c%c%c at 0x%llx len %u rev %u\n", t[0], t[1], t[2], t[3], address,
		  length, t[8]);
	if (expect && !CHECK(mem_cmp(t, expect, 4) == 0))
		return NULL;
	if (!CHECK(length >= sizeof(EFI_ACPI_DESCRIPTION_HEADER)) || !CHECK(pt_sum(t, length) == 0))
		return NULL;
	return t;
}

static void check_fadt(const UINT8 *fadt)
{
	UINT32 length = u32_at(fadt + 4);
	UINT64 dsdt = u32_at(fadt + EFI_ACPI_FADT_DSDT_OFFSET);
	UINT64 facs = u32_at(fadt + EFI_ACPI_FADT_FIRMWARE_CTRL_OFFSET);

	app_print("ACPI FADT PM1a_EVT 0x%x PM1a_CNT 0x%x PM_TMR 0x%x\n",
		  u32_at(fadt + EFI_ACPI_FADT_PM1A_EVT_BLK_OFFSET),
		  u32_at(fadt + EFI_ACPI_FADT_PM1A_CNT_BLK_OFFSET),
		  u32_at(fadt + EFI_ACPI_FADT_PM_TMR_BLK_OFFSET));
	if (length >= EFI_ACPI_FADT_X_DSDT_OFFSET + 8 && u64_at(fadt + EFI_ACPI_FADT_X_DSDT_OFFSET))
		dsdt = u64_at(fadt + EFI_ACPI_FADT_X_DSDT_OFFSET);
	if (length >= EFI_ACPI_FADT_X_FIRMWARE_CTRL_OFFSET + 8 &&
	    u64_at(fadt + EFI_ACPI_FADT_X_FIRMWARE_CTRL_OFFSET))
		facs = u64_at(fadt + EFI_ACPI_FADT_X_FIRMWARE_CTRL_OFFSET);
	check_table(dsdt, EFI_ACPI_DSDT_SIGNATURE);
	if (CHECK(facs != 0))
		CHECK(mem_cmp((const void *)(uintptr_t)facs, EFI_ACPI_FACS_SIGNATURE, 4) == 0);
}

/* The OS trusts MCFG only if the firmware's memory map reserves the ECAM window. */
static void check_ecam_reserved(UINT64 base, UINT64 size)
{
	UINTN map_size = 0, key, desc_size;
	UINT32 version;
	UINT8 *map = NULL;
	UINT64 covered = 0;

	app_bs->GetMemoryMap(&map_size, NULL, &key, &desc_size, &version);
	map_size += 16 * desc_size;
	map = app_alloc(map_size);
	if (!CHECK(map != NULL) ||
	    !CHECK_STATUS(app_bs->GetMemoryMap(&map_size, (void *)map, &key, &desc_size, &version),
			  EFI_SUCCESS)) {
		app_free(map);
		return;
	}
	for (UINTN off = 0; off + desc_size <= map_size; off += desc_size) {
		EFI_MEMORY_DESCRIPTOR *d = (void *)(map + off);
		UINT64 end = d->PhysicalStart + d->NumberOfPages * EFI_PAGE_SIZE;
		if ((d->Type == EfiReservedMemoryType || d->Type == EfiMemoryMappedIO) &&
		    d->PhysicalStart < base + size && end > base)
			covered += MIN(end, base + size) - MAX(d->PhysicalStart, base);
	}
	app_print("ACPI MCFG window reserved in the memory map: %s\n",
		  covered == size ? "yes" : "no");
	CHECK_EQ(covered, size);
	app_free(map);
}

/* Checks the tables of an XSDT (8-byte entries) or RSDT (4-byte entries). */
static UINT32 check_root(const UINT8 *root, UINTN entry_size)
{
	UINT32 count = (u32_at(root + 4) - sizeof(EFI_ACPI_DESCRIPTION_HEADER)) / entry_size;
	const UINT8 *entries = root + sizeof(EFI_ACPI_DESCRIPTION_HEADER);

	for (UINT32 i = 0; i < count; i++) {
		UINT64 a = entry_size == 8 ? u64_at(entries + 8 * i) : u32_at(entries + 4 * i);
		const UINT8 *t = check_table(a, NULL);
		if (!t || entry_size != 8)
			continue;
		if (!mem_cmp(t, EFI_ACPI_FADT_SIGNATURE, 4))
			check_fadt(t);
		if (!mem_cmp(t, EFI_ACPI_MCFG_SIGNATURE, 4) && u32_at(t + 4) >= 60) {
			UINT64 base = u64_at(t + MCFG_ALLOCATION_OFFSET);
			UINT8 first = t[MCFG_ALLOCATION_OFFSET + 10];
			UINT8 last = t[MCFG_ALLOCATION_OFFSET + 11];
			app_print("ACPI MCFG base 0x%llx buses %u-%u\n", base, first, last);
			check_ecam_reserved(base + ((UINT64)first << 20), ((UINT64)last - first + 1)
									      << 20);
		}
	}
	return count;
}

void pt_check_acpi(void)
{
	const EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp = pt_config_table(&acpi20_guid);
	const void *rsdp10 = pt_config_table(&acpi10_guid);
	const UINT8 *xsdt, *rsdt;
	UINT32 xsdt_count;

	app_print("ACPI RSDP 2.0 at 0x%llx, 1.0 at 0x%llx\n", (UINT64)(uintptr_t)rsdp,
		  (UINT64)(uintptr_t)rsdp10);
	if (!CHECK(rsdp != NULL))
		return;
	CHECK(mem_cmp(rsdp->Signature, EFI_ACPI_RSDP_SIGNATURE, 8) == 0);
	CHECK(pt_sum(rsdp, EFI_ACPI_RSDP_V1_SIZE) == 0);
	app_print("ACPI RSDP rev %u len %u RSDT 0x%x XSDT 0x%llx\n", rsdp->Revision, rsdp->Length,
		  rsdp->RsdtAddress, rsdp->XsdtAddress);
	if (!CHECK_EQ(rsdp->Revision, EFI_ACPI_RSDP_REVISION_2) ||
	    !CHECK_EQ(rsdp->Length, sizeof(*rsdp)) || !CHECK(pt_sum(rsdp, rsdp->Length) == 0))
		return;
	if (CHECK(rsdp10 != NULL))
		CHECK(mem_cmp(rsdp10, EFI_ACPI_RSDP_SIGNATURE, 8) == 0 &&
		      pt_sum(rsdp10, EFI_ACPI_RSDP_V1_SIZE) == 0);
	xsdt = check_table(rsdp->XsdtAddress, EFI_ACPI_XSDT_SIGNATURE);
	if (!xsdt)
		return;
	xsdt_count = check_root(xsdt, 8);
	app_print("ACPI XSDT %u tables\n", xsdt_count);
	if (rsdp->RsdtAddress && (rsdt = check_table(rsdp->RsdtAddress, EFI_ACPI_RSDT_SIGNATURE)))
		CHECK_EQ(check_root(rsdt, 4), xsdt_count);
}
