/* The console splitter: the system table's ConIn, ConOut and StdErr as virtual consoles
 * that write to every text output device and read from every text input device, as
 * devices come and go (drivers/console_splitter). */
#ifndef EMBER_CONSOLE_SPLITTER_H
#define EMBER_CONSOLE_SPLITTER_H

#include <efi/status.h>

#define CONSOLE_SPLITTER_CON_IN 0x1
#define CONSOLE_SPLITTER_CON_OUT 0x2
#define CONSOLE_SPLITTER_STD_ERR 0x4
#define CONSOLE_SPLITTER_ALL 0x7

/* Creates the chosen virtual consoles, puts them in the system table and starts watching
 * for text devices (the ones present already are taken at once). A device that is the
 * system table's own StdErr, when the splitter does not provide StdErr, stays out of
 * ConOut (ember-run's stderr). Call once, after driver_install_builtin. */
EFI_STATUS console_splitter_start(UINT32 which);

#endif
