/* A front end for text output devices: one struct that carries
 * EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL and its Mode, checks every call's arguments in the order
 * UEFI 2.10 section 12.4 lists the statuses, keeps the Mode (mode number, attribute,
 * cursor position and visibility) and moves the cursor for the characters every console
 * treats alike (CR, LF, BS, TAB, the wrap after the last column, the scroll at the bottom).
 * The device only draws: it gets checked, decoded requests through its operations. A
 * device embeds struct text_output, recovers itself with container_of and installs
 * t->out. Used by the serial terminal, the graphics console, the console splitter and
 * ember-run's console; the text input side is drivers/text_input. */
#ifndef EMBER_TEXT_OUTPUT_H
#define EMBER_TEXT_OUTPUT_H

#include <stdbool.h>
#include <efi/protocol/simple_text_output.h>

struct text_output;

/* What a device implements. Every operation runs at TPL_NOTIFY. Apart from those of
 * OutputString, the operations are called once Mode shows the call's outcome (the new mode
 * number, attribute, cursor position or visibility), even if the device then fails. */
struct text_output_ops {
	/* The size of mode (a number below Mode.MaxMode); false for a mode that is listed but
	 * cannot be used. */
	bool (*query_mode)(struct text_output *t, UINT32 mode, UINT32 *cols, UINT32 *rows);
	/* Optional, first in every call but TestString: the device catches up with changes
	 * made behind the front end's back (a GOP now in another resolution), reporting them
	 * with text_output_set_modes and text_output_moved. */
	void (*sync)(struct text_output *t);
	/* Optional, before QueryMode and SetMode look at the mode list: the device may build
	 * it anew (text_output_set_modes). */
	void (*refresh_modes)(struct text_output *t);

	/* ---- OutputString, with the cursor where the character is (before it moves) ---- */
	/* n > 0 characters that take a cell each, from the cursor on, all on its row. False
	 * when some had no glyph (the device shows a replacement; the call warns). */
	bool (*draw)(struct text_output *t, const CHAR16 *text, UINT32 n);
	/* Optional: CR; LF; BS (only when the cursor is not in column 0). */
	void (*carriage_return)(struct text_output *t);
	void (*line_feed)(struct text_output *t);
	void (*backspace)(struct text_output *t);
	/* Optional: TAB, to column next (at most the last). NULL: spaces are drawn up to it. */
	void (*tab)(struct text_output *t, UINT32 next);
	/* Optional: the cursor passed the last column and goes to the next line's start. */
	void (*wrap)(struct text_output *t);
	/* Optional: the cursor went down from the last row: the screen moves up a row. */
	void (*scroll)(struct text_output *t);
	/* Optional, instead of all of the above (a device that passes text on, as the console
	 * splitter): the whole string; the device reports where the cursor went with
	 * text_output_moved or text_output_track. */
	EFI_STATUS (*output_string)(struct text_output *t, const CHAR16 *string);
	/* Optional: TestString for a string whose characters any console takes: EFI_SUCCESS
	 * when the device shows them all, else EFI_UNSUPPORTED. */
	EFI_STATUS (*test_string)(struct text_output *t, const CHAR16 *string);

	/* ---- The other calls (optional: NULL is nothing to do) ---- */
	/* SetMode: show Mode.Mode, the screen cleared. NULL: clear is called. */
	EFI_STATUS (*set_mode)(struct text_output *t);
	/* ClearScreen (also SetMode and Reset): the whole screen in the attribute's
	 * background colour. */
	EFI_STATUS (*clear)(struct text_output *t);
	EFI_STATUS (*set_attribute)(struct text_output *t);
	/* SetCursorPosition. */
	EFI_STATUS (*set_cursor)(struct text_output *t);
	EFI_STATUS (*enable_cursor)(struct text_output *t);
	/* Reset: the device's own part. NULL: set_attribute, enable_cursor and clear, in that
	 * order, until one fails. */
	EFI_STATUS (*reset)(struct text_output *t, bool extended);
	/* Last in every call but TestString: what the call collected goes out; its error is
	 * the call's. */
	EFI_STATUS (*flush)(struct text_output *t);
};

struct text_output {
	UINT32 signature;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL out; /* what callers hold; out.Mode is &mode */
	SIMPLE_TEXT_OUTPUT_MODE mode;
	UINT32 cols, rows; /* the current mode's size; 0 x 0 while there is no text mode */
	const struct text_output_ops *ops;
};

/* Makes t a live text output over ops with max_mode modes, in mode (no text mode if that
 * is not a usable one), default colours, the cursor shown at (0,0). */
void text_output_init(struct text_output *t, const struct text_output_ops *ops, UINT32 max_mode,
		      UINT32 mode);
/* Ends it: calls through t->out are refused from now on. */
void text_output_fini(struct text_output *t);
/* The text output behind a caller's This, or NULL when it is none. */
struct text_output *text_output_from(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out);

/* The device's mode list changed: max_mode modes, now in mode. With max_mode 0 there is
 * no text mode (Mode.Mode is -1) and calls that need one fail until the list is back. The
 * cursor is kept inside the mode. */
void text_output_set_modes(struct text_output *t, UINT32 max_mode, UINT32 mode);
/* The device's cursor is at (col,row) by the device's own doing. */
void text_output_moved(struct text_output *t, UINT32 col, UINT32 row);
/* Moves the cursor as OutputString would for string, drawing nothing: EFI_SUCCESS, or
 * EFI_WARN_UNKNOWN_GLYPH when some characters would have been skipped. */
EFI_STATUS text_output_track(struct text_output *t, const CHAR16 *string);

#endif
