/* The CPU's random number instruction as a hardware source of Ember's RNG
 * (include/ember/drivers/rng.h), when the CPU has FEAT_RNG: ID_AA64ISAR0_EL1.RNDR (bits
 * [63:60]) is not 0 (QEMU's `-cpu max`; not cortex-a57, where virtio-rng-pci is the only
 * source and, without one, there is no EFI_RNG_PROTOCOL). RNDR returns 64 bits of a
 * conditioned generator reseeded at an IMPLEMENTATION DEFINED rate; on failure it returns 0
 * and sets PSTATE.NZCV to 0b0100 (Z set), which is transient, so a read is retried a few
 * times before the source reports a device error. */
#include <ember/core/init.h>
#include <ember/drivers/rng.h>
#include "aarch64.h"

#define ISAR0_RNDR_SHIFT 60
#define RNDR_RETRIES 10

/* RNDRRS by its encoding (S3_3_C2_C4_1; assemblers know the name only with +rng): RNDR's
 * sibling that reseeds its generator from the entropy source before each read, the closer
 * to a raw source. Z clear means the value is good. */
static bool rndr64(uint64_t *value)
{
	for (int i = 0; i < RNDR_RETRIES; i++) {
		uint64_t ok;
		__asm__ __volatile__("mrs %0, s3_3_c2_c4_1\n\tcset %1, ne"
				     : "=r"(*value), "=r"(ok)
				     :
				     : "cc");
		if (ok)
			return true;
	}
	return false;
}

static EFI_STATUS rndr_read(struct rng_source *source, UINT8 *buffer, UINTN size)
{
	return rng_read_words(buffer, size, rndr64);
}

static struct rng_source rndr_source = {"RNDR", true, rndr_read};

static EFI_STATUS rng_rndr_publish(void)
{
	if (!(READ_SYSREG(id_aa64isar0_el1) >> ISAR0_RNDR_SHIFT))
		return EFI_SUCCESS; /* no FEAT_RNG: no source */
	return rng_source_add(&rndr_source);
}
EMBER_INIT(INIT_NORMAL, rng_rndr_publish);
