/* QEMU's SMBIOS tables (fw_cfg etc/smbios/smbios-anchor and etc/smbios/smbios-tables), as
 * both QEMU platforms publish them: the structures copied to runtime data, QEMU's anchor
 * patched to point at them, a 3.0 entry point under SMBIOS3_TABLE_GUID always and a 2.x one
 * under SMBIOS_TABLE_GUID when QEMU's anchor is 2.x (x86-64's default; AArch64's virt gives
 * a 3.0 anchor). */
#ifndef EMBER_SMBIOS_H
#define EMBER_SMBIOS_H

#include <efi/types.h>

/* Where a platform puts the structures, and whether it measures them. */
struct qemu_smbios_platform {
	/* The highest address of the structures when only a 3.0 entry point is published
	 * (0: any); a 2.x entry point's 32-bit pointer always puts them below 4 GiB. */
	UINT64 max_address;
	/* Called with the published structures and the 3.0 entry point (GUID and address, as
	 * the configuration table holds them); NULL: nothing is measured. */
	void (*measure)(const void *structures, UINT32 size, const EFI_GUID *guid,
			void *entry_point);
};

/* Publishes QEMU's tables; EFI_NOT_FOUND when QEMU gives none (the reason is logged at
 * debug level), and on any failure nothing stays installed or allocated. */
EFI_STATUS qemu_smbios_install(const struct qemu_smbios_platform *platform);

#endif
