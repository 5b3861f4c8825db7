/* QEMU's SMBIOS tables on virt (a 3.0 anchor: etc/smbios/smbios-anchor), published by the
 * code x86-64 shares (platform/common/smbios.c) under SMBIOS3_TABLE_GUID. The structures
 * may be anywhere in RAM (a 3.0 entry point's address is 64-bit); nothing is measured (no
 * TPM on this platform). */
#include <ember/core/init.h>
#include "../common/smbios.h"

static EFI_STATUS smbios_start(void)
{
	static const struct qemu_smbios_platform anywhere = {0, NULL};
	EFI_STATUS status = qemu_smbios_install(&anywhere);

	/* No tables from QEMU is no error of the firmware's (it said so at debug level). */
	return status == EFI_NOT_FOUND ? EFI_SUCCESS : status;
}
EMBER_INIT(INIT_NORMAL, smbios_start);
