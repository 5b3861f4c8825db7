/* HII packages and package lists (UEFI 2.10, 33.3.1) and EFI_HII_PACKAGE_LIST_PROTOCOL
 * (UEFI 2.10, 7.4 LoadImage): the package list an image carries in its resource section,
 * published on its image handle. Packed on-disk layouts, read through memcpy only. */
#ifndef EFI_PROTOCOL_HII_PACKAGE_LIST_H
#define EFI_PROTOCOL_HII_PACKAGE_LIST_H

#include <stddef.h>
#include <efi/types.h>

#define EFI_HII_PACKAGE_LIST_PROTOCOL_GUID                                                         \
	EFI_GUID_INIT(0x6a1ee763, 0xd47a, 0x43b4, 0xaa, 0xbe, 0xef, 0x1d, 0xe2, 0xab, 0x56, 0xfc)

typedef VOID *EFI_HII_HANDLE;
typedef UINT16 EFI_STRING_ID;
typedef CHAR16 *EFI_STRING;

/* Package types (33.3.1.1). */
#define EFI_HII_PACKAGE_TYPE_ALL 0x00
#define EFI_HII_PACKAGE_TYPE_GUID 0x01
#define EFI_HII_PACKAGE_FORMS 0x02
#define EFI_HII_PACKAGE_STRINGS 0x04
#define EFI_HII_PACKAGE_FONTS 0x05
#define EFI_HII_PACKAGE_IMAGES 0x06
#define EFI_HII_PACKAGE_SIMPLE_FONTS 0x07
#define EFI_HII_PACKAGE_DEVICE_PATH 0x08
#define EFI_HII_PACKAGE_KEYBOARD_LAYOUT 0x09
#define EFI_HII_PACKAGE_ANIMATIONS 0x0A
#define EFI_HII_PACKAGE_END 0xDF
#define EFI_HII_PACKAGE_TYPE_SYSTEM_BEGIN 0xE0
#define EFI_HII_PACKAGE_TYPE_SYSTEM_END 0xFF

typedef struct {
	EFI_GUID PackageListGuid;
	UINT32 PackageLength; /* the header and every package */
} EFI_HII_PACKAGE_LIST_HEADER;
_Static_assert(sizeof(EFI_HII_PACKAGE_LIST_HEADER) == 20, "EFI_HII_PACKAGE_LIST_HEADER layout");

/* Length:24 and Type:8 of the spec's bit fields, as one little-endian word. */
typedef struct {
	UINT32 LengthAndType;
} EFI_HII_PACKAGE_HEADER;
_Static_assert(sizeof(EFI_HII_PACKAGE_HEADER) == 4, "EFI_HII_PACKAGE_HEADER layout");
#define EFI_HII_PACKAGE_LENGTH(word) ((word)&0xffffffu)
#define EFI_HII_PACKAGE_TYPE(word) ((UINT8)((word) >> 24))

typedef EFI_HII_PACKAGE_LIST_HEADER *EFI_HII_PACKAGE_LIST_PROTOCOL;

/* String package header (33.3.6.1): HdrSize, StringInfoOffset, LanguageWindow[16],
 * LanguageName, then the language (ASCII, NUL-terminated) up to HdrSize. */
#define EFI_HII_STRING_PACKAGE_FIXED_SIZE 46
#define EFI_HII_STRING_PACKAGE_HDR_SIZE_OFFSET 4
#define EFI_HII_STRING_PACKAGE_INFO_OFFSET 8
#define EFI_HII_STRING_PACKAGE_NAME_OFFSET 44

/* String information block types (33.3.6.2). */
#define EFI_HII_SIBT_END 0x00
#define EFI_HII_SIBT_STRING_SCSU 0x10
#define EFI_HII_SIBT_STRING_SCSU_FONT 0x11
#define EFI_HII_SIBT_STRINGS_SCSU 0x12
#define EFI_HII_SIBT_STRINGS_SCSU_FONT 0x13
#define EFI_HII_SIBT_STRING_UCS2 0x14
#define EFI_HII_SIBT_STRING_UCS2_FONT 0x15
#define EFI_HII_SIBT_STRINGS_UCS2 0x16
#define EFI_HII_SIBT_STRINGS_UCS2_FONT 0x17
#define EFI_HII_SIBT_DUPLICATE 0x20
#define EFI_HII_SIBT_SKIP2 0x21
#define EFI_HII_SIBT_SKIP1 0x22
#define EFI_HII_SIBT_EXT1 0x30
#define EFI_HII_SIBT_EXT2 0x31
#define EFI_HII_SIBT_EXT4 0x32
#define EFI_HII_SIBT_FONT 0x40 /* an EXT2 block's BlockType2 */

/* Fixed sizes of other packages' headers (33.3.2 - 33.3.10). */
#define EFI_HII_SIMPLE_FONT_PACKAGE_HDR_SIZE 8 /* header, NumberOfNarrowGlyphs, ...Wide... */
#define EFI_NARROW_GLYPH_SIZE 19
#define EFI_WIDE_GLYPH_SIZE 44
#define EFI_HII_FONT_PACKAGE_HDR_SIZE 26      /* header, HdrSize, GlyphBlockOffset, Cell, Style */
#define EFI_HII_IMAGE_PACKAGE_HDR_SIZE 12     /* header, ImageInfoOffset, PaletteInfoOffset */
#define EFI_HII_ANIMATION_PACKAGE_HDR_SIZE 8  /* header, AnimationInfoOffset */
#define EFI_HII_KEYBOARD_PACKAGE_HDR_SIZE 6   /* header, LayoutCount */
#define EFI_HII_KEYBOARD_LAYOUT_FIXED_SIZE 23 /* Length, Guid, DescriptorStringOffset, Count */
#define EFI_KEY_DESCRIPTOR_SIZE 16

/* EFI_HII_KEYBOARD_LAYOUT (33.2.4.1): LayoutLength, Guid, LayoutDescriptorStringOffset,
 * DescriptorCount, then DescriptorCount EFI_KEY_DESCRIPTORs; packed. */
typedef struct {
	UINT16 LayoutLength;
	EFI_GUID Guid;
	UINT32 LayoutDescriptorStringOffset;
	UINT8 DescriptorCount;
} __attribute__((packed)) EFI_HII_KEYBOARD_LAYOUT;
_Static_assert(sizeof(EFI_HII_KEYBOARD_LAYOUT) == 23, "EFI_HII_KEYBOARD_LAYOUT layout");

/* Font styles and EFI_FONT_INFO (34.1). */
typedef UINT32 EFI_HII_FONT_STYLE;
typedef struct {
	EFI_HII_FONT_STYLE FontStyle;
	UINT16 FontSize;
	CHAR16 FontName[1];
} EFI_FONT_INFO;

#endif
