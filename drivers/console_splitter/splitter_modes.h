/* The console splitter's text modes: those every output device can show (pure logic). */
#ifndef DRIVERS_CONSOLE_SPLITTER_MODES_H
#define DRIVERS_CONSOLE_SPLITTER_MODES_H

#include <stdbool.h>
#include <efi/types.h>

#define SPLITTER_MAX_MODES 16
#define SPLITTER_MAX_DEVICES 8

/* One text mode of a device: its size, and whether QueryMode accepts it. */
struct text_size {
	UINT32 cols, rows;
	bool valid;
};

/* A device's modes, by mode number. */
struct device_modes {
	UINT32 count;
	struct text_size mode[SPLITTER_MAX_MODES];
};

/* The splitter's modes and, for each device, the device mode that shows each of them. */
struct splitter_mode_table {
	UINT32 count;
	struct text_size mode[SPLITTER_MAX_MODES];
	UINT32 map[SPLITTER_MAX_DEVICES][SPLITTER_MAX_MODES];
};

/* Builds the table for device_count devices (UEFI 2.10, 12.4: mode 0 is 80x25, always;
 * mode 1 is 80x50, listed but unusable unless every device has it; then every other size
 * all devices share, in the first device's order). Without devices, 80x25 and 80x50. */
void splitter_modes_build(struct splitter_mode_table *table, const struct device_modes *devices,
			  UINT32 device_count);

/* The table's usable mode of that size, or -1. */
INT32 splitter_modes_find(const struct splitter_mode_table *table, UINT32 cols, UINT32 rows);

#endif
