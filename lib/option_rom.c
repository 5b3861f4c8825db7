/* The image walk of PCI option ROMs: each image starts with 0x55AA and a pointer to its
 * PCI data structure ("PCIR"), which gives the image's length in 512-byte units, its code
 * type and whether it is the last one. An EFI image (code type 3) has a header of its own
 * saying where the PE image starts and whether it is compressed. */
#include <ember/lib/option_rom.h>

#define ROM_HEADER_SIZE 0x1a /* through the PCIR pointer */
#define PCIR_MIN_SIZE 0x18
#define EFI_SIGNATURE 0x0ef1
#define UNIT 512

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16;
}

/* The EFI header (UEFI 2.10, table 14-18): initialization size at 2, signature at 4,
 * subsystem 8, machine 0xA, compression 0xC, image header offset 0x16. */
static void read_efi_header(const uint8_t *img, struct option_rom_image *image)
{
	size_t init_size = (size_t)rd16(img + 2) * UNIT;
	size_t start = rd16(img + 0x16);

	if (rd32(img + 4) != EFI_SIGNATURE || init_size > image->length ||
	    start < ROM_HEADER_SIZE || start >= init_size)
		return;
	image->efi = true;
	image->subsystem = rd16(img + 8);
	image->machine = rd16(img + 0xa);
	image->compression = rd16(img + 0xc);
	image->efi_offset = image->offset + start;
	image->efi_length = init_size - start;
}

enum option_rom_result option_rom_next(const uint8_t *rom, size_t size, size_t *pos,
				       struct option_rom_image *image)
{
	size_t at = *pos, pcir, length;
	const uint8_t *img, *p;

	if (at >= size)
		return OPTION_ROM_END;
	if (size - at < ROM_HEADER_SIZE)
		return OPTION_ROM_BAD;
	img = rom + at;
	if (img[0] != 0x55 || img[1] != 0xaa)
		return OPTION_ROM_BAD;
	pcir = rd16(img + 0x18);
	if (pcir < ROM_HEADER_SIZE || (pcir & 3) || pcir > size - at - PCIR_MIN_SIZE)
		return OPTION_ROM_BAD;
	p = img + pcir;
	if (p[0] != 'P' || p[1] != 'C' || p[2] != 'I' || p[3] != 'R' ||
	    rd16(p + 0xa) < PCIR_MIN_SIZE)
		return OPTION_ROM_BAD;
	length = (size_t)rd16(p + 0x10) * UNIT;
	/* The image holds its own PCIR structure, and lies wholly inside the ROM. */
	if (length < pcir + PCIR_MIN_SIZE || length > size - at)
		return OPTION_ROM_BAD;
	*image = (struct option_rom_image){
	    .offset = at,
	    .length = length,
	    .vendor_id = rd16(p + 4),
	    .device_id = rd16(p + 6),
	    .code_type = p[0x14],
	    .last = p[0x15] & 0x80,
	};
	if (image->code_type == OPTION_ROM_CODE_TYPE_EFI)
		read_efi_header(img, image);
	*pos = image->last ? size : at + length;
	return OPTION_ROM_IMAGE;
}
