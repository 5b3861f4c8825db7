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

/* Writes text at a row, padded to the screen's width less one (no scrolling). */
void ui_line(UINTN row, const char *text, UINTN attr)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = app_st->ConOut;
	UINTN cols, rows, n = 0;
	CHAR16 line[256];

	ui_size(&cols, &rows);
	if (cols > 255)
		cols = 255;
	for (; text[n] && n + 1 < cols; n++)
		line[n] = (UINT8)text[n];
	while (n + 1 < cols)
		line[n++] = ' ';
	line[n] = 0;
	out->SetAttribute(out, attr);
	out->SetCursorPosition(out, 0, row);
	out->OutputString(out, line);
	out->SetAttribute(out, UI_NORMAL);
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
