/* Ember's firmware volume in the code flash (FW_VOLUME_BASE, layout.h): published with
 * EFI_FIRMWARE_VOLUME2_PROTOCOL once the built-in drivers are connected, then its drivers
 * are dispatched (core/fv). The reset stage checked the volume's header already; each
 * file's checksums are checked before it is read. */
#include <ember/core/core.h>
#include <ember/core/fv.h>
#include "qemu.h"
#include "reset/layout.h"

bool qemu_dispatch_volume(void)
{
	EFI_HANDLE handle = NULL;

	if (EFI_ERROR(fv_publish((const void *)(uintptr_t)FW_VOLUME_BASE, FW_VOLUME_SIZE, &handle)))
		return false;
	return fv_dispatch() > 0;
}
