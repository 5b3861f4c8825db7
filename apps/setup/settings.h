/* The backends of the setup screen's settings pages (settings_*.c): the console resolution
 * and the serial console's speed (Ember's settings variables, include/ember/core/settings.h,
 * which the drivers read at their next Start), the date and time (GetTime/SetTime), and
 * what the system is (firmware, memory, processors, devices). */
#ifndef APPS_SETUP_SETTINGS_H
#define APPS_SETUP_SETTINGS_H

#include "../lib/app.h"
#include <ember/core/settings.h>

/* ---- Resolution (settings_display.c) ---- */

#define SETTINGS_MODES_MAX 32

struct settings_mode {
	UINT32 width, height;
};

/* The distinct sizes the console's GOP offers (up to max, in its mode order) and the
 * current one; EFI_NOT_FOUND without a GOP. */
EFI_STATUS settings_modes(struct settings_mode *modes, UINTN max, UINTN *count,
			  struct settings_mode *current);
/* The size ConsoleResolution asks for; false when there is no (valid) setting. */
bool settings_resolution_get(struct settings_mode *mode);
/* Sets ConsoleResolution for the next boot (width 0: the drivers' own default). */
EFI_STATUS settings_resolution_set(const struct settings_mode *mode);

/* ---- Serial console (settings_serial.c) ---- */

/* The speeds offered, and how many. */
extern const UINT32 settings_bauds[];
extern const UINTN settings_baud_count;
/* The speed the setting asks for, 0 when none (the UART's default, 115200). */
UINT32 settings_serial_baud(void);
/* Sets it for the next boot (0: the default); EFI_INVALID_PARAMETER for other speeds. */
EFI_STATUS settings_serial_set_baud(UINT32 baud);

/* ---- Date and time (settings_time.c) ---- */

/* The clock now. */
EFI_STATUS settings_time_get(EFI_TIME *time);
/* Sets the clock's date and time, keeping its time zone and daylight fields;
 * EFI_INVALID_PARAMETER for a date that does not exist. */
EFI_STATUS settings_time_set(UINT16 year, UINT8 month, UINT8 day, UINT8 hour, UINT8 minute,
			     UINT8 second);

/* ---- System information (settings_sysinfo.c) ---- */

struct settings_sysinfo {
	CHAR16 vendor[48];	  /* FirmwareVendor (cut to fit) */
	UINT32 revision;	  /* FirmwareRevision */
	UINT32 uefi_revision;	  /* the system table's revision */
	UINT64 memory_bytes;	  /* RAM in the memory map (pure/settings_memory.c) */
	UINTN cpus, cpus_enabled; /* from EFI_MP_SERVICES_PROTOCOL; 0: none published */
	UINTN pci_devices;	  /* handles with PciIo */
	UINTN device_paths;	  /* handles with a device path */
};

EFI_STATUS settings_sysinfo_read(struct settings_sysinfo *info);
/* Calls fn for each PCI function: its location and its vendor and device ids. */
void settings_pci_each(void (*fn)(void *ctx, UINTN segment, UINTN bus, UINTN device, UINTN function,
				  UINT16 vendor, UINT16 device_id),
		       void *ctx);

#endif
