/* QEMU's ACPI tables (QEMU.md section 2): the table-loader script says which fw_cfg files to
 * load and how to link them; the blobs go to ACPI NVS below 4 GiB (they hold the FACS, and
 * QEMU's RSDP asks for memory a 32-bit RSDT can point at). QEMU's own RSDP is revision 0
 * with an RSDT, so Ember publishes a revision-2 RSDP with an XSDT of the same tables, under
 * both the ACPI 2.0 and the ACPI 1.0 GUIDs. Called after PCI resources are programmed.
 * Tables of Ember's own (the BGRT) are added later by acpi_add_table: the RSDP's page has
 * room for a longer XSDT and an RSDT of Ember's, rebuilt in place. */
#define LOG_PREFIX "acpi: "
#include "../../common/acpi_tables.h"
#include "../../common/qemu_loader_fw_cfg.h"
#include "pure/acpi_bgrt.h"
#include "tables/acpi.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include "cpu/io.h"
#include "chipset/pci_host.h"
#include "qemu.h"
#include <ember/lib/guids.h>

#define BELOW_4GIB 0xffffffffULL
#define MAX_TABLES 64
#define XSDT_OFFSET 64 /* after the RSDP in the same allocation */
#define RSDT_OFFSET (XSDT_OFFSET + ACPI_XSDT_SIZE(MAX_TABLES))
#define PM1_CNT 4
#define PM1_SCI_EN 1
#define FADT_FACS 36	/* FIRMWARE_CTRL */
#define FADT_X_FACS 132 /* X_FIRMWARE_CTRL */

/* What acpi_add_table needs: the tables listed, the RSDP Ember published. */
static UINT64 tables[MAX_TABLES];
static UINTN table_count;
static EFI_ACPI_DESCRIPTION_HEADER root_like; /* QEMU's RSDT: OEM fields of new tables */
static EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *published;

/* QEMU's blobs hold the FACS, which must stay (NVS), and QEMU's RSDT points with 32 bits;
 * each fw_cfg file is measured as read (qemu_measure_acpi_data). */
static const struct qemu_loader_fw_cfg blobs_below_4gib = {EfiACPIMemoryNVS, BELOW_4GIB,
							   qemu_measure_acpi_data};

/* The RSDP and XSDT, in ACPI reclaim memory below 4 GiB like the tables they point at. */
static EFI_STATUS publish(struct qemu_loader *loader, const UINT64 *tables, UINTN count,
			  UINT64 rsdt_address, const EFI_ACPI_DESCRIPTION_HEADER *rsdt)
{
	struct qemu_loader_blob *qemu_rsdp = qemu_loader_blob(loader, "etc/acpi/rsdp");
	EFI_PHYSICAL_ADDRESS address = BELOW_4GIB;
	UINTN size = RSDT_OFFSET + ACPI_RSDT_SIZE(MAX_TABLES);
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp;
	EFI_STATUS status;

	status = mem_allocate_pages(AllocateMaxAddress, EfiACPIReclaimMemory,
				    EFI_SIZE_TO_PAGES(size), &address);
	if (EFI_ERROR(status)) {
		log_debug("allocating the RSDP and XSDT: %r\n", status);
		return status;
	}
	rsdp = (void *)(uintptr_t)address;
	acpi_build_xsdt((UINT8 *)rsdp + XSDT_OFFSET, rsdt, tables, count);
	acpi_build_rsdp(rsdp,
			qemu_rsdp->data + offsetof(EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER, OemId),
			(UINT32)rsdt_address, address + XSDT_OFFSET);
	status = config_table_install(&efi_acpi_20_table_guid, rsdp);
	if (EFI_ERROR(status)) {
		log_debug("installing the ACPI 2.0 table: %r\n", status);
		return status;
	}
	status = config_table_install(&efi_acpi_table_guid, rsdp);
	if (EFI_ERROR(status))
		log_debug("installing the ACPI 1.0 table: %r\n", status);
	else
		published = rsdp;
	return status;
}

