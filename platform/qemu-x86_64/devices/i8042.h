/* The i8042 keyboard controller behind QEMU's PS/2 keyboard and mouse: its ports, the
 * waits on its status, and how the two drivers hand each other the bytes they read (one
 * output buffer carries both devices' bytes; the status says whose each is). */
#ifndef QEMU_I8042_H
#define QEMU_I8042_H

#include <stdbool.h>
#include <efi/types.h>

#define I8042_DATA 0x60
#define I8042_STATUS 0x64  /* read */
#define I8042_COMMAND 0x64 /* write */
#define I8042_STATUS_OUTPUT_FULL 0x01
#define I8042_STATUS_INPUT_FULL 0x02
#define I8042_STATUS_AUX_DATA 0x20

/* Writes value to a port once the controller takes input; false after a timeout. */
bool i8042_write(UINT16 port, UINT8 value);
/* Reads the next byte of the output buffer, waiting for one; false after a timeout. aux
 * (may be NULL) says whether the mouse sent it. */
bool i8042_read(UINT8 *value, bool *aux);

/* A keyboard byte the mouse driver read (ps2_keyboard.c). */
void ps2_keyboard_feed(UINT8 byte);
/* A mouse byte the keyboard driver read (ps2_mouse.c). */
void ps2_mouse_feed(UINT8 byte);

#endif
