/* Fuzzes load_option_parse (lib/load_option.c), which reads Boot####, Driver#### and
 * SysPrep#### as an OS or a VARS file left them. An option it accepts must have a valid
 * first device path inside the data, and writing it back must give the same bytes. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/core/devpath.h>
#include <ember/lib/load_option.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct load_option option;
	uint8_t *copy = malloc(size ? size : 1), *out;

	if (!copy)
		return 0;
	/* Exactly the input's bytes, so reads past them are caught. */
	memcpy(copy, data, size);
	if (load_option_parse(copy, size, &option)) {
		const uint8_t *first = (const uint8_t *)option.file_path;
		if (first < copy || first + option.file_path_size > copy + size ||
		    !dp_is_valid(option.file_path, option.file_path_size) ||
		    load_option_size(&option) != size)
			abort();
		out = malloc(size);
		if (!out)
			abort();
		load_option_write(&option, out);
		if (memcmp(out, copy, size) != 0)
			abort();
		free(out);
	}
	free(copy);
	return 0;
}
