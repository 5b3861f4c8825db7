/* The timer interrupt: the 8254 PIT on IRQ 0 at 1 kHz drives the core's timer tick. */
#include <ember/core/core.h>
#include "cpu/interrupts.h"
#include "cpu/io.h"
#include "qemu.h"

#define PIT_HZ 1193182
#define TICK_HZ 1000
#define PIT_CH0 0x40
#define PIT_CMD 0x43

static void timer_irq(void)
{
	core_timer_tick();
}

void timer_init(void)
{
	uint16_t divisor = (PIT_HZ + TICK_HZ / 2) / TICK_HZ;

	outb(PIT_CMD, 0x34); /* channel 0, low then high byte, mode 2 (rate generator) */
	outb(PIT_CH0, (uint8_t)divisor);
	outb(PIT_CH0, (uint8_t)(divisor >> 8));
	interrupts_set_irq_handler(0, timer_irq);
	pic_unmask(0);
}

/* Stops the tick for good (ExitBootServices): the OS owns the timers now. */
void timer_stop(void)
{
	pic_mask_all();
	outb(PIT_CMD, 0x30); /* channel 0, mode 0, no reload: one final count, masked anyway */
	outb(PIT_CH0, 0);
	outb(PIT_CH0, 0);
}
