/* The runtime services table (UEFI 2.10, section 4.5 and chapter 8): time, reset, the
 * monotonic counter and variables. Variables work once the platform has started them on
 * its flash (variables_start); until then they report EFI_UNSUPPORTED, and the
 * EFI_RT_PROPERTIES_TABLE says so. */
#include "../services.h"
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <ember/core/varstore.h>
#include <ember/lib/guids.h>

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

/* The wake-up alarm is the platform's (EFI_UNSUPPORTED where it has none, as on
 * ember-run); the argument checks of 8.3 are here. */
EFI_STATUS EFIAPI efi_get_wakeup_time(BOOLEAN *enabled, BOOLEAN *pending, EFI_TIME *time)
{
	if (!enabled || !pending || !time)
		return EFI_INVALID_PARAMETER;
	return plat_get_wakeup_time(enabled, pending, time);
}

EFI_STATUS EFIAPI efi_set_wakeup_time(BOOLEAN enable, EFI_TIME *time)
{
	if (enable && (!time || !time_is_valid(time)))
		return EFI_INVALID_PARAMETER;
	/* Disabling ignores the time, which may be NULL. */
	return plat_set_wakeup_time(enable, enable ? time : NULL);
}

/* A switch rather than a table of pointers: runtime code keeps no absolute addresses. */
static const char *reset_type_name(EFI_RESET_TYPE type)
{
	switch (type) {
	case EfiResetCold:
		return "EfiResetCold";
	case EfiResetWarm:
		return "EfiResetWarm";
	case EfiResetShutdown:
		return "EfiResetShutdown";
	case EfiResetPlatformSpecific:
		return "EfiResetPlatformSpecific";
	}
	return "an unknown type";
}

VOID EFIAPI efi_reset_system(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, VOID *data)
{
	/* Says who reset the machine: an OS's reboot path shows here (tests read it). The
	 * status goes out as a number: %r looks its name up in a table of pointers, which
	 * SetVirtualAddressMap does not convert. */
	log_info("reset: ResetSystem(%s) at %s, status 0x%llx\n", reset_type_name(type),
		 core_boot_services_exited ? "runtime" : "boot time", (unsigned long long)status);
	reset_notify_run(type, status, data_size, data);
	plat_reset(type, status, data_size, data);
}

/* ---- Variables (8.2): the store and its rules are in varstore/; this is the firmware's
 * instance and its entry points. ---- */

#define RT_SUPPORTED_VARIABLES                                                                     \
	(EFI_RT_SUPPORTED_GET_VARIABLE | EFI_RT_SUPPORTED_GET_NEXT_VARIABLE_NAME |                 \
	 EFI_RT_SUPPORTED_SET_VARIABLE | EFI_RT_SUPPORTED_QUERY_VARIABLE_INFO)

static EFI_RT_PROPERTIES_TABLE *rt_properties;
static struct var_service variables;
static bool variables_ready;
static void *variables_mem;
static EFI_EVENT variables_event;
static EFI_HANDLE variables_arch_handle;

/* Before ExitBootServices a variable service runs at TPL_NOTIFY, as the core guards its
 * other state; afterwards the OS calls one service at a time and there are no TPLs. */
static EFI_TPL variables_enter(void)
{
	variables.at_runtime = core_boot_services_exited;
	return core_boot_services_exited ? TPL_HIGH_LEVEL : tpl_raise(TPL_NOTIFY);
}

static void variables_leave(EFI_TPL old)
{
	if (!core_boot_services_exited)
		tpl_restore(old);
}

EFI_STATUS EFIAPI efi_get_variable(CHAR16 *name, EFI_GUID *guid, UINT32 *attributes,
				   UINTN *data_size, VOID *data)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (!variables_ready)
		return EFI_UNSUPPORTED;
	old = variables_enter();
	status = var_get(&variables, name, guid, attributes, data_size, data);
	variables_leave(old);
	return status;
}

EFI_STATUS EFIAPI efi_get_next_variable_name(UINTN *name_size, CHAR16 *name, EFI_GUID *guid)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (!variables_ready)
		return EFI_UNSUPPORTED;
	old = variables_enter();
	status = var_get_next(&variables, name_size, name, guid);
	variables_leave(old);
	return status;
}

EFI_STATUS EFIAPI efi_set_variable(CHAR16 *name, EFI_GUID *guid, UINT32 attributes, UINTN data_size,
				   VOID *data)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (!variables_ready)
		return EFI_UNSUPPORTED;
	old = variables_enter();
	status = var_set(&variables, name, guid, attributes, data_size, data);
	variables_leave(old);
	return status;
}

EFI_STATUS variable_set_firmware(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
				 UINTN size, const void *data)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (!variables_ready)
		return EFI_UNSUPPORTED;
	old = variables_enter();
	status = var_set_firmware(&variables, name, guid, attributes, size, data);
	variables_leave(old);
	return status;
}

