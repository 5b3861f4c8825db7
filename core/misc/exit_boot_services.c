/* ExitBootServices (UEFI 2.10, section 7.4). The caller proves it has the current memory
 * map by its key; then the firmware signals the exit-boot-services group once, stops its
 * timer and devices, and takes the boot services away. */
#include "../services.h"
#include "../mem/memmap.h"
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

bool core_boot_services_exited;
const EFI_GUID core_event_group_exit_boot_services_failed_guid = {
    0xe7559c33, 0xf9ab, 0x4294, {0x8a, 0x05, 0xdb, 0x72, 0x62, 0x02, 0x75, 0xef}};

EFI_STATUS EFIAPI efi_exit_boot_services(EFI_HANDLE image, UINTN map_key)
{
	static bool before_signalled;
	EFI_TPL old;

	if (core_boot_services_exited)
		return EFI_SUCCESS;
	/* The last chance to use boot services; it may change the map, so only once. */
	if (!before_signalled) {
		before_signalled = true;
		event_signal_group(&efi_event_group_before_exit_boot_services_guid);
	}
	if (map_key != memmap_key()) {
		event_signal_group(&core_event_group_exit_boot_services_failed_guid);
		return EFI_INVALID_PARAMETER;
	}
	/* The map is final now: the memory attributes table describes it. */
	runtime_memory_attributes_update();
	old = tpl_raise(TPL_HIGH_LEVEL);
	core_boot_services_exited = true;
	event_signal_group(&efi_event_group_exit_boot_services_guid);
	tpl_restore(old); /* runs the group's notifications */
	plat_interrupts_disable();
	plat_exit_boot_services();

	core_st->ConsoleInHandle = NULL;
	core_st->ConIn = NULL;
	core_st->ConsoleOutHandle = NULL;
	core_st->ConOut = NULL;
	core_st->StandardErrorHandle = NULL;
	core_st->StdErr = NULL;
	core_st->BootServices = NULL;
	table_update_crc(&core_st->Hdr);
	/* A caller that kept a pointer to the table must not find services there. */
	mem_set(core_bs, 0, sizeof(*core_bs));
	return EFI_SUCCESS;
}
