/* EFI_DISK_INFO_PROTOCOL on a namespace's handle (PI 1.8, volume 5, 12.6), interface NVMe:
 * Identify gives the namespace's Identify data (4096 bytes); NVMe has no INQUIRY, sense data
 * or IDE channel. */
#include "nvme.h"
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

static EFI_STATUS EFIAPI disk_info_inquiry(EFI_DISK_INFO_PROTOCOL *this, VOID *data, UINT32 *size)
{
	return EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI disk_info_identify(EFI_DISK_INFO_PROTOCOL *this, VOID *data, UINT32 *size)
{
	struct nvme_ns *ns;

	if (!this || !size)
		return EFI_INVALID_PARAMETER;
	ns = container_of(this, struct nvme_ns, disk_info);
	if (*size < sizeof(ns->identify)) {
		*size = sizeof(ns->identify);
		return EFI_BUFFER_TOO_SMALL;
	}
	if (!data)
		return EFI_INVALID_PARAMETER;
	mem_copy(data, ns->identify, sizeof(ns->identify));
	*size = sizeof(ns->identify);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI disk_info_sense_data(EFI_DISK_INFO_PROTOCOL *this, VOID *data,
					      UINT32 *size, UINT8 *count)
{
	return EFI_NOT_FOUND;
}

static EFI_STATUS EFIAPI disk_info_which_ide(EFI_DISK_INFO_PROTOCOL *this, UINT32 *channel,
					     UINT32 *device)
{
	return EFI_UNSUPPORTED;
}

void nvme_disk_info_init(struct nvme_ns *ns)
{
	ns->disk_info.Interface = efi_disk_info_nvme_interface_guid;
	ns->disk_info.Inquiry = disk_info_inquiry;
	ns->disk_info.Identify = disk_info_identify;
	ns->disk_info.SenseData = disk_info_sense_data;
	ns->disk_info.WhichIde = disk_info_which_ide;
}
