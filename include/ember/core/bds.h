/* The boot manager (UEFI 2.10, chapter 3): Driver####, SysPrep####, BootNext, BootOrder,
 * default options for removable media, the boot menu, and what to do when nothing boots. */
#ifndef EMBER_BDS_H
#define EMBER_BDS_H

#include <stdbool.h>
#include <stdint.h>
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
	/* The setup screen ("Ember settings", apps/setup), made when it is needed like the
	 * fallback: opened by OsIndications' BOOT_TO_FW_UI, from the boot menu, and when the
	 * fallback returns (the shell's exit). NULL: the platform has none (the menu then
	 * stands in for it). */
	const void *(*setup_make)(UINTN *size);
	/* A boot the platform itself offers (QEMU's -kernel), tried after BOOT_TO_FW_UI and
	 * the boot menu, before BootNext and BootOrder, which follow when it returns. NULL:
	 * none. */
	void (*direct_boot)(void);
};

/* Connects everything, runs driver and boot options; returns only when nothing booted
 * (or every boot option returned). */
void bds_run(const struct bds_platform *platform);

/* How a platform reaches QEMU's fw_cfg files, for bds_fw_cfg_app. */
struct bds_fw_cfg {
	/* The file called name: its selector and size; false when there is none. */
	bool (*find)(const char *name, uint16_t *select, uint32_t *size);
	void (*read)(uint16_t select, void *buffer, uint32_t size);
	/* Tells the user why the program did not run (the serial console). */
	void (*report)(const char *fmt, ...);
};

/* Loads the program handed in as fw_cfg's opt/ember/app, gives it opt/ember/args (or
 * "app.efi") as its command line and starts it under the watchdog. False when there is no
 * such file (or no memory for it); true otherwise, with StartImage's status in *status, or
 * LoadImage's when it did not load (reported). */
bool bds_fw_cfg_app(const struct bds_fw_cfg *fw_cfg, EFI_STATUS *status);

#endif
