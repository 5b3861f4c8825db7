/* The console variables (UEFI 2.10, 3.3): ConInDev/ConOutDev/ErrOutDev name every console
 * device there is (volatile); ConIn/ConOut/ErrOut the ones in use, kept in flash, and only
 * rewritten when the set of devices changes. Ember uses every device at once. */
#define LOG_PREFIX "bds: "
#include "bds.h"
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/protocol/simple_text_input.h>
#include <efi/protocol/simple_text_output.h>
#include <ember/lib/guids.h>

/* Every device with the protocol and a device path, as one multi-instance path. */
static EFI_DEVICE_PATH_PROTOCOL *devices_with(const EFI_GUID *protocol)
{
	EFI_HANDLE *handles;
	UINTN count;
	EFI_DEVICE_PATH_PROTOCOL *all = NULL;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, protocol, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count; i++) {
		EFI_DEVICE_PATH_PROTOCOL *path, *bigger;
		if (EFI_ERROR(
			protocol_get(handles[i], &efi_device_path_protocol_guid, (void **)&path)) ||
		    !path)
			continue;
		bigger = dp_append_instance(all, path);
		if (!bigger)
			log_debug("no memory for the console paths\n");
		pool_free(all);
		all = bigger;
	}
	pool_free(handles);
	return all;
}

static void set_if_changed(const CHAR16 *name, UINT32 attributes,
			   const EFI_DEVICE_PATH_PROTOCOL *path)
{
	void *old;
	UINTN old_size, size = dp_size(path);
	EFI_STATUS status;

	if (!EFI_ERROR(variable_read(name, &efi_global_variable_guid, &old, &old_size, NULL))) {
		bool same = old_size == size && mem_cmp(old, path, size) == 0;
		pool_free(old);
		if (same)
			return;
	}
	/* ConInDev and the like are the firmware's to write (read-only for everyone else). */
	status = variable_set_firmware(name, &efi_global_variable_guid, attributes, size, path);
	if (EFI_ERROR(status))
		log_debug("%ls: cannot write it: %r\n", name, status);
}

static void publish(const EFI_GUID *protocol, const CHAR16 *in_use, const CHAR16 *all)
{
	EFI_DEVICE_PATH_PROTOCOL *paths = devices_with(protocol);
	const UINT32 bs_rt = EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS;

	if (!paths)
		return;
	set_if_changed(all, bs_rt, paths);
	set_if_changed(in_use, EFI_VARIABLE_NON_VOLATILE | bs_rt, paths);
	pool_free(paths);
}

void bds_console_variables(void)
{
	publish(&efi_simple_text_input_protocol_guid, u"ConIn", u"ConInDev");
	publish(&efi_simple_text_output_protocol_guid, u"ConOut", u"ConOutDev");
	publish(&efi_simple_text_output_protocol_guid, u"ErrOut", u"ErrOutDev");
}
