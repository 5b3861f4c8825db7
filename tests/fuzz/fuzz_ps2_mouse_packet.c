/* Fuzzes the PS/2 mouse packet decoder (platform/qemu-x86_64/pure/ps2_mouse_packet.c): any
 * byte stream gives at most one motion per three bytes, each axis within the 9-bit range
 * a packet can carry. */
#include "fuzz.h"
#include <stdlib.h>

#include "../../platform/qemu-x86_64/pure/ps2_mouse_packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ps2_mouse_packet p;
	size_t packets = 0;

	ps2_mouse_packet_init(&p);
	for (size_t i = 0; i < size; i++) {
		struct ps2_mouse_motion m;

		if (!ps2_mouse_packet_feed(&p, data[i], &m))
			continue;
		packets++;
		if (m.dx < -256 || m.dx > 255 || m.dy < -255 || m.dy > 256 || packets * 3 > i + 1)
			abort();
	}
	return 0;
}
