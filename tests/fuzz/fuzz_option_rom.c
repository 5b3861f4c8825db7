/* Fuzzes the option ROM image walk (lib/option_rom.c): any bytes as a ROM. Every image it
 * reports must lie inside the ROM, after the previous one, and so must its EFI image. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include <ember/lib/option_rom.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct option_rom_image img;
	size_t pos = 0, prev_end = 0;
	uint8_t *rom = malloc(size ? size : 1);

	if (!rom)
		abort();
	for (size_t i = 0; i < size; i++)
		rom[i] = data[i];
	while (option_rom_next(rom, size, &pos, &img) == OPTION_ROM_IMAGE) {
		if (img.offset < prev_end || img.length == 0 || img.offset + img.length > size)
			abort();
		if (img.efi && (img.efi_offset < img.offset ||
				img.efi_offset + img.efi_length > img.offset + img.length))
			abort();
		prev_end = img.offset + img.length;
	}
	free(rom);
	return 0;
}
