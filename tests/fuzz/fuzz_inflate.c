/* Fuzzes inflate_raw (lib/inflate.c), which unpacks the QEMU core at reset: any bytes, into
 * an output buffer whose size the first two input bytes choose. It must never read or
 * write outside its buffers, and what it reports produced must fit. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include <ember/lib/inflate.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t room, produced = 0;
	uint8_t *in, *out;

	if (size < 2)
		return 0;
	room = (size_t)data[0] << 8 | data[1];
	data += 2;
	size -= 2;
	/* Exact-size copies, so that a read or write past either end is caught. */
	in = malloc(size ? size : 1);
	out = malloc(room ? room : 1);
	if (!in || !out)
		abort();
	for (size_t i = 0; i < size; i++)
		in[i] = data[i];
	if (inflate_raw(in, size, out, room, &produced) && produced > room)
		abort();
	free(out);
	free(in);
	return 0;
}
