/* PS/2 mouse packets: the three-byte standard packets a mouse sends with data reporting on
 * (buttons, sign and overflow bits, then X and Y as 9-bit two's complement), decoded into
 * relative motion in screen directions. Pure logic. */
#ifndef EMBER_PS2_MOUSE_PACKET_H
#define EMBER_PS2_MOUSE_PACKET_H

#include <stdbool.h>
#include <efi/types.h>

struct ps2_mouse_packet {
	UINT8 bytes[3];
	UINT8 count; /* bytes of the packet read so far */
};

/* One packet's motion (X to the right, Y down: the screen's directions) and buttons. */
struct ps2_mouse_motion {
	INT32 dx, dy;
	bool left, right, middle;
};

void ps2_mouse_packet_init(struct ps2_mouse_packet *p);

/* Feeds one byte from the mouse; true when it completed a packet, decoded into *motion. A
 * first byte without its always-one bit (bit 3) is dropped, so a stream that lost a byte
 * finds the packets again; an axis whose overflow bit is set reports no motion. */
bool ps2_mouse_packet_feed(struct ps2_mouse_packet *p, UINT8 byte, struct ps2_mouse_motion *motion);

#endif
