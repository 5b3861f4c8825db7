/* Fuzzes the SMBIOS filter of PCR 1's measurement (platform/common/smbios_filter.c):
 * any bytes are read and written only within the length given, and filtering twice gives
 * what filtering once gave (blanking is idempotent). */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../platform/common/smbios_filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *once = malloc(size ? size : 1), *twice = malloc(size ? size : 1);

	memcpy(once, data, size); /* ASan sees accesses past the exact length */
	if (smbios_filter(once, size)) {
		memcpy(twice, once, size);
		if (!smbios_filter(twice, size) || memcmp(once, twice, size))
			abort();
	}
	free(once);
	free(twice);
	return 0;
}
