/* console-test: exercises the consoles and the GOP of the firmware it runs on (ConOut,
 * StdErr, ConIn, SimpleTextInputEx, Graphics Output). Each command prints a transcript
 * that tests/integration/test_console.py compares, and its checks end with the line
 * "console-test: N passed, M failed". */
#ifndef CONSOLE_TEST_H
#define CONSOLE_TEST_H

#include "../lib/app.h"
#include "../lib/check.h"
#include "../lib/devpath.h"
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/graphics_output.h>

/* Writes a UCS-2 literal to a console, returning OutputString's status. */
EFI_STATUS ct_out(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con, const CHAR16 *text);

/* Prints a device path as "type/subtype/length" triples, one per node. */
void ct_print_path(const char *label, EFI_HANDLE handle);

/* Prints every key read from ConIn until none has come for idle_seconds. */
void ct_read_keys(UINT32 idle_seconds);

/* The commands. */
void ct_text(void);	  /* ConOut and StdErr behaviour on a pipe */
void ct_terminal(void);	  /* what a terminal gets: modes, colours, cursor */
void ct_keys(void);	  /* ConIn: every key until input goes quiet */
void ct_keys_ex(void);	  /* SimpleTextInputEx: states, notifications, keys */
void ct_no_input(void);	  /* ReadKeyStroke and WaitForKey with and without input */
void ct_gop(void);	  /* GOP checks, then a test picture in mode 0 */
void ct_gop_screen(void); /* GOP checks, every mode, a picture to screendump; never returns */

/* The GOP checks of ct_gop without the picture; returns the GOP (NULL if none). */
EFI_GRAPHICS_OUTPUT_PROTOCOL *ct_gop_checks(void);
/* The word after `key` on the command line (e.g. "800x600" for "mode 800x600"), copied
 * into buf; false when absent. */
bool ct_option(const char *key, char *buf, size_t size);

#endif