/* The FACS the FADT points at, for the S3 record (chipset/s3_save.c): the OS writes its
 * waking vector there. */
static void remember_facs(const struct qemu_loader *loader, const UINT64 *tables, UINTN count)
{
	EFI_ACPI_DESCRIPTION_HEADER header;

	for (UINTN i = 0; i < count; i++) {
		const UINT8 *fadt = (const UINT8 *)(uintptr_t)tables[i];
		UINT32 facs;
		UINT64 x_facs = 0;

		if (!acpi_table_check(loader, tables[i], &header) ||
		    mem_cmp(&header.Signature, "FACP", 4) || header.Length < FADT_FACS + 4)
			continue;
		mem_copy(&facs, fadt + FADT_FACS, 4);
		if (header.Length >= FADT_X_FACS + 8)
			mem_copy(&x_facs, fadt + FADT_X_FACS, 8);
		if (x_facs && x_facs <= BELOW_4GIB)
			facs = (UINT32)x_facs;
		s3_save_facs(facs);
		return;
	}
	log_debug("no FADT: no FACS for S3 resume\n");
}

/* The OS finds ACPI enabled (SCI_EN), as OVMF leaves it. */
static void enable_sci(void)
{
	UINT16 pm = chipset_pm_base();

	if (pm)
		outw(pm + PM1_CNT, inw(pm + PM1_CNT) | PM1_SCI_EN);
}

EFI_STATUS acpi_install(void)
{
	static struct qemu_loader loader; /* blobs stay for the OS; the index is small */
	struct qemu_loader_blob *rsdp;
	EFI_ACPI_DESCRIPTION_HEADER rsdt;
	UINT64 rsdt_address;
	UINTN count;
	EFI_STATUS status = qemu_loader_fw_cfg_run(&loader, &blobs_below_4gib);

	if (EFI_ERROR(status))
		return status;
	rsdp = qemu_loader_blob(&loader, "etc/acpi/rsdp");
	count = rsdp ? acpi_rsdt_tables(&loader, rsdp->data, rsdp->size, tables, MAX_TABLES,
					&rsdt_address, &rsdt)
		     : (UINTN)-1;
	if (count == (UINTN)-1) {
		log_error("QEMU's RSDP or RSDT is invalid\n");
		qemu_loader_fw_cfg_free(&loader);
		return EFI_NOT_FOUND;
	}
	status = publish(&loader, tables, count, rsdt_address, &rsdt);
	if (EFI_ERROR(status)) {
		qemu_loader_fw_cfg_free(&loader);
		return status;
	}
	table_count = count;
	root_like = rsdt;
	enable_sci();
	remember_facs(&loader, tables, count);
	log_info("%u tables from QEMU, RSDT %llx\n", (UINT32)count, rsdt_address);
	return EFI_SUCCESS;
}

const EFI_ACPI_DESCRIPTION_HEADER *acpi_oem_header(void)
{
	return published ? &root_like : NULL;
}

EFI_STATUS acpi_add_table(UINT64 address)
{
	UINT8 *page = (UINT8 *)published;
	UINT8 oem_id[6];

	if (!published)
		return EFI_NOT_READY;
	if (table_count == MAX_TABLES || address > BELOW_4GIB)
		return table_count == MAX_TABLES ? EFI_OUT_OF_RESOURCES : EFI_INVALID_PARAMETER;
	tables[table_count++] = address;
	/* The OS may read either root table: both list the new one. The RSDP moves to Ember's
	 * RSDT, in its own page (QEMU's RSDT has no room). */
	acpi_build_xsdt(page + XSDT_OFFSET, &root_like, tables, table_count);
	acpi_build_rsdt(page + RSDT_OFFSET, &root_like, tables, table_count);
	mem_copy(oem_id, published->OemId, sizeof(oem_id));
	acpi_build_rsdp(published, oem_id, (UINT32)(uintptr_t)(page + RSDT_OFFSET),
			(uintptr_t)(page + XSDT_OFFSET));
	log_info("table %.4s added at %llx\n", (const char *)(uintptr_t)address, address);
	return EFI_SUCCESS;
}
