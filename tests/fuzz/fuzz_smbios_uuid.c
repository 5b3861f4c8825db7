/* Fuzzes the SMBIOS walk for the PXE client identifier (net/smbios_uuid.c): whatever the
 * table, the walk stays inside it and a UUID it returns is set (neither all zeros nor all
 * ones). */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/net/smbios_uuid.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zeros[16];
	uint8_t u[16], *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	if (smbios_system_uuid(copy, size, size & 1, u) && !memcmp(u, zeros, 16))
		abort();
	free(copy);
	return 0;
}
