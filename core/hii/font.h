/* EFI_HII_FONT_PROTOCOL's shared pieces (core/hii/font.c, font_image.c): the system font is
 * Ember's built-in 8x16 font (include/ember/drivers/font.h), the one of the GOP console. */
#ifndef CORE_HII_FONT_H
#define CORE_HII_FONT_H

#include <efi/protocol/hii_font.h>
#include <stdbool.h>

#define HII_FONT_NAME u"Ember 8x16"
#define HII_FONT_BASELINE 4 /* pixels from a cell's bottom to the baseline */

/* The colours to draw with: StringInfo's, or the system's (light grey on black) where it is
 * NULL or its mask says so. */
void hii_font_colors(const EFI_FONT_DISPLAY_INFO *info, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *fg,
		     EFI_GRAPHICS_OUTPUT_BLT_PIXEL *bg);

/* The glyph of c, or the replacement glyph (*unknown set) when the font has none. */
const UINT8 *hii_font_glyph(CHAR16 c, bool *unknown);

EFI_STATUS EFIAPI hii_string_to_image(const EFI_HII_FONT_PROTOCOL *This, EFI_HII_OUT_FLAGS Flags,
				      const EFI_STRING String,
				      const EFI_FONT_DISPLAY_INFO *StringInfo,
				      EFI_IMAGE_OUTPUT **Blt, UINTN BltX, UINTN BltY,
				      EFI_HII_ROW_INFO **RowInfoArray, UINTN *RowInfoArraySize,
				      UINTN *ColumnInfoArray);

#endif
