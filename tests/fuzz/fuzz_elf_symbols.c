/* Fuzzes elf_function_at (lib/elf_symbols.c), which reads the symbol files beside EFI
 * programs for ember-run's crash reports: any bytes, any address; a name it returns must
 * lie inside the input. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/lib/elf_symbols.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_symbol s;
	uint64_t address = 0;

	if (size >= 8) {
		memcpy(&address, data + size - 8, 8);
		size -= 8;
	}
	if (elf_function_at(data, size, address, &s)) {
		const uint8_t *name = (const uint8_t *)s.name;
		if (name < data || s.name_len == 0 || s.name_len > size ||
		    name + s.name_len > data + size || address < s.start)
			abort();
	}
	return 0;
}
