/* The Arm generic timer: the counter (CNTVCT_EL0 at CNTFRQ_EL0) is the monotonic clock,
 * and the virtual timer, through a GICv2, the core's tick. Without a GICv2 (a GICv3 is not
 * programmed yet) the tick is polled: plat_idle calls it when one is due. */
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include "aarch64.h"

#define TICK_HZ 1000
#define CNTV_CTL_ENABLE 1u
#define CNTV_CTL_IMASK 2u
#define GICD_CTLR 0x000
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_IPRIORITYR 0x400
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_IAR 0x0c
#define GICC_EOIR 0x10
#define GIC_SPURIOUS 1023
#define IRQ_PRIORITY 0x80
#define NS_PER_S 1000000000ULL

static uint64_t period;	   /* counter ticks between timer interrupts */
static uint64_t next_poll; /* polled mode: the counter value of the next tick */
static bool ticking;

uint64_t plat_monotonic_ns(void)
{
	uint64_t freq = READ_SYSREG(cntfrq_el0), count;

	ISB(); /* no reading the counter ahead of the code before */
	count = READ_SYSREG(cntvct_el0);
	if (!freq)
		return 0;
	/* In two parts, so that nothing overflows: the remainder times 10^9 fits. */
	return count / freq * NS_PER_S + count % freq * NS_PER_S / freq;
}

static void arm_timer(void)
{
	WRITE_SYSREG(cntv_tval_el0, period);
	WRITE_SYSREG(cntv_ctl_el0, CNTV_CTL_ENABLE);
	ISB();
}

void timer_init(void)
{
	uint32_t irq = machine.timer_virq;

	period = READ_SYSREG(cntfrq_el0) / TICK_HZ;
	next_poll = READ_SYSREG(cntvct_el0) + period;
	ticking = true;
	if (!machine.gic_v2)
		return;
	mmio_write8(machine.gicd_base + GICD_IPRIORITYR + irq, IRQ_PRIORITY);
	mmio_write32(machine.gicd_base + GICD_ISENABLER + irq / 32 * 4, 1u << (irq % 32));
	mmio_write32(machine.gicd_base + GICD_CTLR, 1);
	mmio_write32(machine.gicc_base + GICC_PMR, 0xf0);
	mmio_write32(machine.gicc_base + GICC_CTLR, 1);
	arm_timer();
}

void timer_stop(void)
{
	uint32_t irq = machine.timer_virq;

	ticking = false;
	WRITE_SYSREG(cntv_ctl_el0, CNTV_CTL_IMASK);
	if (machine.gic_v2)
		mmio_write32(machine.gicd_base + GICD_ICENABLER + irq / 32 * 4, 1u << (irq % 32));
}

/* From the IRQ vector, interrupts masked. The interrupt ends before the tick runs: the
 * tick may unmask interrupts (a lower TPL's notifications), and the next may come then. */
void timer_irq(void)
{
	uint32_t iar = mmio_read32(machine.gicc_base + GICC_IAR), id = iar & 0x3ff;

	if (id == GIC_SPURIOUS)
		return;
	if (id == machine.timer_virq)
		arm_timer();
	mmio_write32(machine.gicc_base + GICC_EOIR, iar);
	if (id == machine.timer_virq && ticking)
		core_timer_tick();
}

void timer_poll(void)
{
	uint64_t now = READ_SYSREG(cntvct_el0);
	bool was;

	if (!ticking || now < next_poll)
		return;
	next_poll = now + period;
	was = plat_interrupts_disable();
	core_timer_tick();
	if (!was)
		plat_interrupts_disable();
}
