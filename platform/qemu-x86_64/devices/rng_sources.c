/* The QEMU machine's entropy for Ember's RNG (include/ember/drivers/rng.h): RDRAND when the CPU has
 * it (-cpu max, host passthrough; not TCG's default qemu64), and timing samples always: the
 * time-stamp counter around port reads of the timer chip, whose jitter under TCG comes from
 * the host. Their entropy is unknown (none under -icount), so they only seed Ember's
 * generator; virtio-rng (drivers/virtio) adds a hardware source when the machine has one. */
#include <ember/core/init.h>
#include <ember/drivers/rng.h>
#include "cpu/io.h"
#include "qemu.h"

#define CPUID_1_ECX_RDRAND (1u << 30)
#define RDRAND_RETRIES 10
#define PIT_CHANNEL0 0x40
#define SAMPLES_PER_BYTE 8

static bool rdrand64(uint64_t *value)
{
	for (int i = 0; i < RDRAND_RETRIES; i++) {
		uint8_t ok;
		__asm__ __volatile__("rdrand %0; setc %1" : "=r"(*value), "=qm"(ok));
		if (ok)
			return true;
	}
	return false;
}

static EFI_STATUS rdrand_read(struct rng_source *source, UINT8 *buffer, UINTN size)
{
	return rng_read_words(buffer, size, rdrand64);
}

/* Each byte folds the TSC deltas of a few timer-chip reads together. */
static EFI_STATUS jitter_read(struct rng_source *source, UINT8 *buffer, UINTN size)
{
	uint64_t last = rdtsc();

	for (UINTN i = 0; i < size; i++) {
		UINT8 byte = 0;
		for (int s = 0; s < SAMPLES_PER_BYTE; s++) {
			uint64_t now;
			inb(PIT_CHANNEL0);
			now = rdtsc();
			byte = (UINT8)(((byte << 1) | (byte >> 7)) ^ (UINT8)(now - last));
			last = now;
		}
		buffer[i] = byte;
	}
	return EFI_SUCCESS;
}

static struct rng_source rdrand_source = {"RDRAND", true, rdrand_read};
static struct rng_source jitter_source = {"TSC jitter", false, jitter_read};

static EFI_STATUS rng_sources_publish(void)
{
	uint32_t a, b, c, d;
	EFI_STATUS status = rng_source_add(&jitter_source);

	cpuid(1, 0, &a, &b, &c, &d);
	if (!EFI_ERROR(status) && (c & CPUID_1_ECX_RDRAND))
		status = rng_source_add(&rdrand_source);
	return status;
}
EMBER_INIT(INIT_NORMAL, rng_sources_publish);
