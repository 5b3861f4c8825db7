/* Checks of HII packages and package lists (UEFI 2.10, 33.3) before the database keeps
 * them: every length inside the package, every offset inside its package, so that the
 * string protocol and the programs that export the lists read only what is there. */
#include <ember/core/hii_packages.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/str.h>
#include "unaligned.h"

#define PACKAGE_HEADER_SIZE sizeof(EFI_HII_PACKAGE_HEADER)
#define GUID_PACKAGE_SIZE (PACKAGE_HEADER_SIZE + sizeof(EFI_GUID))
#define IFR_OP_HEADER_SIZE 2
#define IFR_LENGTH_MASK 0x7f

/* The length of a package from its header. */
UINT32 hii_package_length(const UINT8 *package)
{
	return EFI_HII_PACKAGE_LENGTH(read32(package));
}

/* The type of a package from its header. */
UINT8 hii_package_type(const UINT8 *package)
{
	return EFI_HII_PACKAGE_TYPE(read32(package));
}

/* Forms: a sequence of IFR opcodes, each at least its 2-byte header (33.3.8). */
static const char *check_forms(const UINT8 *p, size_t size)
{
	for (size_t at = PACKAGE_HEADER_SIZE; at < size;) {
		UINT8 length = p[at + 1] & IFR_LENGTH_MASK;

		if (size - at < IFR_OP_HEADER_SIZE || length < IFR_OP_HEADER_SIZE ||
		    length > size - at)
			return "IFR opcode outside its forms package";
		at += length;
	}
	return NULL;
}

static bool language_terminated(const UINT8 *language, size_t room)
{
	for (size_t i = 0; i < room; i++) {
		if (!language[i])
			return true;
	}
	return false;
}

/* Strings: header with a NUL-terminated language, then blocks up to an END block. */
static const char *check_strings(const UINT8 *p, size_t size)
{
	UINT32 hdr_size, info;
	size_t blocks_size;
	const UINT8 *blocks;

	if (size < EFI_HII_STRING_PACKAGE_FIXED_SIZE + 1)
		return "string package shorter than its header";
	hdr_size = read32(p + EFI_HII_STRING_PACKAGE_HDR_SIZE_OFFSET);
	info = read32(p + EFI_HII_STRING_PACKAGE_INFO_OFFSET);
	if (hdr_size <= EFI_HII_STRING_PACKAGE_FIXED_SIZE || hdr_size > size || info < hdr_size ||
	    info > size)
		return "string package header or blocks outside the package";
	if (!language_terminated(p + EFI_HII_STRING_PACKAGE_FIXED_SIZE,
				 hdr_size - EFI_HII_STRING_PACKAGE_FIXED_SIZE))
		return "string package language not terminated";
	if (!p[EFI_HII_STRING_PACKAGE_FIXED_SIZE])
		return "string package without a language";
	blocks = hii_string_package_blocks(p, &blocks_size);
	return hii_string_blocks_walk(blocks, blocks_size, NULL, NULL, NULL);
}

/* Simple fonts: the two glyph counts and their glyphs (33.3.2). */
static const char *check_simple_fonts(const UINT8 *p, size_t size)
{
	UINT64 need;

	if (size < EFI_HII_SIMPLE_FONT_PACKAGE_HDR_SIZE)
		return "simple font package shorter than its header";
	need = EFI_HII_SIMPLE_FONT_PACKAGE_HDR_SIZE +
	       (UINT64)read16(p + 4) * EFI_NARROW_GLYPH_SIZE +
	       (UINT64)read16(p + 6) * EFI_WIDE_GLYPH_SIZE;
	return need > size ? "simple font glyphs outside the package" : NULL;
}

/* Fonts: HdrSize and GlyphBlockOffset inside the package (33.3.3). */
static const char *check_fonts(const UINT8 *p, size_t size)
{
	UINT32 hdr_size, glyphs;

	if (size < EFI_HII_FONT_PACKAGE_HDR_SIZE)
		return "font package shorter than its header";
	hdr_size = read32(p + 4);
	glyphs = read32(p + 8);
	if (hdr_size < EFI_HII_FONT_PACKAGE_HDR_SIZE || hdr_size > size || glyphs < hdr_size ||
	    glyphs > size)
		return "font package header or glyphs outside the package";
	return NULL;
}

/* Images and animations: a header whose offsets (0 for none) lie inside the package. */
static const char *check_offsets(const UINT8 *p, size_t size, size_t hdr, UINT32 count)
{
	if (size < hdr)
		return "image or animation package shorter than its header";
	for (UINT32 i = 0; i < count; i++) {
		UINT32 off = read32(p + PACKAGE_HEADER_SIZE + 4 * i);
		if (off && (off < hdr || off > size))
			return "image or animation offset outside the package";
	}
	return NULL;
}

