/* The boot services table (UEFI 2.10, section 4.4), filled from the EFIAPI entry points
 * of each module. It lives in boot-services memory: it is gone after ExitBootServices. */
#include "services.h"
#include <ember/lib/str.h>

EFI_BOOT_SERVICES *core_bs;

static const EFI_BOOT_SERVICES boot_services_template = {
    .Hdr = {EFI_BOOT_SERVICES_SIGNATURE, EFI_BOOT_SERVICES_REVISION, sizeof(EFI_BOOT_SERVICES), 0,
	    0},
    .RaiseTPL = efi_raise_tpl,
    .RestoreTPL = efi_restore_tpl,
    .AllocatePages = efi_allocate_pages,
    .FreePages = efi_free_pages,
    .GetMemoryMap = efi_get_memory_map,
    .AllocatePool = efi_allocate_pool,
    .FreePool = efi_free_pool,
    .CreateEvent = efi_create_event,
    .SetTimer = efi_set_timer,
    .WaitForEvent = efi_wait_for_event,
    .SignalEvent = efi_signal_event,
    .CloseEvent = efi_close_event,
    .CheckEvent = efi_check_event,
    .InstallProtocolInterface = efi_install_protocol_interface,
    .ReinstallProtocolInterface = efi_reinstall_protocol_interface,
    .UninstallProtocolInterface = efi_uninstall_protocol_interface,
    .HandleProtocol = efi_handle_protocol,
    .RegisterProtocolNotify = efi_register_protocol_notify,
    .LocateHandle = efi_locate_handle,
    .LocateDevicePath = efi_locate_device_path,
    .InstallConfigurationTable = efi_install_configuration_table,
    .LoadImage = efi_load_image,
    .StartImage = efi_start_image,
    .Exit = efi_exit,
    .UnloadImage = efi_unload_image,
    .ExitBootServices = efi_exit_boot_services,
    .GetNextMonotonicCount = efi_get_next_monotonic_count,
    .Stall = efi_stall,
    .SetWatchdogTimer = efi_set_watchdog_timer,
    .ConnectController = efi_connect_controller,
    .DisconnectController = efi_disconnect_controller,
    .OpenProtocol = efi_open_protocol,
    .CloseProtocol = efi_close_protocol,
    .OpenProtocolInformation = efi_open_protocol_information,
    .ProtocolsPerHandle = efi_protocols_per_handle,
    .LocateHandleBuffer = efi_locate_handle_buffer,
    .LocateProtocol = efi_locate_protocol,
    .InstallMultipleProtocolInterfaces = efi_install_multiple_protocol_interfaces,
    .UninstallMultipleProtocolInterfaces = efi_uninstall_multiple_protocol_interfaces,
    .CalculateCrc32 = efi_calculate_crc32,
    .CopyMem = efi_copy_mem,
    .SetMem = efi_set_mem,
    .CreateEventEx = efi_create_event_ex,
};

EFI_STATUS boot_services_init(void)
{
	core_bs = pool_alloc_typed(EfiBootServicesData, sizeof(*core_bs));
	if (!core_bs)
		return EFI_OUT_OF_RESOURCES;
	*core_bs = boot_services_template;
	table_update_crc(&core_bs->Hdr);
	return EFI_SUCCESS;
}
