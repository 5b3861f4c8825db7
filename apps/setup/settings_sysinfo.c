/* System information (settings.h): the firmware's name and revision, RAM from the memory
 * map, processors from MP Services, PCI functions and handles with device paths. */
#include "settings.h"
#include "pure/settings_memory.h"
#include <efi/protocol/mp_services.h>
#include <efi/protocol/pci_io.h>
#include <ember/lib/guids.h>

static UINT64 memory_bytes(void)
{
	UINTN size = 0, key, descriptor_size;
	UINT32 version;
	UINT64 total = 0;
	void *map = NULL;
	EFI_STATUS status = app_bs->GetMemoryMap(&size, NULL, &key, &descriptor_size, &version);

	/* The map grows by the pool block that holds it: room for a few more entries. */
	while (status == EFI_BUFFER_TOO_SMALL) {
		app_free(map);
		size += 8 * descriptor_size;
		map = app_alloc(size);
		if (!map)
			return 0;
		status = app_bs->GetMemoryMap(&size, map, &key, &descriptor_size, &version);
	}
	if (!EFI_ERROR(status))
		total = settings_memory_bytes(map, size, descriptor_size);
	app_free(map);
	return total;
}

static UINTN handles_with(const EFI_GUID *guid)
{
	EFI_HANDLE *handles;
	UINTN count;

	if (EFI_ERROR(
		app_bs->LocateHandleBuffer(ByProtocol, (EFI_GUID *)guid, NULL, &count, &handles)))
		return 0;
	app_free(handles);
	return count;
}

EFI_STATUS settings_sysinfo_read(struct settings_sysinfo *info)
{
	EFI_MP_SERVICES_PROTOCOL *mp;
	const CHAR16 *vendor = app_st->FirmwareVendor ? app_st->FirmwareVendor : u"";
	UINTN i;

	for (i = 0; vendor[i] && i + 1 < ARRAY_SIZE(info->vendor); i++)
		info->vendor[i] = vendor[i];
	info->vendor[i] = 0;
	info->revision = app_st->FirmwareRevision;
	info->uefi_revision = app_st->Hdr.Revision;
	info->memory_bytes = memory_bytes();
	info->cpus = info->cpus_enabled = 0;
	if (!EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_mp_services_protocol_guid, NULL,
					      (void **)&mp)) &&
	    EFI_ERROR(mp->GetNumberOfProcessors(mp, &info->cpus, &info->cpus_enabled)))
		info->cpus = info->cpus_enabled = 0;
	info->pci_devices = handles_with(&efi_pci_io_protocol_guid);
	info->device_paths = handles_with(&efi_device_path_protocol_guid);
	return EFI_SUCCESS;
}

void settings_pci_each(void (*fn)(void *ctx, UINTN segment, UINTN bus, UINTN device, UINTN function,
				  UINT16 vendor, UINT16 device_id),
		       void *ctx)
{
	EFI_HANDLE *handles;
	UINTN count, seg, bus, dev, fun;
	EFI_PCI_IO_PROTOCOL *pci;
	UINT16 ids[2];

	if (EFI_ERROR(app_bs->LocateHandleBuffer(ByProtocol, (EFI_GUID *)&efi_pci_io_protocol_guid,
						 NULL, &count, &handles)))
		return;
	for (UINTN i = 0; i < count; i++)
		if (!EFI_ERROR(app_bs->HandleProtocol(
			handles[i], (EFI_GUID *)&efi_pci_io_protocol_guid, (void **)&pci)) &&
		    !EFI_ERROR(pci->GetLocation(pci, &seg, &bus, &dev, &fun)) &&
		    !EFI_ERROR(pci->Pci.Read(pci, EfiPciIoWidthUint16, 0, 2, ids)))
			fn(ctx, seg, bus, dev, fun, ids[0], ids[1]);
	app_free(handles);
}
