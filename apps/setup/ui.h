/* The setup app's own drawing, for what the forms cannot show (a question, a file picker). */
#ifndef APPS_SETUP_UI_H
#define APPS_SETUP_UI_H

#include "setup.h"

#define UI_NORMAL EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK)
#define UI_SELECTED EFI_TEXT_ATTR(EFI_BLACK, EFI_LIGHTGRAY)
#define UI_TITLE EFI_TEXT_ATTR(EFI_WHITE, EFI_BLUE)

/* The screen's size in characters. */
void ui_size(UINTN *cols, UINTN *rows);
/* Waits for a key: false when the input fails. */
bool ui_key(EFI_INPUT_KEY *key);
/* Writes text at a row, in attr, padded to the screen's width. */
void ui_line(UINTN row, const char *text, UINTN attr);
void ui_line16(UINTN row, const CHAR16 *text, UINTN attr);
/* Clears the screen and lets the user choose one of items: its index, -1 for Esc. */
int ui_choose(const char *title, const CHAR16 *const *items, UINTN count);

#endif
