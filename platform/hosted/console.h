/* The hosted console's pieces: text output on a file descriptor (console_out.c), text input
 * from one (console_in.c), and what they share (console.c). */
#ifndef EMBER_HOSTED_CONSOLE_H
#define EMBER_HOSTED_CONSOLE_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/simple_text_input.h>
#include <efi/protocol/simple_text_output.h>

/* VenHw(device GUID)/VenUtf8(): a host file descriptor speaking UTF-8 text. */
#pragma pack(push, 1)
struct console_path {
	VENDOR_DEVICE_PATH device;
	VENDOR_DEVICE_PATH terminal;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

/* Fills a console device path for the device GUID. */
void console_path_init(struct console_path *path, const EFI_GUID *device);

/* Writes all of buf to fd, retrying after signals and waiting out a full pipe;
 * async-signal-safe. False on an error (the rest is dropped). */
bool console_write_all(int fd, const char *buf, size_t len);

/* Creates a text output device writing to fd on a new handle (with its device path). */
EFI_STATUS console_out_create(int fd, const EFI_GUID *device, EFI_HANDLE *handle,
			      EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL **out);
/* Undoes the terminal state every output device changed; async-signal-safe, repeatable. */
void console_out_restore(void);

/* Creates the text input device (SimpleTextIn and SimpleTextInEx) reading fd. */
EFI_STATUS console_in_create(int fd, const EFI_GUID *device, EFI_HANDLE *handle,
			     EFI_SIMPLE_TEXT_INPUT_PROTOCOL **in);
/* Puts the input terminal's mode back; async-signal-safe, repeatable. */
void console_in_restore(void);
/* Raw mode again after console_in_restore (a stopped job continued); async-signal-safe. */
void console_in_resume(void);

#endif
