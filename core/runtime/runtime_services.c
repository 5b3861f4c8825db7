/* The runtime services table (UEFI 2.10, section 4.5 and chapter 8): time, reset and the
 * monotonic counter. Variables arrive with the variable store; until then they report
 * EFI_UNSUPPORTED, and the EFI_RT_PROPERTIES_TABLE says so. */
#include "../services.h"
#include <ember/platform.h>
#include <ember/str.h>

EFI_RUNTIME_SERVICES *core_rt;

static bool time_is_valid(const EFI_TIME *t)
{
	static const UINT8 days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	if (t->Year < 1900 || t->Year > 9999 || t->Month < 1 || t->Month > 12 || t->Day < 1 ||
	    t->Day > days[t->Month - 1] || t->Hour > 23 || t->Minute > 59 || t->Second > 59 ||
	    t->Nanosecond > 999999999)
		return false;
	if (t->Month == 2 && t->Day == 29 &&
	    !((t->Year % 4 == 0 && t->Year % 100 != 0) || t->Year % 400 == 0))
		return false;
	if (t->TimeZone != EFI_UNSPECIFIED_TIMEZONE && (t->TimeZone < -1440 || t->TimeZone > 1440))
		return false;
	return !(t->Daylight & ~(EFI_TIME_ADJUST_DAYLIGHT | EFI_TIME_IN_DAYLIGHT));
}

EFI_STATUS EFIAPI efi_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities)
{
	if (!time)
		return EFI_INVALID_PARAMETER;
	return plat_get_time(time, capabilities);
}

EFI_STATUS EFIAPI efi_set_time(EFI_TIME *time)
{
	if (!time || !time_is_valid(time))
		return EFI_INVALID_PARAMETER;
	return plat_set_time(time);
}

EFI_STATUS core_get_time(EFI_TIME *time)
{
	return plat_get_time(time, NULL);
}

/* No wake-up alarm on Ember's platforms: the spec's answer for that is EFI_UNSUPPORTED. */
EFI_STATUS EFIAPI efi_get_wakeup_time(BOOLEAN *enabled, BOOLEAN *pending, EFI_TIME *time)
{
	if (!enabled || !pending || !time)
		return EFI_INVALID_PARAMETER;
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI efi_set_wakeup_time(BOOLEAN enable, EFI_TIME *time)
{
	if (enable && (!time || !time_is_valid(time)))
		return EFI_INVALID_PARAMETER;
	return EFI_UNSUPPORTED;
}

VOID EFIAPI efi_reset_system(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size,
				    VOID *data)
{
	plat_reset(type, status, data_size, data);
}

EFI_STATUS EFIAPI efi_get_variable(CHAR16 *name, EFI_GUID *guid, UINT32 *attributes,
					  UINTN *data_size, VOID *data)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI efi_get_next_variable_name(UINTN *name_size, CHAR16 *name,
						    EFI_GUID *guid)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI efi_set_variable(CHAR16 *name, EFI_GUID *guid, UINT32 attributes,
					  UINTN data_size, VOID *data)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI efi_query_variable_info(UINT32 attributes, UINT64 *max_storage,
						 UINT64 *remaining, UINT64 *max_size)
{
	return EFI_UNSUPPORTED;
}

/* Capsules: Ember has no capsule update path. */
EFI_STATUS EFIAPI efi_update_capsule(EFI_CAPSULE_HEADER **capsules, UINTN count,
					    EFI_PHYSICAL_ADDRESS scatter_gather)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI efi_query_capsule_capabilities(EFI_CAPSULE_HEADER **capsules,
							UINTN count, UINT64 *max_size,
							EFI_RESET_TYPE *reset_type)
{
	return EFI_UNSUPPORTED;
}

static const EFI_RUNTIME_SERVICES runtime_services_template = {
	.Hdr = {EFI_RUNTIME_SERVICES_SIGNATURE, EFI_RUNTIME_SERVICES_REVISION,
		sizeof(EFI_RUNTIME_SERVICES), 0, 0},
	.GetTime = efi_get_time,
	.SetTime = efi_set_time,
	.GetWakeupTime = efi_get_wakeup_time,
	.SetWakeupTime = efi_set_wakeup_time,
	.SetVirtualAddressMap = efi_set_virtual_address_map,
	.ConvertPointer = efi_convert_pointer,
	.GetVariable = efi_get_variable,
	.GetNextVariableName = efi_get_next_variable_name,
	.SetVariable = efi_set_variable,
	.GetNextHighMonotonicCount = efi_get_next_high_monotonic_count,
	.ResetSystem = efi_reset_system,
	.UpdateCapsule = efi_update_capsule,
	.QueryCapsuleCapabilities = efi_query_capsule_capabilities,
	.QueryVariableInfo = efi_query_variable_info,
};

static EFI_STATUS rt_properties_install(void)
{
	static const EFI_GUID guid = EFI_RT_PROPERTIES_TABLE_GUID;
	EFI_RT_PROPERTIES_TABLE *table =
		pool_alloc_typed(EfiRuntimeServicesData, sizeof(*table));

	if (!table)
		return EFI_OUT_OF_RESOURCES;
	*table = (EFI_RT_PROPERTIES_TABLE){
		.Version = EFI_RT_PROPERTIES_TABLE_VERSION,
		.Length = sizeof(*table),
		.RuntimeServicesSupported =
			EFI_RT_SUPPORTED_GET_TIME | EFI_RT_SUPPORTED_SET_TIME |
			EFI_RT_SUPPORTED_SET_VIRTUAL_ADDRESS_MAP |
			EFI_RT_SUPPORTED_CONVERT_POINTER |
			EFI_RT_SUPPORTED_GET_NEXT_HIGH_MONOTONIC_COUNT |
			EFI_RT_SUPPORTED_RESET_SYSTEM,
	};
	return config_table_install(&guid, table);
}

EFI_STATUS runtime_init(void)
{
	core_rt = pool_alloc_typed(EfiRuntimeServicesData, sizeof(*core_rt));
	if (!core_rt)
		return EFI_OUT_OF_RESOURCES;
	*core_rt = runtime_services_template;
	table_update_crc(&core_rt->Hdr);
	return EFI_SUCCESS;
}

/* Called after the system table exists. */
EFI_STATUS runtime_tables_init(void)
{
	return rt_properties_install();
}
