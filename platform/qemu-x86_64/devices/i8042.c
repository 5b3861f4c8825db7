/* Waits on the i8042's status around its port accesses (devices/i8042.h). */
#include "devices/i8042.h"
#include <ember/core/platform.h>
#include "cpu/io.h"

#define WAIT_NS (50 * 1000 * 1000ULL)

/* Waits for the controller's status to have (or lose) bits; false after WAIT_NS. */
static bool wait_status(UINT8 bits, bool set)
{
	UINT64 deadline = plat_monotonic_ns() + WAIT_NS;

	while (((inb(I8042_STATUS) & bits) != 0) != set)
		if (plat_monotonic_ns() > deadline)
			return false;
	return true;
}

bool i8042_write(UINT16 port, UINT8 value)
{
	if (!wait_status(I8042_STATUS_INPUT_FULL, false))
		return false;
	outb(port, value);
	return true;
}

bool i8042_read(UINT8 *value, bool *aux)
{
	UINT8 status;

	if (!wait_status(I8042_STATUS_OUTPUT_FULL, true))
		return false;
	status = inb(I8042_STATUS);
	*value = inb(I8042_DATA);
	if (aux)
		*aux = status & I8042_STATUS_AUX_DATA;
	return true;
}
