/* PS/2 mouse packet decoding. The first byte: bit 0 left, 1 right, 2 middle, 3 always one,
 * 4 X sign, 5 Y sign, 6 X overflow, 7 Y overflow; then X and Y, the low 8 bits of 9-bit
 * two's complement values whose sign bits the first byte holds. Y grows upwards on the
 * mouse; it is turned over for the screen, whose Y grows downwards. */
#include "ps2_mouse_packet.h"

#define FIRST_ALWAYS_ONE 0x08
#define FIRST_X_SIGN 0x10
#define FIRST_Y_SIGN 0x20
#define FIRST_X_OVERFLOW 0x40
#define FIRST_Y_OVERFLOW 0x80

void ps2_mouse_packet_init(struct ps2_mouse_packet *p)
{
	p->count = 0;
}

static INT32 axis(UINT8 low, bool negative, bool overflow)
{
	if (overflow)
		return 0; /* the count is not the motion: refuse rather than guess */
	return (INT32)low - (negative ? 256 : 0);
}

bool ps2_mouse_packet_feed(struct ps2_mouse_packet *p, UINT8 byte, struct ps2_mouse_motion *motion)
{
	UINT8 first;

	if (p->count == 0 && !(byte & FIRST_ALWAYS_ONE))
		return false;
	p->bytes[p->count++] = byte;
	if (p->count < 3)
		return false;
	p->count = 0;
	first = p->bytes[0];
	motion->dx = axis(p->bytes[1], first & FIRST_X_SIGN, first & FIRST_X_OVERFLOW);
	motion->dy = -axis(p->bytes[2], first & FIRST_Y_SIGN, first & FIRST_Y_OVERFLOW);
	motion->left = first & 0x01;
	motion->right = first & 0x02;
	motion->middle = first & 0x04;
	return true;
}
