/* What every EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL of Ember shares (UEFI 2.10, 12.4): the default
 * colours, which characters take a cell, and tab stops. Pure logic (lib/text_out.c), used
 * by the text output front end (drivers/text_output) and the consoles under it. */
#ifndef EMBER_TEXT_OUT_H
#define EMBER_TEXT_OUT_H

#include <stdbool.h>
#include <efi/protocol/simple_text_output.h>

/* The colours after Reset: light grey on black. */
#define TEXT_OUT_DEFAULT_ATTRIBUTE EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK)
#define TEXT_OUT_TAB_STOP 8
/* Markers that switch HII glyph widths; they take no cell (UEFI 2.10, 34.8.2). */
#define TEXT_OUT_NARROW_CHAR 0xfff1
#define TEXT_OUT_WIDE_CHAR 0xfff2

/* True for characters shown in one cell: not control codes (C0, DEL, C1), not lone
 * surrogate halves, not the non-characters U+FFFE and U+FFFF. */
bool text_out_glyph_known(CHAR16 c);
/* True for the width markers. */
bool text_out_width_marker(CHAR16 c);
/* Where TAB takes a cursor in column col of a cols-wide mode: the next tab stop, at most
 * the last column. */
UINT32 text_out_tab_stop(UINT32 col, UINT32 cols);

#endif
