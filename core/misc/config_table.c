/* InstallConfigurationTable (UEFI 2.10, section 7.5): the system table's list of GUID ->
 * table pointers. The array lives in runtime memory, since the OS reads it later. */
#include "../services.h"
#include <ember/lib/str.h>

#define GROWTH 8

static UINTN capacity;

static EFI_STATUS table_add(const EFI_GUID *guid, void *table)
{
	EFI_CONFIGURATION_TABLE *array = core_st->ConfigurationTable;
	UINTN n = core_st->NumberOfTableEntries;

	if (n == capacity) {
		EFI_CONFIGURATION_TABLE *bigger =
		    pool_alloc_typed(EfiRuntimeServicesData, (capacity + GROWTH) * sizeof(*bigger));
		if (!bigger)
			return EFI_OUT_OF_RESOURCES;
		mem_copy(bigger, array, n * sizeof(*bigger));
		core_st->ConfigurationTable = bigger;
		capacity += GROWTH;
		pool_free(array);
		array = bigger;
	}
	array[n].VendorGuid = *guid;
	array[n].VendorTable = table;
	core_st->NumberOfTableEntries = n + 1;
	return EFI_SUCCESS;
}

EFI_STATUS config_table_install(const EFI_GUID *guid, void *table)
{
	EFI_CONFIGURATION_TABLE *array = core_st->ConfigurationTable;
	UINTN n = core_st->NumberOfTableEntries, i;
	EFI_STATUS status = EFI_SUCCESS;

	for (i = 0; i < n; i++)
		if (guid_eq(&array[i].VendorGuid, guid))
			break;
	if (i < n && table) {
		array[i].VendorTable = table;
	} else if (i < n) {
		mem_copy(&array[i], &array[i + 1], (n - i - 1) * sizeof(array[0]));
		core_st->NumberOfTableEntries = n - 1;
	} else if (table) {
		status = table_add(guid, table);
	} else {
		return EFI_NOT_FOUND;
	}
	if (EFI_ERROR(status))
		return status;
	table_update_crc(&core_st->Hdr);
	/* Whoever waits for this table hears of it through the event group of its GUID. */
	event_signal_group(guid);
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI efi_install_configuration_table(EFI_GUID *guid, VOID *table)
{
	if (!guid)
		return EFI_INVALID_PARAMETER;
	return config_table_install(guid, table);
}
