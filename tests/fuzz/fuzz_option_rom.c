/* Fuzzes the option ROM image walk (lib/option_rom.c): any bytes as a ROM. Every image it
 * reports must lie inside the ROM, after the previous one, and so must its EFI image. A
 * compressed EFI image (CompressionType 1) then goes through the UEFI decompressor
 * (lib/uefi_decompress.c) as drivers/pci/pci_rom.c sends it, bounded by the image. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include <ember/lib/option_rom.h>
#include <ember/lib/uefi_decompress.h>

#define MAX_OUTPUT (1u << 20)

static void decompress(const uint8_t *in, size_t size)
{
	uint32_t out_size, scratch_size;
	uint8_t *out, *scratch;

	if (uefi_decompress_get_info(in, size, &out_size, &scratch_size) != UEFI_DECOMPRESS_OK ||
	    out_size > MAX_OUTPUT)
		return;
	out = malloc(out_size ? out_size : 1);
	scratch = malloc(scratch_size);
	if (!out || !scratch)
		abort();
	uefi_decompress(in, size, out, out_size, scratch, scratch_size);
	free(scratch);
	free(out);
}

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
		if (img.efi && img.compression == 1)
			decompress(rom + img.efi_offset, img.efi_length);
		prev_end = img.offset + img.length;
	}
	free(rom);
	return 0;
}
