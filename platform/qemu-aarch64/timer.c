/* The Arm generic timer: the counter (CNTVCT_EL0 at CNTFRQ_EL0) is the monotonic clock,
 * and the virtual timer, through the GIC (gic.c), the core's tick. Without a GIC the
 * firmware can program, the tick is polled: plat_idle calls it when one is due. */
#include <ember/core/core.h>
#include <ember/core/platform.h>
#include "aarch64.h"

#define TICK_HZ 1000
#define CNTV_CTL_ENABLE 1u
#define CNTV_CTL_IMASK 2u
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
	if (!gic_init())
		return;
	gic_enable_ppi(irq, IRQ_PRIORITY);
	arm_timer();
}

void timer_stop(void)
{
	uint32_t irq = machine.timer_virq;

	ticking = false;
	WRITE_SYSREG(cntv_ctl_el0, CNTV_CTL_IMASK);
	gic_disable_ppi(irq);
}

/* From the IRQ vector, interrupts masked. The interrupt ends before the tick runs: the
 * tick may unmask interrupts (a lower TPL's notifications), and the next may come then. */
void timer_irq(void)
{
	uint32_t id = gic_acknowledge();

	if (id >= GIC_SPURIOUS_MIN && id <= GIC_SPURIOUS_MIN + 3)
		return;
	if (id == machine.timer_virq)
		arm_timer();
	gic_end(id);
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
