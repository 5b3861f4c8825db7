/* What the setup app draws itself during a callback: a question on the bottom lines, keys. */
#include "ui.h"

/* The screen's size in characters (80x25 when the mode does not say). */
void ui_size(UINTN *cols, UINTN *rows)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = app_st->ConOut;

	*cols = 80, *rows = 25;
	if (out->Mode)
		out->QueryMode(out, (UINTN)out->Mode->Mode, cols, rows);
}

/* Waits for a key: false when the input fails. */
bool ui_key(EFI_INPUT_KEY *key)
{
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in = app_st->ConIn;
	UINTN index;

	for (;;) {
		EFI_STATUS status = in->ReadKeyStroke(in, key);

		if (status != EFI_NOT_READY)
			return !EFI_ERROR(status);
		app_bs->WaitForEvent(1, &in->WaitForKey, &index);
	}
}

/* Writes UCS-2 text at a row, padded to the screen's width less one (no scrolling). */
void ui_line16(UINTN row, const CHAR16 *text, UINTN attr)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = app_st->ConOut;
	UINTN cols, rows, n = 0;
	CHAR16 line[256];

	ui_size(&cols, &rows);
	if (cols > 255)
		cols = 255;
	for (; text[n] && n + 1 < cols; n++)
		line[n] = text[n];
	while (n + 1 < cols)
		line[n++] = ' ';
	line[n] = 0;
	out->SetAttribute(out, attr);
	out->SetCursorPosition(out, 0, row);
	out->OutputString(out, line);
	out->SetAttribute(out, UI_NORMAL);
}

/* The same for ASCII text. */
void ui_line(UINTN row, const char *text, UINTN attr)
{
	CHAR16 line[256];
	size_t n = 0;

	for (; text[n] && n < 255; n++)
		line[n] = (UINT8)text[n];
	line[n] = 0;
	ui_line16(row, line, attr);
}

/* Draws the visible part of the list: rows 3 to rows - 3. */
static void draw_list(const CHAR16 *const *items, UINTN count, UINTN selected, UINTN top,
		      UINTN shown)
{
	for (UINTN i = 0; i < shown; i++)
		ui_line16(3 + i, top + i < count ? items[top + i] : u"",
			  top + i == selected ? UI_SELECTED : UI_NORMAL);
}

/* A list to choose from: Up/Down, Enter chooses, Esc leaves (-1). */
int ui_choose(const char *title, const CHAR16 *const *items, UINTN count)
{
	UINTN cols, rows, selected = 0, top = 0, shown;
	EFI_INPUT_KEY key;

	ui_size(&cols, &rows);
	shown = rows > 8 ? rows - 6 : 2;
	app_st->ConOut->ClearScreen(app_st->ConOut);
	ui_line(0, title, UI_TITLE);
	ui_line(1, "Up/Down choose, Enter opens, Esc goes back", UI_NORMAL);
	for (;;) {
		if (selected < top)
			top = selected;
		if (selected >= top + shown)
			top = selected - shown + 1;
		draw_list(items, count, selected, top, shown);
		if (!ui_key(&key) || key.ScanCode == SCAN_ESC)
			return -1;
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN && count)
			return (int)selected;
		if (key.ScanCode == SCAN_UP && selected > 0)
			selected--;
		if (key.ScanCode == SCAN_DOWN && selected + 1 < count)
			selected++;
	}
}

/* A yes/no question on the line above the bottom one. */
bool setup_confirm(const char *question)
{
	UINTN cols, rows;
	char line[160];
	EFI_INPUT_KEY key;

	ui_size(&cols, &rows);
	format_sn(line, sizeof(line), "%s (Y/N)", question);
	ui_line(rows - 2, line, UI_SELECTED);
	while (ui_key(&key)) {
		if (key.UnicodeChar == 'y' || key.UnicodeChar == 'Y')
			return true;
		if (key.UnicodeChar == 'n' || key.UnicodeChar == 'N' || key.ScanCode == SCAN_ESC)
			return false;
	}
	return false;
}
