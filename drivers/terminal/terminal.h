/* The serial terminal driver: a child of each SerialIo device carrying SimpleTextOut
 * (VT100/ANSI in UTF-8, terminal_out.c) and SimpleTextIn/InEx (escape sequences decoded
 * to keys, terminal_in.c); the driver binding is terminal_driver.c. */
#ifndef DRIVERS_TERMINAL_H
#define DRIVERS_TERMINAL_H

#include <ember/lib/util.h>
#include <ember/lib/term_keys.h>
#include <ember/drivers/text_input.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/serial_io.h>
#include <efi/protocol/simple_text_output.h>

#define TERMINAL_SIGNATURE SIGNATURE_32('t', 'e', 'r', 'm')
#define TERMINAL_MODE_COUNT 3

struct terminal {
	UINT32 signature;
	EFI_HANDLE controller; /* the SerialIo handle */
	EFI_HANDLE handle;     /* the child with the text protocols */
	EFI_SERIAL_IO_PROTOCOL *serial;
	EFI_DEVICE_PATH_PROTOCOL *path; /* parent/Uart(...)/VenUtf8() */
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL out;
	SIMPLE_TEXT_OUTPUT_MODE mode;
	struct text_input input;
	struct term_keys decoder;
};

/* The text modes every terminal offers: 80x25, 80x50, 100x31. */
extern const UINT32 terminal_modes[TERMINAL_MODE_COUNT][2];

/* Fills t->out and t->mode (mode 0, default colours, cursor shown). */
void terminal_out_init(struct terminal *t);
/* Reset of the output: default colours, cursor on, screen cleared. */
EFI_STATUS terminal_out_reset(struct terminal *t);

/* Starts t->input reading the serial device (polled every few milliseconds). */
EFI_STATUS terminal_in_init(struct terminal *t);

#endif
