/* The log channel: QEMU's debug console port (0x402), which costs one I/O write per byte
 * and is silently ignored unless QEMU was started with an isa-debugcon device. Fatal
 * reports go to the serial port too (serial_panic_write), where a user will see them. */
#include <ember/core/platform.h>
#include "cpu/io.h"
#include "qemu.h"

#define DEBUGCON_PORT 0x402

void plat_log_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		outb(DEBUGCON_PORT, (uint8_t)s[i]);
}
