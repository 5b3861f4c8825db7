/* The boot manager (UEFI 2.10, chapter 3): Driver####, SysPrep####, BootNext, BootOrder,
 * default options for removable media, the boot menu, and what to do when nothing boots. */
#ifndef EMBER_BDS_H
#define EMBER_BDS_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>

struct bds_platform {
	/* The platform's preference for a boot device (QEMU's bootindex): a rank, lower
	 * first, or -1 when the platform says nothing about it. NULL: no preference. */
	int (*boot_rank)(const EFI_DEVICE_PATH_PROTOCOL *path);
	/* Milliseconds to wait for the boot-menu key at start (0: look once). */
	UINT32 menu_wait_ms;
	/* What runs when no option boots (the shell), a PE image in memory; NULL: none. */
	const void *fallback_image;
	UINTN fallback_size;
	/* Or, when fallback_image is NULL, makes it when it is needed (the QEMU image unpacks
	 * its shell then, not at every boot); NULL when it cannot. */
	const void *(*fallback_make)(UINTN *size);
	const CHAR16 *fallback_name;
};

/* Connects everything, runs driver and boot options; returns only when nothing booted
 * (or every boot option returned). */
void bds_run(const struct bds_platform *platform);

#endif
