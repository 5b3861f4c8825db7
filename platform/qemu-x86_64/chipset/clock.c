/* The monotonic clock: the HPET main counter (10 ns on QEMU, and virtual time under
 * -icount), else the TSC calibrated against PIT channel 2. */
#include <ember/core/platform.h>
#include "cpu/io.h"
#include "qemu.h"

#define HPET_BASE 0xfed00000ULL
#define HPET_CAPABILITIES 0x000
#define HPET_CONFIG 0x010
#define HPET_COUNTER 0x0f0
#define FS_PER_NS 1000000ULL

static uint64_t hpet_period_fs; /* 0: no HPET */
static uint64_t tsc_per_ms;

/* PIT channel 2 gated through port 0x61 counts down 10 ms while the TSC runs. */
static void tsc_calibrate(void)
{
	uint16_t count = 11932; /* 10 ms at 1.193182 MHz */
	uint64_t start, end;

	outb(0x61, (inb(0x61) & ~0x02) | 0x01);
	outb(0x43, 0xb0); /* channel 2, mode 0 */
	outb(0x42, (uint8_t)count);
	outb(0x42, (uint8_t)(count >> 8));
	start = rdtsc();
	while (!(inb(0x61) & 0x20))
		;
	end = rdtsc();
	tsc_per_ms = (end - start) / 10;
	if (!tsc_per_ms)
		tsc_per_ms = 1000000;
}

void clock_init(void)
{
	uint64_t caps = mmio_read64(HPET_BASE + HPET_CAPABILITIES);
	uint64_t period = caps >> 32;

	if (caps != UINT64_MAX && period > 0 && period <= 100000000ULL) {
		hpet_period_fs = period;
		mmio_write64(HPET_BASE + HPET_CONFIG,
			     mmio_read64(HPET_BASE + HPET_CONFIG) | 1); /* enable the counter */
		return;
	}
	tsc_calibrate();
}

uint64_t plat_monotonic_ns(void)
{
	if (hpet_period_fs) {
		uint64_t c = mmio_read64(HPET_BASE + HPET_COUNTER);
		/* c * period / 1e6 without overflowing 64 bits */
		return (c / FS_PER_NS) * hpet_period_fs +
		       (c % FS_PER_NS) * hpet_period_fs / FS_PER_NS;
	}
	uint64_t t = rdtsc();
	return t / tsc_per_ms * 1000000ULL + t % tsc_per_ms * 1000000ULL / tsc_per_ms;
}
