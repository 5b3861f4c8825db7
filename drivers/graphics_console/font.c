/* Looking up a character in the built-in font (the data is generated:
 * include/ember/drivers/font.h). */
#include <ember/drivers/font.h>

const UINT8 *font_glyph(CHAR16 c)
{
	UINT32 lo = 0, hi = font_8x16_map_count;

	while (lo < hi) {
		UINT32 mid = lo + (hi - lo) / 2;

		if (font_8x16_map[mid].code == c)
			return font_8x16_glyphs[font_8x16_map[mid].glyph];
		if (font_8x16_map[mid].code < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
