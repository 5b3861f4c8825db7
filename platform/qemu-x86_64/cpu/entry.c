/* The core's entry from the reset code (reset/reset.S): 64-bit mode, identity-mapped,
 * a small stack in low memory, the core copied to RAM with its BSS cleared. */
#include <ember/lib/format.h>
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include "cpu/io.h"
#include "qemu.h"

__attribute__((section(".text.entry"), used)) void qemu_entry(void)
{
	serial_raw_init();
	qemu_main();
	qemu_halt();
}

_Noreturn void qemu_halt(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

static void panic_sink(void *ctx, const char *s, size_t n)
{
	serial_raw_write(s, n);
	plat_log_write(s, n);
}

void panic_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_v(panic_sink, NULL, fmt, ap);
	va_end(ap);
}
