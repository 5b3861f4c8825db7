/* InstallMultipleProtocolInterfaces and UninstallMultipleProtocolInterfaces: all or nothing. */
#include <stdarg.h>
#include "handle.h"
#include "../services.h"
#include <ember/core/devpath.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

/* A device path already on some handle must not be installed a second time. */
static bool device_path_taken(const EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *rest = (EFI_DEVICE_PATH_PROTOCOL *)path;
	EFI_HANDLE device;

	return path &&
	       !EFI_ERROR(
		   handle_locate_device_path(&efi_device_path_protocol_guid, &rest, &device)) &&
	       dp_is_end(rest);
}

EFI_STATUS protocol_install_pairs(EFI_HANDLE *handle, const struct protocol_pair *pairs, UINTN n)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	EFI_HANDLE h = *handle;
	EFI_STATUS status = EFI_SUCCESS;
	UINTN installed = 0;

	for (UINTN i = 0; i < n; i++)
		if (guid_eq(pairs[i].guid, &efi_device_path_protocol_guid) &&
		    device_path_taken(pairs[i].interface))
			status = EFI_ALREADY_STARTED;
	while (!EFI_ERROR(status) && installed < n) {
		status = protocol_install(&h, pairs[installed].guid, pairs[installed].interface);
		if (!EFI_ERROR(status))
			installed++;
	}
	if (EFI_ERROR(status)) {
		/* Take back what went in; the handle disappears with its last protocol. */
		while (installed-- > 0)
			protocol_uninstall(h, pairs[installed].guid, pairs[installed].interface);
	} else {
		*handle = h;
	}
	tpl_restore(old);
	return status;
}

EFI_STATUS protocol_uninstall_pairs(EFI_HANDLE handle, const struct protocol_pair *pairs, UINTN n)
{
	EFI_TPL old = tpl_raise(PROTOCOL_LOCK_TPL);
	EFI_STATUS status = EFI_SUCCESS;
	UINTN i;

	for (i = 0; i < n; i++) {
		status = protocol_uninstall(handle, pairs[i].guid, pairs[i].interface);
		if (EFI_ERROR(status))
			break;
	}
	if (EFI_ERROR(status)) {
		while (i-- > 0)
			protocol_install(&handle, pairs[i].guid, pairs[i].interface);
		status = EFI_INVALID_PARAMETER;
	}
	tpl_restore(old);
	return status;
}

EFI_STATUS protocol_install_multiple(EFI_HANDLE *handle, ...)
{
	struct protocol_pair pairs[MAX_PAIRS];
	UINTN n;
	va_list ap;
	bool ok;

	va_start(ap, handle);
	ok = COLLECT_PAIRS(ap, va_arg, pairs, n);
	va_end(ap);
	return ok ? protocol_install_pairs(handle, pairs, n) : EFI_INVALID_PARAMETER;
}

EFI_STATUS protocol_uninstall_multiple(EFI_HANDLE handle, ...)
{
	struct protocol_pair pairs[MAX_PAIRS];
	UINTN n;
	va_list ap;
	bool ok;

	va_start(ap, handle);
	ok = COLLECT_PAIRS(ap, va_arg, pairs, n);
	va_end(ap);
	return ok ? protocol_uninstall_pairs(handle, pairs, n) : EFI_INVALID_PARAMETER;
}

/* ---- Boot services entry points ---- */

EFI_STATUS EFIAPI efi_install_multiple_protocol_interfaces(EFI_HANDLE *handle, ...)
{
	struct protocol_pair pairs[MAX_PAIRS];
	UINTN n;
	efi_va_list ap;
	bool ok;

	if (!handle)
		return EFI_INVALID_PARAMETER;
	efi_va_start(ap, handle);
	ok = COLLECT_PAIRS(ap, efi_va_arg, pairs, n);
	efi_va_end(ap);
	if (!ok || (*handle && !handle_lookup(*handle)))
		return EFI_INVALID_PARAMETER;
	return protocol_install_pairs(handle, pairs, n);
}

EFI_STATUS EFIAPI efi_uninstall_multiple_protocol_interfaces(EFI_HANDLE handle, ...)
{
	struct protocol_pair pairs[MAX_PAIRS];
	UINTN n;
	efi_va_list ap;
	bool ok;

	efi_va_start(ap, handle);
	ok = COLLECT_PAIRS(ap, efi_va_arg, pairs, n);
	efi_va_end(ap);
	if (!ok || !handle_lookup(handle))
		return EFI_INVALID_PARAMETER;
	return protocol_uninstall_pairs(handle, pairs, n);
}
