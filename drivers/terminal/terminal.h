/* The serial terminal driver: a child of each SerialIo device carrying SimpleTextOut
 * (VT100/ANSI in UTF-8 under the text output front end, terminal_out.c) and SimpleTextIn/InEx
 * (escape sequences decoded to keys, terminal_in.c); the driver binding is terminal_driver.c. */
#ifndef DRIVERS_TERMINAL_H
#define DRIVERS_TERMINAL_H

#include <ember/lib/util.h>
#include <ember/lib/term_keys.h>
#include <ember/lib/vt_out.h>
#include <ember/drivers/text_input.h>
#include <ember/drivers/text_output.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/serial_io.h>

#define TERMINAL_SIGNATURE SIGNATURE_32('t', 'e', 'r', 'm')
#define TERMINAL_MODE_COUNT 3

struct terminal {
	UINT32 signature;
	EFI_HANDLE controller; /* the SerialIo handle */
	EFI_HANDLE handle;     /* the child with the text protocols */
	EFI_SERIAL_IO_PROTOCOL *serial;
	EFI_DEVICE_PATH_PROTOCOL *path; /* parent/Uart(...)/VenUtf8() */
	struct text_output text;	/* SimpleTextOut: text.out */
	struct vt_sink sink;		/* what a call sends, written at its end */
	struct text_input input;
	struct term_keys decoder;
};

/* The text modes every terminal offers: 80x25, 80x50, 100x31. */
extern const UINT32 terminal_modes[TERMINAL_MODE_COUNT][2];

/* Sets up t->text (mode 0, default colours, cursor shown) writing to t->serial. */
void terminal_out_init(struct terminal *t);

/* Starts t->input reading the serial device (polled every few milliseconds). */
EFI_STATUS terminal_in_init(struct terminal *t);

#endif
