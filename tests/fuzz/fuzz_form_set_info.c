/* Fuzzes the setup screen's reader of other drivers' form sets
 * (apps/setup/pure/form_set_info.c): any bytes as an exported package list. */
#include "fuzz.h"

#include <stdlib.h>
#include "../../apps/setup/pure/form_set_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct form_set_info info;

	if (form_set_info(data, size, &info) && size < 20 + 4 + 22)
		abort(); /* a list header, a package header and a form set at least */
	return 0;
}
