/* The PXE client machine identifier (DHCP option 97): SMBIOS's system UUID, found through
 * the SMBIOS 3 or SMBIOS 2 entry point among the configuration tables. */
#define LOG_PREFIX "pxe: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/net/smbios_uuid.h>
#include "pxe.h"

static uint32_t pxe_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The structure table an entry point names; false when the entry point is not one. */
static bool pxe_smbios_table(const uint8_t *ep, bool v3, const uint8_t **table, size_t *len,
			     bool *v2_6)
{
	if (v3) {
		if (mem_cmp(ep, "_SM3_", 5) || ep[6] < 24)
			return false;
		*v2_6 = true;
		*len = pxe_le32(ep + 12);
		*table =
		    (const uint8_t *)(UINTN)(pxe_le32(ep + 16) | (UINT64)pxe_le32(ep + 20) << 32);
		return true;
	}
	if (mem_cmp(ep, "_SM_", 4) || ep[5] < 0x1f)
		return false;
	*v2_6 = ep[6] > 2 || (ep[6] == 2 && ep[7] >= 6);
	*len = (size_t)(ep[0x16] | ep[0x17] << 8);
	*table = (const uint8_t *)(UINTN)pxe_le32(ep + 0x18);
	return true;
}

bool pxe_system_uuid(uint8_t *uuid)
{
	for (int v3 = 1; v3 >= 0; v3--) {
		const EFI_GUID *guid = v3 ? &efi_smbios3_table_guid : &efi_smbios_table_guid;

		for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++) {
			EFI_CONFIGURATION_TABLE *t = &core_st->ConfigurationTable[i];
			const uint8_t *table;
			size_t len;
			bool v2_6;

			if (mem_cmp(&t->VendorGuid, guid, sizeof(*guid)) || !t->VendorTable)
				continue;
			if (pxe_smbios_table(t->VendorTable, v3, &table, &len, &v2_6) && table &&
			    smbios_system_uuid(table, len, v2_6, uuid))
				return true;
		}
	}
	log_debug("no SMBIOS system UUID: option 97 is zero\n");
	return false;
}
