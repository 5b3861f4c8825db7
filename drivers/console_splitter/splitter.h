/* The console splitter's pieces: the output multiplexer (splitter_out.c, one instance for
 * ConOut and one for StdErr), the input merger (splitter_in.c) and the device watcher and
 * driver binding that feed them (splitter.c). */
#ifndef DRIVERS_CONSOLE_SPLITTER_H
#define DRIVERS_CONSOLE_SPLITTER_H

#include <ember/lib/util.h>
#include <ember/drivers/text_input.h>
#include <ember/drivers/text_output.h>
#include "splitter_modes.h"

struct splitter_out_device {
	EFI_HANDLE handle;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
};

/* A virtual text output: a device of the text output front end whose operations go to
 * each of its devices. */
struct splitter_out {
	EFI_HANDLE handle;
	struct text_output text; /* SimpleTextOut: text.out */
	struct splitter_mode_table table;
	UINT32 device_count;
	struct splitter_out_device devices[SPLITTER_MAX_DEVICES];
};

struct splitter_in_device {
	EFI_HANDLE handle;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in;	  /* NULL when only InEx is there */
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *in_ex; /* NULL when only In is there */
};

/* The virtual text input: keys from every device, one queue, notifications for all. */
struct splitter_in {
	EFI_HANDLE handle;
	struct text_input input;
	UINT32 device_count;
	struct splitter_in_device devices[SPLITTER_MAX_DEVICES];
};

/* Creates a virtual output on a new handle (no devices yet). */
EFI_STATUS splitter_out_create(struct splitter_out **out);
/* Adds a device; with take_over it is set to the current mode, colours and cursor, else
 * (a device the other virtual output has set up) the mode follows the device's. False
 * when full. */
bool splitter_out_add(struct splitter_out *s, EFI_HANDLE handle,
		      EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, bool take_over);
/* Drops the device of that handle, if it is one. */
void splitter_out_remove(struct splitter_out *s, EFI_HANDLE handle);
bool splitter_out_has(const struct splitter_out *s, EFI_HANDLE handle);

/* Creates the virtual input on a new handle (no devices yet). */
EFI_STATUS splitter_in_create(struct splitter_in **in);
/* Adds a device with SimpleTextIn, SimpleTextInEx or both. False when full. */
bool splitter_in_add(struct splitter_in *s, EFI_HANDLE handle, EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in,
		     EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *in_ex);
void splitter_in_remove(struct splitter_in *s, EFI_HANDLE handle);
bool splitter_in_has(const struct splitter_in *s, EFI_HANDLE handle);

#endif
