/* Polled 16550 output on COM1, for messages from before the console exists and for
 * fatal reports (exceptions) that must reach the user whatever state the firmware is in. */
#include "cpu/io.h"
#include "qemu.h"

#define COM1 0x3f8
#define UART_THR 0
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define LSR_THRE 0x20

void serial_raw_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80); /* divisor latch */
	outb(COM1 + 0, 0x01);	     /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + UART_LCR, 0x03); /* 8N1 */
	outb(COM1 + UART_FCR, 0xc7);
	outb(COM1 + UART_MCR, 0x0b);
}

void serial_raw_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_raw_write("\r", 1);
		for (int spin = 0; spin < 100000 && !(inb(COM1 + UART_LSR) & LSR_THRE); spin++)
			;
		outb(COM1 + UART_THR, (uint8_t)s[i]);
	}
}
