/* Base relocations of a loaded PE32+ image (PE/COFF ".reloc section"). The directory is
 * walked twice: once to validate every block and entry, then to apply them, so a bad
 * directory leaves the image untouched. The second walk checks again because fixups may
 * land inside the directory itself. */
#include "pe_format.h"

/* Bytes each relocation type writes; 0 for the types Ember refuses. */
static const UINT8 reloc_width[16] = {
    [IMAGE_REL_BASED_HIGH] = 2,
    [IMAGE_REL_BASED_LOW] = 2,
    [IMAGE_REL_BASED_HIGHLOW] = 4,
    [IMAGE_REL_BASED_DIR64] = 8,
};

static EFI_STATUS refuse(const char **reason, const char *why)
{
	*reason = why;
	return EFI_LOAD_ERROR;
}

static UINT16 get16(const UINT8 *p)
{
	return (UINT16)(p[0] | p[1] << 8);
}

static UINT32 get32(const UINT8 *p)
{
	return (UINT32)get16(p) | (UINT32)get16(p + 2) << 16;
}

static UINT64 get64(const UINT8 *p)
{
	return (UINT64)get32(p) | (UINT64)get32(p + 4) << 32;
}

static void put_le(UINT8 *p, UINT64 value, UINT32 width)
{
	for (UINT32 i = 0; i < width; i++)
		p[i] = (UINT8)(value >> (8 * i));
}

static void apply_fixup(UINT8 *p, UINT32 type, UINT64 delta)
{
	switch (type) {
	case IMAGE_REL_BASED_HIGH:
		/* The field is the top half of a 32-bit address: add with the carry. */
		put_le(p, (((UINT32)get16(p) << 16) + (UINT32)delta) >> 16, 2);
		break;
	case IMAGE_REL_BASED_LOW:
		put_le(p, get16(p) + (UINT16)delta, 2);
		break;
	case IMAGE_REL_BASED_HIGHLOW:
		put_le(p, get32(p) + (UINT32)delta, 4);
		break;
	case IMAGE_REL_BASED_DIR64:
		put_le(p, get64(p) + delta, 8);
		break;
	}
}

static EFI_STATUS walk_block(UINT8 *image, UINT32 image_size, const UINT8 *block, UINT32 block_size,
			     UINT64 delta, bool apply, const char **reason)
{
	UINT32 page = get32(block);

	for (UINT32 at = sizeof(IMAGE_BASE_RELOCATION); at + 2 <= block_size; at += 2) {
		UINT16 entry = get16(block + at);
		UINT32 type = entry >> 12;
		UINT64 target = (UINT64)page + (entry & 0xfff);

		if (type == IMAGE_REL_BASED_ABSOLUTE)
			continue;
		if (!reloc_width[type])
			return refuse(reason, "unknown relocation type");
		if (target + reloc_width[type] > image_size)
			return refuse(reason, "relocation outside the image");
		if (apply)
			apply_fixup(image + target, type, delta);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS walk_directory(UINT8 *image, UINT32 image_size, UINT32 reloc_rva,
				 UINT32 reloc_size, UINT64 delta, bool apply, const char **reason)
{
	const UINT8 *dir = image + reloc_rva;

	for (UINT32 at = 0; at < reloc_size;) {
		UINT32 left = reloc_size - at;
		UINT32 block_size;
		EFI_STATUS status;

		if (left < sizeof(IMAGE_BASE_RELOCATION))
			return refuse(reason, "malformed relocation block");
		block_size = get32(dir + at + 4);
		if (block_size < sizeof(IMAGE_BASE_RELOCATION) || block_size > left)
			return refuse(reason, "malformed relocation block");
		status = walk_block(image, image_size, dir + at, block_size, delta, apply, reason);
		if (EFI_ERROR(status))
			return status;
		at += block_size;
	}
	return EFI_SUCCESS;
}

/* Validates a loaded image's relocation directory, then applies it for delta. */
EFI_STATUS pe_relocate(void *image, UINT32 image_size, UINT32 reloc_rva, UINT32 reloc_size,
		       UINT64 delta, const char **reason)
{
	const char *ignored;
	EFI_STATUS status;

	if (!reason)
		reason = &ignored;
	if (!reloc_size)
		return EFI_SUCCESS;
	if ((UINT64)reloc_rva + reloc_size > image_size)
		return refuse(reason, "relocation directory outside the image");
	status = walk_directory(image, image_size, reloc_rva, reloc_size, 0, false, reason);
	if (EFI_ERROR(status) || !delta)
		return status;
	return walk_directory(image, image_size, reloc_rva, reloc_size, delta, true, reason);
}
