/* Fuzzes the MADT walk (platform/qemu-x86_64/pure/madt.c): any bytes are read only within
 * the length given, and the processors listed are distinct and no more than counted. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../platform/qemu-x86_64/pure/madt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct madt_cpu cpus[8];
	struct madt_result r;
	uint8_t *copy = malloc(size ? size : 1);
	size_t stored;

	memcpy(copy, data, size); /* ASan sees reads past the exact length */
	if (madt_cpus(copy, size, cpus, 8, &r)) {
		stored = r.count < 8 ? r.count : 8;
		for (size_t i = 0; i < stored; i++)
			for (size_t j = i + 1; j < stored; j++)
				if (cpus[i].apic_id == cpus[j].apic_id)
					abort();
	} else if (r.count) {
		abort();
	}
	free(copy);
	return 0;
}
