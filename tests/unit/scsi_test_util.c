/* What the tests of the SCSI drivers share (scsi_test_util.h). */
#include "scsi_test_util.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>

EFI_HANDLE scsi_test_handle(const CHAR16 *text)
{
	EFI_DEVICE_PATH_PROTOCOL *path = dp_from_text(text), *rest = path;
	EFI_HANDLE handle = NULL;

	if (!path)
		return NULL;
	if (EFI_ERROR(handle_locate_device_path(&efi_device_path_protocol_guid, &rest, &handle)) ||
	    !dp_is_end(rest))
		handle = NULL;
	pool_free(path);
	return handle;
}

void *scsi_test_protocol(const CHAR16 *text, const EFI_GUID *protocol)
{
	EFI_HANDLE handle = scsi_test_handle(text);
	void *interface = NULL;

	if (handle)
		protocol_get(handle, protocol, &interface);
	return interface;
}

bool scsi_test_holds(const UINT8 *buffer, UINT8 seed, UINT64 offset, UINTN bytes)
{
	for (UINTN i = 0; i < bytes; i++)
		if (buffer[i] != fake_scsi_byte(seed, offset + i))
			return false;
	return true;
}
