/* Ember's own settings variables (NV+BS, EMBER_SETTINGS_GUID), written by the setup
 * screen (apps/setup/settings_*.c) and read by the drivers at their next Start: the
 * console resolution the graphics drivers choose (drivers/gop_front), the serial
 * console's baud rate (the platform's UART). A missing or malformed value means the
 * driver's own default. */
#ifndef EMBER_SETTINGS_H
#define EMBER_SETTINGS_H

#include <efi/types.h>

#define EMBER_SETTINGS_GUID                                                                        \
	EFI_GUID_INIT(0x8f1d2a64, 0x5c3e, 0x4b71, 0x9e, 0x02, 0x7a, 0x6b, 0xd4, 0x13, 0x58, 0xe9)

#define EMBER_SETTINGS_ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

/* struct ember_console_resolution: the GOP mode to set at Start, by its size. */
#define EMBER_CONSOLE_RESOLUTION_VARIABLE u"ConsoleResolution"

struct ember_console_resolution {
	UINT32 width;  /* HorizontalResolution */
	UINT32 height; /* VerticalResolution */
};

/* struct ember_serial_console: the serial console's line speed. */
#define EMBER_SERIAL_CONSOLE_VARIABLE u"SerialConsole"

struct ember_serial_console {
	UINT32 baud; /* one of 9600, 19200, 38400, 57600, 115200 */
};

#endif
