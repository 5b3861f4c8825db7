/* What the OS learns the machine from: QEMU's ACPI tables when it gives them (the table
 * loader's script, etc/table-loader, run by the loader x86-64 shares: platform/common),
 * else the device tree QEMU wrote (`-machine virt,acpi=off`). One or the other, never both,
 * as ArmVirtQemu does: Linux on arm64 takes ACPI only when no tree is given. QEMU's RSDP on
 * Arm is revision 2 with an XSDT (no RSDT); Ember publishes an RSDP and XSDT of its own
 * listing the tables that pass their checks, as on x86-64. */
#define LOG_PREFIX "acpi: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/fdt.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include "../common/acpi_tables.h"
#include "../common/qemu_loader_fw_cfg.h"
#include "aarch64.h"

#define MAX_TABLES 64
#define XSDT_OFFSET 64 /* after the RSDP in the same allocation */

/* Arm's tables hold no FACS (the machine is hardware-reduced): reclaim memory, anywhere;
 * nothing is measured (no TPM). */
static const struct qemu_loader_fw_cfg blobs_anywhere = {EfiACPIReclaimMemory, 0, NULL};

/* An RSDP and XSDT of Ember's listing the tables that passed their checks. */
static EFI_STATUS publish(const struct qemu_loader_blob *qemu_rsdp, const UINT64 *tables,
			  UINTN count, const EFI_ACPI_DESCRIPTION_HEADER *xsdt)
{
	EFI_PHYSICAL_ADDRESS address;
	EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER *rsdp;
	EFI_STATUS status;

	status = mem_allocate_pages(AllocateAnyPages, EfiACPIReclaimMemory,
				    EFI_SIZE_TO_PAGES(XSDT_OFFSET + ACPI_XSDT_SIZE(MAX_TABLES)),
				    &address);
	if (EFI_ERROR(status)) {
		log_debug("allocating the RSDP and XSDT: %r\n", status);
		return status;
	}
	rsdp = (void *)(uintptr_t)address;
	acpi_build_xsdt((UINT8 *)rsdp + XSDT_OFFSET, xsdt, tables, count);
	acpi_build_rsdp(rsdp,
			qemu_rsdp->data + offsetof(EFI_ACPI_ROOT_SYSTEM_DESCRIPTION_POINTER, OemId),
			0, address + XSDT_OFFSET);
	status = config_table_install(&efi_acpi_20_table_guid, rsdp);
	if (EFI_ERROR(status)) {
		log_debug("installing the ACPI 2.0 table: %r\n", status);
		mem_free_pages(address,
			       EFI_SIZE_TO_PAGES(XSDT_OFFSET + ACPI_XSDT_SIZE(MAX_TABLES)));
	}
	return status;
}

static EFI_STATUS acpi_install(void)
{
	static struct qemu_loader loader; /* blobs stay for the OS; the index is small */
	UINT64 tables[MAX_TABLES];
	EFI_ACPI_DESCRIPTION_HEADER xsdt;
	struct qemu_loader_blob *rsdp;
	UINTN count;
	EFI_STATUS status = qemu_loader_fw_cfg_run(&loader, &blobs_anywhere);

	if (EFI_ERROR(status))
		return status;
	rsdp = qemu_loader_blob(&loader, "etc/acpi/rsdp");
	count = rsdp ? acpi_xsdt_tables(&loader, rsdp->data, rsdp->size, tables, MAX_TABLES, &xsdt)
		     : (UINTN)-1;
	if (count == (UINTN)-1) {
		log_error("QEMU's RSDP or XSDT is invalid\n");
		status = EFI_LOAD_ERROR;
	} else {
		status = publish(rsdp, tables, count, &xsdt);
	}
	if (EFI_ERROR(status))
		qemu_loader_fw_cfg_free(&loader);
	return status;
}

/* QEMU's tree, copied into ACPI reclaim memory (where EBBR wants the OS to find it: the
 * copy at the start of RAM is boot-services data, and the OS may overwrite it). */
static EFI_STATUS dt_install(void)
{
	uint64_t base, size;
	EFI_PHYSICAL_ADDRESS copy;
	EFI_STATUS status;

	dt_location(&base, &size);
	if (!size) {
		log_debug("no device tree to give\n");
		return EFI_NOT_FOUND;
	}
	status = mem_allocate_pages(AllocateAnyPages, EfiACPIReclaimMemory, EFI_SIZE_TO_PAGES(size),
				    &copy);
	if (EFI_ERROR(status)) {
		log_debug("allocating %llu bytes for the tree: %r\n", (unsigned long long)size,
			  status);
		return status;
	}
	mem_copy((void *)(uintptr_t)copy, (const void *)(uintptr_t)base, size);
	status = config_table_install(&efi_dtb_table_guid, (void *)(uintptr_t)copy);
	if (EFI_ERROR(status)) {
		log_debug("installing the DTB table: %r\n", status);
		mem_free_pages(copy, EFI_SIZE_TO_PAGES(size));
	} else {
		dt_fixup_install();
	}
	return status;
}

void acpi_or_dt_install(void)
{
	EFI_STATUS status = acpi_install();

	/* A broken script was reported (log_error): the OS gets the tree instead. */
	if (EFI_ERROR(status))
		status = dt_install();
	if (EFI_ERROR(status))
		panic_printf("Ember: no ACPI tables and no device tree for the OS: %r\n", status);
}