/* Keyboard layouts: LayoutCount layouts, each holding its descriptors (33.3.9). */
static const char *check_keyboard(const UINT8 *p, size_t size)
{
	size_t at = EFI_HII_KEYBOARD_PACKAGE_HDR_SIZE;
	UINT16 count;

	if (size < EFI_HII_KEYBOARD_PACKAGE_HDR_SIZE)
		return "keyboard package shorter than its header";
	count = read16(p + PACKAGE_HEADER_SIZE);
	for (UINT16 i = 0; i < count; i++) {
		EFI_HII_KEYBOARD_LAYOUT layout;

		if (size - at < sizeof(layout))
			return "keyboard layout outside the package";
		mem_copy(&layout, p + at, sizeof(layout));
		if (layout.LayoutLength > size - at ||
		    layout.LayoutLength <
			sizeof(layout) + (size_t)layout.DescriptorCount * EFI_KEY_DESCRIPTOR_SIZE ||
		    layout.LayoutDescriptorStringOffset > layout.LayoutLength)
			return "keyboard layout of a bad length";
		at += layout.LayoutLength;
	}
	return NULL;
}

static const char *check_by_type(const UINT8 *p, size_t size, UINT8 type)
{
	switch (type) {
	case EFI_HII_PACKAGE_TYPE_GUID:
		return size < GUID_PACKAGE_SIZE ? "GUID package without its GUID" : NULL;
	case EFI_HII_PACKAGE_FORMS:
		return check_forms(p, size);
	case EFI_HII_PACKAGE_STRINGS:
		return check_strings(p, size);
	case EFI_HII_PACKAGE_FONTS:
		return check_fonts(p, size);
	case EFI_HII_PACKAGE_IMAGES:
		return check_offsets(p, size, EFI_HII_IMAGE_PACKAGE_HDR_SIZE, 2);
	case EFI_HII_PACKAGE_SIMPLE_FONTS:
		return check_simple_fonts(p, size);
	case EFI_HII_PACKAGE_DEVICE_PATH:
		/* dp_is_valid takes a size of 0 as "unbounded": an empty package is refused here.
		 */
		if (size - PACKAGE_HEADER_SIZE < sizeof(EFI_DEVICE_PATH_PROTOCOL) ||
		    !dp_is_valid((const EFI_DEVICE_PATH_PROTOCOL *)(p + PACKAGE_HEADER_SIZE),
				 size - PACKAGE_HEADER_SIZE))
			return "device path package with a bad device path";
		return NULL;
	case EFI_HII_PACKAGE_KEYBOARD_LAYOUT:
		return check_keyboard(p, size);
	case EFI_HII_PACKAGE_ANIMATIONS:
		return check_offsets(p, size, EFI_HII_ANIMATION_PACKAGE_HDR_SIZE, 1);
	case EFI_HII_PACKAGE_END:
		return size != PACKAGE_HEADER_SIZE ? "END package with data" : NULL;
	default:
		/* The system range is the platform's own and opaque; the rest is reserved. */
		return type >= EFI_HII_PACKAGE_TYPE_SYSTEM_BEGIN ? NULL
								 : "package of a reserved type";
	}
}

/* Checks one package: NULL or the problem. */
const char *hii_package_check(const UINT8 *package, size_t size)
{
	if (size < PACKAGE_HEADER_SIZE || hii_package_length(package) != size)
		return "package length does not match";
	return check_by_type(package, size, hii_package_type(package));
}

/* Checks a whole package list: NULL or the problem. */
const char *hii_package_list_check(const void *list, size_t size)
{
	const UINT8 *p = list;
	EFI_HII_PACKAGE_LIST_HEADER hdr;
	size_t at = sizeof(hdr);

	if (size < sizeof(hdr))
		return "package list shorter than its header";
	mem_copy(&hdr, p, sizeof(hdr));
	if (hdr.PackageLength < sizeof(hdr) || hdr.PackageLength > size)
		return "package list length outside the data";
	while (at < hdr.PackageLength) {
		UINT32 length;
		const char *problem;

		if (hdr.PackageLength - at < PACKAGE_HEADER_SIZE)
			return "package header outside the list";
		length = hii_package_length(p + at);
		if (length < PACKAGE_HEADER_SIZE || length > hdr.PackageLength - at)
			return "package outside the list";
		problem = hii_package_check(p + at, length);
		if (problem)
			return problem;
		at += length;
		if (hii_package_type(p + at - length) == EFI_HII_PACKAGE_END)
			return at == hdr.PackageLength ? NULL : "data after the END package";
	}
	return "package list without an END package";
}
