/* text-screen: draws a known screen through ConOut, for tests that compare a screenshot
 * of the graphics console with the same text rendered from the font (tests/screen_cells.py):
 * colours, box-drawing and other special characters, a tab, and a scroll at the bottom.
 * Mode 0 (80x25); the cursor is hidden at the end so that no cell is left inverted. */
#include "../lib/app.h"

static void out(const CHAR16 *text)
{
	app_st->ConOut->OutputString(app_st->ConOut, (CHAR16 *)text);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con = st->ConOut;

	app_init(image, st);
	con->SetMode(con, 0);
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	con->ClearScreen(con);
	out(u"Ember text screen\r\n");
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_YELLOW, EFI_BLUE));
	out(u"yellow on blue");
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	out(u"\r\n\u250c\u2500\u2500\u2510\r\n\u2502ok\u2502\r\n\u2514\u2500\u2500\u2518\r\n");
	out(u"\u2191\u2193\u2588\u2591\u25b2\u25ba\u25bc\u25c4\u2550\u256c caf\u00e9 \u20ac\r\n");
	out(u"a\tb\r\n");
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_WHITE, EFI_RED));
	con->SetCursorPosition(con, 70, 10);
	out(u"wraps here!");
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	con->SetCursorPosition(con, 0, 24);
	out(u"text-screen done\r\n");
	con->EnableCursor(con, FALSE);
	return EFI_SUCCESS;
}