EFI_STATUS variable_set_owner(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
			      UINTN size, const void *data)
{
	EFI_STATUS status;
	EFI_TIME now;
	EFI_TPL old;

	if (!variables_ready)
		return EFI_UNSUPPORTED;
	/* Stamped now, as ember-varstore's enroll does: a later signed update must be newer. */
	status = core_get_time(&now);
	if (EFI_ERROR(status))
		return status;
	now.Nanosecond = 0;
	now.TimeZone = 0;
	now.Daylight = 0;
	old = variables_enter();
	status = var_set_firmware_at(&variables, name, guid, attributes, size, data, &now);
	variables_leave(old);
	return status;
}

EFI_STATUS EFIAPI efi_query_variable_info(UINT32 attributes, UINT64 *max_storage, UINT64 *remaining,
					  UINT64 *max_size)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (!variables_ready)
		return EFI_UNSUPPORTED;
	old = variables_enter();
	status = var_query(&variables, attributes, max_storage, remaining, max_size);
	variables_leave(old);
	return status;
}

static void variables_convert_one(void **pointer, void *ctx)
{
	efi_convert_pointer(0, pointer);
}

static void EFIAPI variables_virtual_address_change(EFI_EVENT event, void *ctx)
{
	var_service_convert(&variables, variables_convert_one, NULL);
}

/* What the first mount found: the report of later mounts (after compaction) is new. */
static struct vstore_report variables_mounted;

static void variables_report(const struct vstore_report *r)
{
	char text[400];

	variables_mounted = *r;
	if (vstore_report_text(r, text, sizeof(text)))
		log_warn("variables: %s\n", text);
	if (r->torn)
		log_debug("variables: %u interrupted write(s) ignored\n", r->torn);
}

const struct vstore_report *variables_mount_report(void)
{
	return variables_ready ? &variables_mounted : NULL;
}

static void variables_stop(void)
{
	variables_ready = false;
	if (rt_properties)
		rt_properties->RuntimeServicesSupported &= ~RT_SUPPORTED_VARIABLES;
	if (variables_event)
		event_close(variables_event);
	pool_free(variables_mem);
	variables_event = NULL;
	variables_mem = NULL;
}

EFI_STATUS variables_start(struct flash_device *nv)
{
	UINTN size = var_service_mem_size(nv->size);
	EFI_STATUS status;

	variables_stop();
	variables_mem = pool_alloc_typed(EfiRuntimeServicesData, size);
	if (!variables_mem)
		return EFI_OUT_OF_RESOURCES;
	status = var_service_init(&variables, nv, variables_mem, size, 0);
	if (!EFI_ERROR(status)) {
		var_service_set_crypto(&variables, pkcs7_verify, hash_buffer);
		variables_report(&variables.nv.report);
		status = var_globals_install(&variables);
	}
	if (!EFI_ERROR(status))
		status =
		    event_create(EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE, TPL_NOTIFY,
				 variables_virtual_address_change, NULL, NULL, &variables_event);
	if (EFI_ERROR(status)) {
		variables_stop();
		return status;
	}
	variables_ready = true;
	/* PI's architectural protocols saying that the variable services are up (PI 1.7,
	 * volume 2, 12.8 and 12.9): drivers that need variables wait for them with a notify. */
	if (!variables_arch_handle)
		protocol_install_multiple(&variables_arch_handle, &efi_variable_arch_protocol_guid,
					  NULL, &efi_variable_write_arch_protocol_guid, NULL, NULL);
	if (rt_properties)
		rt_properties->RuntimeServicesSupported |= RT_SUPPORTED_VARIABLES;
	return EFI_SUCCESS;
}

/* Capsules: Ember has no capsule update path. */
EFI_STATUS EFIAPI efi_update_capsule(EFI_CAPSULE_HEADER **capsules, UINTN count,
				     EFI_PHYSICAL_ADDRESS scatter_gather)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS EFIAPI efi_query_capsule_capabilities(EFI_CAPSULE_HEADER **capsules, UINTN count,
						 UINT64 *max_size, EFI_RESET_TYPE *reset_type)
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
	EFI_RT_PROPERTIES_TABLE *table = pool_alloc_typed(EfiRuntimeServicesData, sizeof(*table));

	if (!table)
		return EFI_OUT_OF_RESOURCES;
	rt_properties = table;
	*table = (EFI_RT_PROPERTIES_TABLE){
	    .Version = EFI_RT_PROPERTIES_TABLE_VERSION,
	    .Length = sizeof(*table),
	    .RuntimeServicesSupported =
		EFI_RT_SUPPORTED_GET_TIME | EFI_RT_SUPPORTED_SET_TIME |
		EFI_RT_SUPPORTED_SET_VIRTUAL_ADDRESS_MAP | EFI_RT_SUPPORTED_CONVERT_POINTER |
		EFI_RT_SUPPORTED_GET_NEXT_HIGH_MONOTONIC_COUNT | EFI_RT_SUPPORTED_RESET_SYSTEM |
		(plat_has_wakeup_alarm()
		     ? EFI_RT_SUPPORTED_GET_WAKEUP_TIME | EFI_RT_SUPPORTED_SET_WAKEUP_TIME
		     : 0) |
		(variables_ready ? RT_SUPPORTED_VARIABLES : 0),
	};
	return config_table_install(&efi_rt_properties_table_guid, table);
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
	EFI_STATUS status = rt_properties_install();

	return EFI_ERROR(status) ? status : memory_attributes_install();
}
