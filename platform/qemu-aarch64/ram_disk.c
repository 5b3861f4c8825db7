/* A disk image handed in through fw_cfg as "opt/ember/disk"
 * (-fw_cfg name=opt/ember/disk,file=x.img) becomes a RAM disk (EFI_RAM_DISK_PROTOCOL), on
 * which the partition and FAT drivers bind and the boot manager finds removable media: the
 * tests' disks until PCIe (virtio-blk) is ported to AArch64. Changes are lost at reset. */
#define LOG_PREFIX "ram disk: "
#include <efi/protocol/ram_disk.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include "aarch64.h"

void ram_disk_from_fw_cfg(void)
{
	EFI_RAM_DISK_PROTOCOL *ram_disk;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_PHYSICAL_ADDRESS base;
	EFI_GUID type = efi_virtual_disk_guid;
	uint16_t select;
	uint32_t size;
	EFI_STATUS status;

	if (!fw_cfg_find("opt/ember/disk", &select, &size))
		return;
	if (EFI_ERROR(protocol_locate(&efi_ram_disk_protocol_guid, (void **)&ram_disk)) ||
	    EFI_ERROR(mem_allocate_pages(AllocateAnyPages, EfiBootServicesData,
					 (size + 4095) / 4096, &base))) {
		panic_printf("Ember: no room for opt/ember/disk (%u bytes)\n", size);
		return;
	}
	fw_cfg_read(select, (void *)(uintptr_t)base, size);
	status = ram_disk->Register(base, size, &type, NULL, &path);
	if (EFI_ERROR(status)) {
		panic_printf("Ember: opt/ember/disk: %r\n", status);
		mem_free_pages(base, (size + 4095) / 4096);
		return;
	}
	pool_free(path);
}
