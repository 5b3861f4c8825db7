/* Fuzzes the PE32+ code (core/image/pe_*.c): any bytes go to pe_parse(); what it accepts
 * is loaded at several addresses (relocating up, down and not at all) and asked for its
 * debug name, its HII resource and its code pages. The raw input is also read as if it were a
 * loaded image. */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>

#include <ember/core/pe.h>

#define MAX_IMAGE_SIZE (64u << 20)

/* The HII resource found must lie inside the image. */
static void hii_resource(const uint8_t *image, UINT32 size)
{
	UINT32 rva, length;

	if (pe_hii_resource(image, size, &rva, &length) && (rva > size || length > size - rva))
		abort();
}

static void load_at(const uint8_t *data, size_t size, const struct pe_image_info *info,
		    uint8_t *image, UINT64 address)
{
	const char *reason;
	struct pe_range code[4];

	if (EFI_ERROR(pe_load(data, size, info, image, address, &reason)))
		return;
	pe_debug_name(image, info->size_of_image);
	hii_resource(image, info->size_of_image);
	pe_code_ranges(image, info, code, 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pe_image_info info;
	const char *reason;
	uint8_t *image;

	pe_debug_name(data, size > UINT32_MAX ? UINT32_MAX : (UINT32)size);
	hii_resource(data, size > UINT32_MAX ? UINT32_MAX : (UINT32)size);
	if (EFI_ERROR(pe_parse(data, size, &info, &reason)) || info.size_of_image >= MAX_IMAGE_SIZE)
		return 0;
	image = malloc(info.size_of_image);
	if (!image)
		return 0;
	load_at(data, size, &info, image, info.image_base);
	load_at(data, size, &info, image, info.image_base + 0x7ff01000);
	load_at(data, size, &info, image, 0x1000);
	load_at(data, size, &info, image, 0xffff800000000000ULL);
	free(image);
	return 0;
}
