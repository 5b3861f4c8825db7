/* QEMU's SMBIOS tables (smbios.h; QEMU.md section 2): the structures
 * (etc/smbios/smbios-tables) are copied to runtime data, as UEFI 2.10 section 4.6 asks, and
 * QEMU's anchor (etc/smbios/smbios-anchor) is patched to point at them with fresh
 * checksums. A 3.0 ("_SM3_") entry point is always published under the SMBIOS3 GUID; a 2.x
 * ("_SM_") anchor is published under the SMBIOS GUID as well, and then the structures are
 * below 4 GiB, where its 32-bit pointer reaches. */
#define LOG_PREFIX "smbios: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/smbios.h>
#include "acpi_tables.h"
#include "fw_cfg.h"
#include "smbios.h"

#define BELOW_4GIB 0xffffffffULL
#define SMBIOS3_OFFSET 32 /* the 3.0 entry point after the 2.x one, 16-byte aligned */
#define SMBIOS2_MAX_TABLE 0xffff

union anchor {
	SMBIOS_TABLE_ENTRY_POINT v2;
	SMBIOS_TABLE_3_0_ENTRY_POINT v3;
	UINT8 bytes[sizeof(SMBIOS_TABLE_ENTRY_POINT)];
};

/* Reads QEMU's anchor; false unless it is a well-formed 2.x or 3.0 entry point. */
static bool read_anchor(union anchor *a, bool *is_v3)
{
	uint16_t select;
	uint32_t size;

	if (!fw_cfg_find("etc/smbios/smbios-anchor", &select, &size)) {
		log_debug("no etc/smbios/smbios-anchor\n");
		return false;
	}
	if (size > sizeof(*a)) {
		log_debug("the anchor has %u bytes, more than an entry point\n", size);
		return false;
	}
	mem_set(a, 0, sizeof(*a));
	fw_cfg_read(select, a, size);
	*is_v3 = size == sizeof(a->v3) && !mem_cmp(a->v3.AnchorString, "_SM3_", 5) &&
		 a->v3.EntryPointLength == sizeof(a->v3);
	if (*is_v3 || (size == sizeof(a->v2) && !mem_cmp(a->v2.AnchorString, "_SM_", 4) &&
		       a->v2.EntryPointLength == sizeof(a->v2)))
		return true;
	log_debug("the anchor (%u bytes) is no 2.x or 3.0 entry point\n", size);
	return false;
}

static void fill_v2(SMBIOS_TABLE_ENTRY_POINT *ep, const SMBIOS_TABLE_ENTRY_POINT *qemu,
		    UINT32 table, UINT32 size)
{
	*ep = *qemu;
	ep->TableAddress = table;
	ep->TableLength = (UINT16)size;
	ep->IntermediateChecksum = 0;
	ep->IntermediateChecksum = acpi_checksum(ep->IntermediateAnchorString, 0x0f);
	ep->EntryPointStructureChecksum = 0;
	ep->EntryPointStructureChecksum = acpi_checksum(ep, sizeof(*ep));
}

static void fill_v3(SMBIOS_TABLE_3_0_ENTRY_POINT *ep, const union anchor *qemu, bool is_v3,
		    UINT64 table, UINT32 size)
{
	if (is_v3) {
		*ep = qemu->v3;
	} else {
		mem_set(ep, 0, sizeof(*ep));
		mem_copy(ep->AnchorString, "_SM3_", 5);
		ep->EntryPointLength = sizeof(*ep);
		ep->MajorVersion = qemu->v2.MajorVersion;
		ep->MinorVersion = qemu->v2.MinorVersion;
		ep->EntryPointRevision = 1;
	}
	ep->TableMaximumSize = size;
	ep->TableAddress = table;
	ep->EntryPointStructureChecksum = 0;
	ep->EntryPointStructureChecksum = acpi_checksum(ep, sizeof(*ep));
}

/* Publishes the 3.0 entry point at base + SMBIOS3_OFFSET, and the 2.x one at base unless
 * QEMU's anchor is 3.0; on failure neither stays published. */
static EFI_STATUS publish(UINT8 *base, const union anchor *qemu, bool is_v3, UINT64 table,
			  UINT32 size)
{
	EFI_STATUS status;

	fill_v3((void *)(base + SMBIOS3_OFFSET), qemu, is_v3, table, size);
	status = config_table_install(&efi_smbios3_table_guid, base + SMBIOS3_OFFSET);
	if (EFI_ERROR(status)) {
		log_debug("installing the SMBIOS3 table: %r\n", status);
		return status;
	}
	if (is_v3)
		return EFI_SUCCESS;
	fill_v2((void *)base, &qemu->v2, (UINT32)table, size);
	status = config_table_install(&efi_smbios_table_guid, base);
	if (EFI_ERROR(status)) {
		log_debug("installing the SMBIOS table: %r\n", status);
		config_table_install(&efi_smbios3_table_guid, NULL);
	}
	return status;
}

EFI_STATUS qemu_smbios_install(const struct qemu_smbios_platform *platform)
{
	union anchor qemu;
	bool is_v3;
	uint16_t select;
	uint32_t size;
	EFI_PHYSICAL_ADDRESS address;
	UINT8 *base;
	EFI_STATUS status;

	if (!read_anchor(&qemu, &is_v3))
		return EFI_NOT_FOUND; /* read_anchor said why */
	if (!fw_cfg_find("etc/smbios/smbios-tables", &select, &size) || !size) {
		log_debug("no etc/smbios/smbios-tables, or empty\n");
		return EFI_NOT_FOUND;
	}
	if (!is_v3 && size > SMBIOS2_MAX_TABLE) {
		log_debug("%u bytes of structures do not fit a 2.x entry point\n", size);
		return EFI_UNSUPPORTED;
	}
	/* One allocation: the two entry points, then the structures from offset 64. */
	address = is_v3 ? platform->max_address : BELOW_4GIB;
	status = mem_allocate_pages(address ? AllocateMaxAddress : AllocateAnyPages,
				    EfiRuntimeServicesData, EFI_SIZE_TO_PAGES(64 + (UINT64)size),
				    &address);
	if (EFI_ERROR(status)) {
		log_debug("allocating %u bytes: %r\n", size, status);
		return status;
	}
	base = (UINT8 *)(uintptr_t)address;
	mem_set(base, 0, 64);
	fw_cfg_read(select, base + 64, size);
	status = publish(base, &qemu, is_v3, address + 64, size);
	if (EFI_ERROR(status)) {
		mem_free_pages(address, EFI_SIZE_TO_PAGES(64 + (UINT64)size));
		return status;
	}
	if (platform->measure)
		platform->measure(base + 64, size, &efi_smbios3_table_guid, base + SMBIOS3_OFFSET);
	log_info("%u bytes of structures, %s anchor from QEMU\n", size, is_v3 ? "3.0" : "2.x");
	return EFI_SUCCESS;
}
