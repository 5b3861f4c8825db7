/* EFI_HII_FONT_PROTOCOL (UEFI 2.10, 34.1): strings and characters drawn as bitmaps with the
 * fonts of the HII database, and the fonts' descriptions. */
#ifndef EFI_PROTOCOL_HII_FONT_H
#define EFI_PROTOCOL_HII_FONT_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/hii_package_list.h>

#define EFI_HII_FONT_PROTOCOL_GUID                                                                 \
	EFI_GUID_INIT(0xe9ca4775, 0x8657, 0x47fc, 0x97, 0xe7, 0x7e, 0xd6, 0x5a, 0x08, 0x43, 0x24)

typedef struct _EFI_HII_FONT_PROTOCOL EFI_HII_FONT_PROTOCOL;
typedef VOID *EFI_FONT_HANDLE;

/* Output flags of StringToImage and StringIdToImage. */
typedef UINT32 EFI_HII_OUT_FLAGS;
#define EFI_HII_OUT_FLAG_CLIP 0x00000001
#define EFI_HII_OUT_FLAG_WRAP 0x00000002
#define EFI_HII_OUT_FLAG_CLIP_CLEAN_Y 0x00000004
#define EFI_HII_OUT_FLAG_CLIP_CLEAN_X 0x00000008
#define EFI_HII_OUT_FLAG_TRANSPARENT 0x00000010
#define EFI_HII_IGNORE_IF_NO_GLYPH 0x00000020
#define EFI_HII_IGNORE_LINE_BREAK 0x00000040
#define EFI_HII_DIRECT_TO_SCREEN 0x00000080

/* Font styles (EFI_HII_FONT_STYLE). */
#define EFI_HII_FONT_STYLE_NORMAL 0x00000000
#define EFI_HII_FONT_STYLE_BOLD 0x00000001
#define EFI_HII_FONT_STYLE_ITALIC 0x00000002

/* Which fields of EFI_FONT_DISPLAY_INFO to take from the system's default instead. */
typedef UINT32 EFI_FONT_INFO_MASK;
#define EFI_FONT_INFO_SYS_FONT 0x00000001
#define EFI_FONT_INFO_SYS_SIZE 0x00000002
#define EFI_FONT_INFO_SYS_STYLE 0x00000004
#define EFI_FONT_INFO_SYS_FORE_COLOR 0x00000010
#define EFI_FONT_INFO_SYS_BACK_COLOR 0x00000020
#define EFI_FONT_INFO_RESIZE 0x00001000
#define EFI_FONT_INFO_RESTYLE 0x00002000
#define EFI_FONT_INFO_ANY_FONT 0x00010000
#define EFI_FONT_INFO_ANY_SIZE 0x00020000
#define EFI_FONT_INFO_ANY_STYLE 0x00040000

typedef struct {
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL ForegroundColor;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL BackgroundColor;
	EFI_FONT_INFO_MASK FontInfoMask;
	EFI_FONT_INFO FontInfo; /* its FontName runs on past the structure */
} EFI_FONT_DISPLAY_INFO;

/* An image to draw into, or the screen itself (EFI_HII_DIRECT_TO_SCREEN). */
typedef struct {
	UINT16 Width;
	UINT16 Height;
	union {
		EFI_GRAPHICS_OUTPUT_BLT_PIXEL *Bitmap;
		EFI_GRAPHICS_OUTPUT_PROTOCOL *Screen;
	} Image;
} EFI_IMAGE_OUTPUT;

/* One row of a drawn string: its characters StartIndex..EndIndex, its size in pixels, and
 * its baseline's distance from the row's bottom. */
typedef struct {
	UINTN StartIndex;
	UINTN EndIndex;
	UINTN LineHeight;
	UINTN LineWidth;
	UINTN BaselineOffset;
} EFI_HII_ROW_INFO;

struct _EFI_HII_FONT_PROTOCOL {
	EFI_STATUS(EFIAPI *StringToImage)
	(const EFI_HII_FONT_PROTOCOL *This, EFI_HII_OUT_FLAGS Flags, const EFI_STRING String,
	 const EFI_FONT_DISPLAY_INFO *StringInfo, EFI_IMAGE_OUTPUT **Blt, UINTN BltX, UINTN BltY,
	 EFI_HII_ROW_INFO **RowInfoArray, UINTN *RowInfoArraySize, UINTN *ColumnInfoArray);
	EFI_STATUS(EFIAPI *StringIdToImage)
	(const EFI_HII_FONT_PROTOCOL *This, EFI_HII_OUT_FLAGS Flags, EFI_HII_HANDLE PackageList,
	 EFI_STRING_ID StringId, const CHAR8 *Language, const EFI_FONT_DISPLAY_INFO *StringInfo,
	 EFI_IMAGE_OUTPUT **Blt, UINTN BltX, UINTN BltY, EFI_HII_ROW_INFO **RowInfoArray,
	 UINTN *RowInfoArraySize, UINTN *ColumnInfoArray);
	EFI_STATUS(EFIAPI *GetGlyph)
	(const EFI_HII_FONT_PROTOCOL *This, CHAR16 Char, const EFI_FONT_DISPLAY_INFO *StringInfo,
	 EFI_IMAGE_OUTPUT **Blt, UINTN *Baseline);
	EFI_STATUS(EFIAPI *GetFontInfo)
	(const EFI_HII_FONT_PROTOCOL *This, EFI_FONT_HANDLE *FontHandle,
	 const EFI_FONT_DISPLAY_INFO *StringInfoIn, EFI_FONT_DISPLAY_INFO **StringInfoOut,
	 const EFI_STRING String);
};
_Static_assert(sizeof(EFI_HII_FONT_PROTOCOL) == 32, "EFI_HII_FONT_PROTOCOL layout");
_Static_assert(sizeof(EFI_IMAGE_OUTPUT) == 16, "EFI_IMAGE_OUTPUT layout");

#endif
