/* The SMBIOS entry points (3.0 and 2.x): anchors, checksums, and a walk over every
 * structure to the end-of-table structure. Prints the version and the count. */
#include "pci_test.h"
#include <efi/smbios.h>

static EFI_GUID smbios_guid = SMBIOS_TABLE_GUID;
static EFI_GUID smbios3_guid = SMBIOS3_TABLE_GUID;

/* Counts structures in [table, table + size); 0 if one runs past the end. */
static UINT32 walk(const UINT8 *table, UINT64 size, const char **maker)
{
	UINT64 off = 0;
	UINT32 count = 0;

	while (off + sizeof(SMBIOS_STRUCTURE) <= size) {
		const UINT8 *s = table + off;
		UINT8 type = s[0], length = s[1];
		UINT64 end = off + length;
		if (length < sizeof(SMBIOS_STRUCTURE))
			return 0;
		while (end + 1 < size && (table[end] || table[end + 1]))
			end++;
		if (end + 1 >= size)
			return 0;
		if (type == 1 && length > 4 && s[4] == 1 && !*maker)
			*maker = (const char *)table + off + length; /* Manufacturer: string 1 */
		count++;
		off = end + 2;
		if (type == SMBIOS_TYPE_END_OF_TABLE)
			return count;
	}
	return 0;
}

static void check_v3(const SMBIOS_TABLE_3_0_ENTRY_POINT *ep)
{
	const char *maker = NULL;
	UINT32 n;

	CHECK(mem_cmp(ep->AnchorString, "_SM3_", 5) == 0);
	CHECK_EQ(ep->EntryPointLength, sizeof(*ep));
	CHECK(pt_sum(ep, sizeof(*ep)) == 0);
	n = walk((const UINT8 *)(uintptr_t)ep->TableAddress, ep->TableMaximumSize, &maker);
	CHECK(n > 0);
	app_print("SMBIOS3 %u.%u at 0x%llx: %u structures, manufacturer %s\n", ep->MajorVersion,
		  ep->MinorVersion, ep->TableAddress, n, maker ? maker : "?");
}

static void check_v2(const SMBIOS_TABLE_ENTRY_POINT *ep)
{
	const char *maker = NULL;
	UINT32 n;

	CHECK(mem_cmp(ep->AnchorString, "_SM_", 4) == 0);
	CHECK(mem_cmp(ep->IntermediateAnchorString, "_DMI_", 5) == 0);
	CHECK(pt_sum(ep, ep->EntryPointLength) == 0);
	CHECK(pt_sum(ep->IntermediateAnchorString, 0x0f) == 0);
	n = walk((const UINT8 *)(uintptr_t)ep->TableAddress, ep->TableLength, &maker);
	CHECK(n > 0);
	app_print("SMBIOS %u.%u at 0x%x: %u structures, manufacturer %s\n", ep->MajorVersion,
		  ep->MinorVersion, ep->TableAddress, n, maker ? maker : "?");
}

void pt_check_smbios(void)
{
	const void *v3 = pt_config_table(&smbios3_guid), *v2 = pt_config_table(&smbios_guid);

	CHECK(v3 || v2);
	if (v3)
		check_v3(v3);
	if (v2)
		check_v2(v2);
}
