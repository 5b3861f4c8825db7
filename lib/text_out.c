/* Character classes and tab stops shared by the text outputs (see text_out.h). */
#include <ember/lib/text_out.h>
#include <ember/lib/util.h>

bool text_out_glyph_known(CHAR16 c)
{
	if (c < 0x20 || (c >= 0x7f && c < 0xa0))
		return false;
	return (c < 0xd800 || c > 0xdfff) && c != 0xfffe && c != 0xffff;
}

bool text_out_width_marker(CHAR16 c)
{
	return c == TEXT_OUT_NARROW_CHAR || c == TEXT_OUT_WIDE_CHAR;
}

UINT32 text_out_tab_stop(UINT32 col, UINT32 cols)
{
	return MIN((col / TEXT_OUT_TAB_STOP + 1) * TEXT_OUT_TAB_STOP, cols - 1);
}
