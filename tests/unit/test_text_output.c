/* The text output front end (drivers/text_output) over a fake device that records what it
 * is asked: the argument checks of every call in the order of UEFI 2.10 section 12.4, the
 * Mode bookkeeping, OutputString's decoding (runs, control characters, wrapping, scrolling,
 * tabs, unknown characters), a device without a text mode, and the hooks. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/drivers/text_output.h>
#include <ember/lib/text_out.h>
#include <ember/lib/util.h>

/* Modes: 0 is 80x25, 1 a hole (listed, unusable), 2 is 10x3 (small, to wrap and scroll). */
static const UINT32 fake_sizes[][2] = {{80, 25}, {0, 0}, {10, 3}};

struct fake {
	struct text_output text;
	char log[1024];
	UINT32 syncs, refreshes, flushes;
	EFI_STATUS flush_status, op_status; /* what flush and the other operations return */
	bool draw_ok;			    /* draw's answer: the glyphs were known */
	EFI_TPL tpl;			    /* the TPL of the last operation */
	void (*on_sync)(struct fake *f);
};

static struct fake *fake_of(struct text_output *t)
{
	return container_of(t, struct fake, text);
}

static EFI_TPL current_tpl(void)
{
	EFI_TPL tpl = tpl_raise(TPL_HIGH_LEVEL);

	tpl_restore(tpl);
	return tpl;
}

/* Appends "what" and the cursor to the log: "name@col,row ". */
static void note(struct text_output *t, const char *what)
{
	struct fake *f = fake_of(t);
	size_t n = strlen(f->log);

	f->tpl = current_tpl();
	snprintf(f->log + n, sizeof(f->log) - n, "%s@%d,%d ", what, t->mode.CursorColumn,
		 t->mode.CursorRow);
}

static bool f_query(struct text_output *t, UINT32 mode, UINT32 *cols, UINT32 *rows)
{
	*cols = fake_sizes[mode][0];
	*rows = fake_sizes[mode][1];
	return *cols != 0;
}

static void f_sync(struct text_output *t)
{
	fake_of(t)->syncs++;
	if (fake_of(t)->on_sync)
		fake_of(t)->on_sync(fake_of(t));
}

static void f_refresh(struct text_output *t)
{
	fake_of(t)->refreshes++;
}

static bool f_draw(struct text_output *t, const CHAR16 *text, UINT32 n)
{
	char what[64] = "draw:";

	for (UINT32 i = 0; i < n && i < 50; i++)
		what[5 + i] = text[i] < 0x80 ? (char)text[i] : '?';
	what[5 + (n < 50 ? n : 50)] = 0;
	note(t, what);
	return fake_of(t)->draw_ok;
}

static void f_cr(struct text_output *t)
{
	note(t, "cr");
}

static void f_lf(struct text_output *t)
{
	note(t, "lf");
}

static void f_bs(struct text_output *t)
{
	note(t, "bs");
}

static void f_wrap(struct text_output *t)
{
	note(t, "wrap");
}

static void f_scroll(struct text_output *t)
{
	note(t, "scroll");
}

static void f_tab(struct text_output *t, UINT32 next)
{
	char what[16];

	snprintf(what, sizeof(what), "tab:%u", next);
	note(t, what);
}

#define OP(name, word)                                                                             \
	static EFI_STATUS name(struct text_output *t)                                              \
	{                                                                                          \
		note(t, word);                                                                     \
		return fake_of(t)->op_status;                                                      \
	}
OP(f_set_mode, "mode")
OP(f_clear, "clear")
OP(f_set_attribute, "attr")
OP(f_set_cursor, "cur")
OP(f_enable_cursor, "ecur")

static EFI_STATUS f_reset(struct text_output *t, bool extended)
{
	note(t, extended ? "reset:ext" : "reset");
	return fake_of(t)->op_status;
}

static EFI_STATUS f_flush(struct text_output *t)
{
	fake_of(t)->flushes++;
	return fake_of(t)->flush_status;
}

static EFI_STATUS f_test_string(struct text_output *t, const CHAR16 *string)
{
	note(t, "test");
	return fake_of(t)->op_status;
}

static EFI_STATUS f_output_string(struct text_output *t, const CHAR16 *string)
{
	note(t, "string");
	return text_output_track(t, string);
}

/* Every operation there is. */
static const struct text_output_ops full_ops = {
    .query_mode = f_query,
    .sync = f_sync,
    .refresh_modes = f_refresh,
    .draw = f_draw,
    .carriage_return = f_cr,
    .line_feed = f_lf,
    .backspace = f_bs,
    .tab = f_tab,
    .wrap = f_wrap,
    .scroll = f_scroll,
    .test_string = f_test_string,
    .set_mode = f_set_mode,
    .clear = f_clear,
    .set_attribute = f_set_attribute,
    .set_cursor = f_set_cursor,
    .enable_cursor = f_enable_cursor,
    .reset = f_reset,
    .flush = f_flush,
};

/* Only what is required, and the operations whose absence changes what the front end does
 * (no tab: spaces drawn; no set_mode: clear; no reset: the default sequence). */
static const struct text_output_ops lean_ops = {
    .query_mode = f_query,
    .draw = f_draw,
    .clear = f_clear,
    .set_attribute = f_set_attribute,
    .enable_cursor = f_enable_cursor,
};

static struct fake dev;

static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *fresh(const struct text_output_ops *ops, UINT32 mode)
{
	memset(&dev, 0, sizeof(dev));
	dev.draw_ok = true;
	text_output_init(&dev.text, ops, 3, mode);
	return &dev.text.out;
}

/* The log since the last call of this, for comparing. */
static bool logged(const char *want)
{
	bool same = !strcmp(dev.log, want);

	if (!same)
		printf("    log: \"%s\"\n    want: \"%s\"\n", dev.log, want);
	dev.log[0] = 0;
	return same;
}

static bool cursor_at(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out, INT32 col, INT32 row)
{
	if (out->Mode->CursorColumn == col && out->Mode->CursorRow == row)
		return true;
	printf("    cursor at %d,%d, want %d,%d\n", out->Mode->CursorColumn, out->Mode->CursorRow,
	       col, row);
	return false;
}

TEST(text_output_starts_in_its_mode_with_default_colours)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 2);

	EXPECT(out->Mode == &dev.text.mode);
	EXPECT_EQ(out->Mode->MaxMode, 3);
	EXPECT_EQ(out->Mode->Mode, 2);
	EXPECT_EQ(out->Mode->Attribute, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	EXPECT(out->Mode->CursorVisible == TRUE);
	EXPECT(cursor_at(out, 0, 0));
	EXPECT(dev.text.cols == 10 && dev.text.rows == 3);
	EXPECT(text_output_from(out) == &dev.text);
	EXPECT(!text_output_from(NULL));
	EXPECT(logged("")); /* nothing drawn until asked */
}

TEST(text_output_refuses_a_foreign_or_ended_this)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);
	static struct text_output other; /* never initialised: no signature */
	UINTN cols, rows;

	EXPECT(!text_output_from(&other.out));
	EXPECT_STATUS(out->Reset(NULL, FALSE), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->OutputString(NULL, u"x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->TestString(NULL, u"x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->QueryMode(NULL, 0, &cols, &rows), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->SetMode(NULL, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->SetAttribute(NULL, 0x07), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->ClearScreen(NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->SetCursorPosition(NULL, 0, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->EnableCursor(NULL, TRUE), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->OutputString(&other.out, u"x"), EFI_INVALID_PARAMETER);

	/* NULL strings and result pointers, before anything else is looked at. */
	EXPECT_STATUS(out->OutputString(out, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->TestString(out, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->QueryMode(out, 0, NULL, &rows), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->QueryMode(out, 0, &cols, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->QueryMode(out, 99, NULL, NULL), EFI_INVALID_PARAMETER);
	EXPECT_EQ(dev.syncs, 0); /* refused without touching the device */
	EXPECT(logged(""));

	text_output_fini(&dev.text);
	EXPECT(!text_output_from(out));
	EXPECT_STATUS(out->OutputString(out, u"x"), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(out->ClearScreen(out), EFI_INVALID_PARAMETER);
	EXPECT(logged(""));
}

TEST(text_output_query_and_set_mode_check_the_mode_number)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);
	UINTN cols = 7, rows = 7;

	EXPECT_STATUS(out->QueryMode(out, 2, &cols, &rows), EFI_SUCCESS);
	EXPECT(cols == 10 && rows == 3);
	EXPECT_EQ(dev.refreshes, 1);
	cols = rows = 7;
	EXPECT_STATUS(out->QueryMode(out, 1, &cols, &rows), EFI_UNSUPPORTED); /* the hole */
	EXPECT_STATUS(out->QueryMode(out, 3, &cols, &rows), EFI_UNSUPPORTED); /* MaxMode */
	EXPECT_STATUS(out->QueryMode(out, ~(UINTN)0, &cols, &rows), EFI_UNSUPPORTED);
	EXPECT(cols == 7 && rows == 7); /* untouched */

	out->SetCursorPosition(out, 5, 5);
	dev.log[0] = 0;
	EXPECT_STATUS(out->SetMode(out, 1), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetMode(out, 3), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetMode(out, (UINTN)1 << 32), EFI_UNSUPPORTED);
	EXPECT_EQ(out->Mode->Mode, 0);
	EXPECT(cursor_at(out, 5, 5));
	EXPECT(logged("")); /* a refused mode leaves the device alone */

	/* SetMode: the device sees the new mode with the cursor home, even for the same mode. */
	EXPECT_STATUS(out->SetMode(out, 2), EFI_SUCCESS);
	EXPECT_EQ(out->Mode->Mode, 2);
	EXPECT(logged("mode@0,0 "));
	EXPECT(dev.text.cols == 10 && dev.text.rows == 3);
	out->SetCursorPosition(out, 9, 2);
	dev.log[0] = 0;
	EXPECT_STATUS(out->SetMode(out, 2), EFI_SUCCESS);
	EXPECT(logged("mode@0,0 "));
	EXPECT_EQ(dev.refreshes, 9);
	EXPECT(dev.tpl == TPL_NOTIFY);

	/* Without set_mode, the screen is cleared. */
	out = fresh(&lean_ops, 0);
	EXPECT_STATUS(out->SetMode(out, 2), EFI_SUCCESS);
	EXPECT(logged("clear@0,0 "));
}

TEST(text_output_set_attribute_takes_7_bits)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);

	EXPECT_STATUS(out->SetAttribute(out, 0x80), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetAttribute(out, ~(UINTN)0), EFI_UNSUPPORTED);
	EXPECT_EQ(out->Mode->Attribute, 0x07);
	EXPECT(logged(""));
	EXPECT_STATUS(out->SetAttribute(out, 0x7f), EFI_SUCCESS);
	EXPECT_EQ(out->Mode->Attribute, 0x7f);
	EXPECT(logged("attr@0,0 "));
	EXPECT_STATUS(out->SetAttribute(out, 0), EFI_SUCCESS);
	EXPECT_EQ(out->Mode->Attribute, 0);

	/* The device's error is the call's; the attribute is recorded anyway. */
	dev.op_status = EFI_DEVICE_ERROR;
	EXPECT_STATUS(out->SetAttribute(out, 0x1e), EFI_DEVICE_ERROR);
	EXPECT_EQ(out->Mode->Attribute, 0x1e);
}

TEST(text_output_set_cursor_position_is_bounded_by_the_current_mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);

	EXPECT_STATUS(out->SetCursorPosition(out, 79, 24), EFI_SUCCESS);
	EXPECT(logged("cur@79,24 "));
	EXPECT_STATUS(out->SetCursorPosition(out, 80, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetCursorPosition(out, 0, 25), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetCursorPosition(out, ~(UINTN)0, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetCursorPosition(out, (UINTN)1 << 32, 0), EFI_UNSUPPORTED);
	EXPECT(cursor_at(out, 79, 24));
	EXPECT(logged(""));
	out->SetMode(out, 2);
	EXPECT_STATUS(out->SetCursorPosition(out, 10, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetCursorPosition(out, 9, 2), EFI_SUCCESS);
	EXPECT(cursor_at(out, 9, 2));
}

TEST(text_output_clear_enable_cursor_and_reset)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);

	out->SetCursorPosition(out, 3, 4);
	dev.log[0] = 0;
	EXPECT_STATUS(out->ClearScreen(out), EFI_SUCCESS);
	EXPECT(logged("clear@0,0 "));
	EXPECT_STATUS(out->EnableCursor(out, FALSE), EFI_SUCCESS);
	EXPECT(out->Mode->CursorVisible == FALSE);
	EXPECT_STATUS(out->EnableCursor(out, 2), EFI_SUCCESS); /* any non-zero is TRUE */
	EXPECT(out->Mode->CursorVisible == TRUE);
	EXPECT(logged("ecur@0,0 ecur@0,0 "));

	/* Reset: default colours, the cursor shown at (0,0), the mode kept; the device's own
	 * reset when it has one. */
	out->SetMode(out, 2);
	out->SetAttribute(out, 0x1e);
	out->EnableCursor(out, FALSE);
	out->SetCursorPosition(out, 4, 1);
	dev.log[0] = 0;
	EXPECT_STATUS(out->Reset(out, TRUE), EFI_SUCCESS);
	EXPECT(logged("reset:ext@0,0 "));
	EXPECT_EQ(out->Mode->Mode, 2);
	EXPECT_EQ(out->Mode->Attribute, 0x07);
	EXPECT(out->Mode->CursorVisible == TRUE);

	/* Without one: set_attribute, enable_cursor, clear, up to the first failure. */
	out = fresh(&lean_ops, 0);
	out->SetCursorPosition(out, 4, 1);
	EXPECT_STATUS(out->Reset(out, FALSE), EFI_SUCCESS);
	EXPECT(logged("attr@0,0 ecur@0,0 clear@0,0 "));
	dev.op_status = EFI_DEVICE_ERROR;
	EXPECT_STATUS(out->Reset(out, FALSE), EFI_DEVICE_ERROR);
	EXPECT(logged("attr@0,0 "));
	EXPECT_STATUS(out->ClearScreen(out), EFI_DEVICE_ERROR);
}

TEST(text_output_runs_at_tpl_notify_and_flushes_every_call)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);
	UINTN cols, rows;

	out->OutputString(out, u"a");
	EXPECT(dev.tpl == TPL_NOTIFY);
	out->TestString(out, u"a");
	EXPECT(dev.tpl == TPL_NOTIFY);
	out->QueryMode(out, 0, &cols, &rows);
	out->SetMode(out, 0);
	out->SetAttribute(out, 0x07);
	out->ClearScreen(out);
	out->SetCursorPosition(out, 0, 0);
	out->EnableCursor(out, TRUE);
	out->Reset(out, FALSE);
	/* Every call but TestString begins with sync and ends with flush. */
	EXPECT_EQ(dev.syncs, 8);
	EXPECT_EQ(dev.flushes, 8);
	EXPECT_EQ(current_tpl(), TPL_APPLICATION);

	/* A flush error wins over a success or a warning, not over an earlier error. */
	dev.flush_status = EFI_DEVICE_ERROR;
	EXPECT_STATUS(out->OutputString(out, u"a"), EFI_DEVICE_ERROR);
	EXPECT_STATUS(out->OutputString(out, u"\x1b"), EFI_DEVICE_ERROR);
	EXPECT_STATUS(out->SetCursorPosition(out, 99, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->QueryMode(out, 0, &cols, &rows), EFI_DEVICE_ERROR);
	dev.flush_status = EFI_SUCCESS;
}

/* ---- OutputString ---- */

TEST(text_output_hands_runs_to_the_device_and_moves_the_cursor)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);

	EXPECT_STATUS(out->OutputString(out, u""), EFI_SUCCESS);
	EXPECT(logged(""));
	EXPECT_STATUS(out->OutputString(out, u"Hello, \u2502world\r\n"), EFI_SUCCESS);
	EXPECT(logged("draw:Hello, ?world@0,0 cr@13,0 lf@0,0 "));
	EXPECT(cursor_at(out, 0, 1));
	/* LF keeps the column; BS stops at the left edge (nothing for the device there). */
	EXPECT_STATUS(out->OutputString(out, u"ab\n\b\b\b\b"), EFI_SUCCESS);
	EXPECT(logged("draw:ab@0,1 lf@2,1 bs@2,2 bs@1,2 "));
	EXPECT(cursor_at(out, 0, 2));
	/* TAB: the device's tab operation with the next stop, at most the last column. */
	EXPECT_STATUS(out->OutputString(out, u"a\tb\t"), EFI_SUCCESS);
	EXPECT(logged("draw:a@0,2 tab:8@1,2 draw:b@8,2 tab:16@9,2 "));
	out->SetCursorPosition(out, 78, 2);
	dev.log[0] = 0;
	out->OutputString(out, u"\t\t");
	EXPECT(logged("tab:79@78,2 tab:79@79,2 "));
	EXPECT(cursor_at(out, 79, 2));
}

TEST(text_output_wraps_at_the_margin_and_scrolls_at_the_bottom)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 2); /* 10x3 */

	/* A run stops at the margin; the wrap is a CR LF for the cursor. */
	EXPECT_STATUS(out->OutputString(out, u"0123456789abc"), EFI_SUCCESS);
	EXPECT(logged("draw:0123456789@0,0 wrap@10,0 draw:abc@0,1 "));
	EXPECT(cursor_at(out, 3, 1));
	/* At the bottom LF scrolls and the row stays, and so does a wrap. */
	EXPECT_STATUS(out->OutputString(out, u"\n\n\n"), EFI_SUCCESS);
	EXPECT(logged("lf@3,1 lf@3,2 scroll@3,2 lf@3,2 scroll@3,2 "));
	EXPECT(cursor_at(out, 3, 2));
	EXPECT_STATUS(out->OutputString(out, u"defghijk"), EFI_SUCCESS);
	EXPECT(logged("draw:defghij@3,2 wrap@10,2 scroll@0,2 draw:k@0,2 "));
	EXPECT(cursor_at(out, 1, 2));
	/* Exactly up to the margin: the cursor is already on the next line. */
	out->SetCursorPosition(out, 0, 0);
	dev.log[0] = 0;
	out->OutputString(out, u"0123456789");
	EXPECT(logged("draw:0123456789@0,0 wrap@10,0 "));
	EXPECT(cursor_at(out, 0, 1));
}

TEST(text_output_skips_unknown_characters_with_a_warning)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);

	/* Control codes (C0, DEL, C1), lone surrogate halves and non-characters are skipped
	 * and warned about; the width markers are skipped quietly (34.8.2). */
	EXPECT_STATUS(out->OutputString(out, u"a\x1b"
					     u"b\x7f"
					     u"c\x85"
					     u"d\xd800"
					     u"e\xffff"),
		      EFI_WARN_UNKNOWN_GLYPH);
	EXPECT(logged("draw:a@0,0 draw:b@1,0 draw:c@2,0 draw:d@3,0 draw:e@4,0 "));
	EXPECT(cursor_at(out, 5, 0));
	EXPECT_STATUS(out->OutputString(out, u"f\xfff1g\xfff2h\xfffe"), EFI_WARN_UNKNOWN_GLYPH);
	EXPECT_STATUS(out->OutputString(out, u"\xfff1\xfff2"), EFI_SUCCESS);
	EXPECT(cursor_at(out, 8, 0));
	dev.log[0] = 0;
	/* A device without the glyph shows a replacement: the cursor moves, the call warns. */
	dev.draw_ok = false;
	EXPECT_STATUS(out->OutputString(out, u"\u4e00"), EFI_WARN_UNKNOWN_GLYPH);
	EXPECT(cursor_at(out, 9, 0));
	EXPECT(text_out_glyph_known(u'\u2588'));
	EXPECT(!text_out_glyph_known(0xd800));
	EXPECT(!text_out_glyph_known(0xffff));
}

TEST(text_output_draws_tabs_as_spaces_for_a_device_without_tab)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&lean_ops, 0);

	EXPECT_STATUS(out->OutputString(out, u"ab\tc\r\n\t"), EFI_SUCCESS);
	EXPECT(logged("draw:ab@0,0 draw:      @2,0 draw:c@8,0 draw:        @0,1 "));
	EXPECT(cursor_at(out, 8, 1));
	/* In the last column a TAB goes nowhere and draws nothing. */
	out->SetCursorPosition(out, 79, 3);
	EXPECT_STATUS(out->OutputString(out, u"\t"), EFI_SUCCESS);
	EXPECT(logged(""));
	EXPECT(cursor_at(out, 79, 3));
	/* And without wrap or scroll operations the cursor still wraps and stays at the
	 * bottom. */
	out->SetCursorPosition(out, 79, 24);
	EXPECT_STATUS(out->OutputString(out, u"xy\r\n"), EFI_SUCCESS);
	EXPECT(cursor_at(out, 0, 24));
}

TEST(text_output_test_string)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&lean_ops, 0);

	EXPECT_STATUS(out->TestString(out, u""), EFI_SUCCESS);
	EXPECT_STATUS(out->TestString(out, u"box \u250c\u2500\u2510\r\n\b\t"), EFI_SUCCESS);
	EXPECT_STATUS(out->TestString(out, u"narrow\xfff1wide\xfff2"), EFI_SUCCESS);
	EXPECT_STATUS(out->TestString(out, u"esc \x1b"), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->TestString(out, u"\x7f"), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->TestString(out, u"\x85"), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->TestString(out, (CHAR16[]){0xdc00, 0}), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->TestString(out, (CHAR16[]){0xfffe, 0}), EFI_UNSUPPORTED);

	/* The device is asked only about strings every console takes. */
	out = fresh(&full_ops, 0);
	dev.op_status = EFI_UNSUPPORTED;
	EXPECT_STATUS(out->TestString(out, u"\x1b"), EFI_UNSUPPORTED);
	EXPECT(logged(""));
	EXPECT_STATUS(out->TestString(out, u"\u4e00"), EFI_UNSUPPORTED);
	EXPECT(logged("test@0,0 "));
	dev.op_status = EFI_SUCCESS;
	EXPECT_STATUS(out->TestString(out, u"ok"), EFI_SUCCESS);
	EXPECT_EQ(dev.flushes, 0);
}

/* ---- A device without a text mode, and changes behind the front end's back ---- */

static void lose_modes(struct fake *f)
{
	text_output_set_modes(&f->text, 0, 0);
}

TEST(text_output_without_a_text_mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);
	UINTN cols, rows;

	out->SetCursorPosition(out, 40, 20);
	out->SetAttribute(out, 0x1e);
	out->EnableCursor(out, FALSE);
	dev.on_sync = lose_modes; /* the device finds its screen gone at the next call */
	dev.log[0] = 0;
	/* 12.4: Mode is -1; OutputString, ClearScreen and SetCursorPosition are unsupported
	 * without a text mode, Reset is a device error. */
	EXPECT_STATUS(out->OutputString(out, u"x"), EFI_UNSUPPORTED);
	EXPECT_EQ(out->Mode->MaxMode, 0);
	EXPECT_EQ(out->Mode->Mode, -1);
	EXPECT(cursor_at(out, 0, 0));
	EXPECT_STATUS(out->ClearScreen(out), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetCursorPosition(out, 0, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->QueryMode(out, 0, &cols, &rows), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetMode(out, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->Reset(out, FALSE), EFI_DEVICE_ERROR);
	EXPECT_EQ(out->Mode->Attribute, 0x07); /* Reset's state is kept for later */
	EXPECT(out->Mode->CursorVisible);
	EXPECT_STATUS(out->EnableCursor(out, FALSE), EFI_SUCCESS);
	EXPECT_STATUS(out->SetAttribute(out, 0x2f), EFI_SUCCESS);
	EXPECT_STATUS(text_output_track(&dev.text, u"x"), EFI_UNSUPPORTED);
	EXPECT(logged("ecur@0,0 attr@0,0 ")); /* nothing that needs a screen reached the device */

	/* The modes come back: calls work again, in the mode the device reports. */
	dev.on_sync = NULL;
	text_output_set_modes(&dev.text, 3, 2);
	EXPECT_STATUS(out->OutputString(out, u"back"), EFI_SUCCESS);
	EXPECT_EQ(out->Mode->Mode, 2);
	EXPECT(logged("draw:back@0,0 "));
	/* A mode the device cannot use is no text mode either. */
	text_output_set_modes(&dev.text, 3, 1);
	EXPECT_EQ(out->Mode->Mode, -1);
	text_output_set_modes(&dev.text, 3, 7);
	EXPECT_EQ(out->Mode->Mode, -1);
}

TEST(text_output_keeps_the_cursor_inside_the_mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&full_ops, 0);

	out->SetCursorPosition(out, 70, 20);
	text_output_set_modes(&dev.text, 3, 2); /* to 10x3 behind the front end's back */
	EXPECT(cursor_at(out, 9, 2));
	text_output_moved(&dev.text, 4, 1);
	EXPECT(cursor_at(out, 4, 1));
	text_output_moved(&dev.text, 100, ~0u);
	EXPECT(cursor_at(out, 9, 2));
}

TEST(text_output_passes_whole_strings_to_a_device_that_asks)
{
	static const struct text_output_ops pass_ops = {
	    .query_mode = f_query,
	    .draw = f_draw,
	    .output_string = f_output_string,
	};
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = fresh(&pass_ops, 2);

	/* No runs, no control operations: the device follows with text_output_track. */
	EXPECT_STATUS(out->OutputString(out, u"0123456789ab\r\n\n\n\tx\b"), EFI_SUCCESS);
	EXPECT(logged("string@0,0 "));
	EXPECT(cursor_at(out, 8, 2));
	EXPECT_STATUS(out->OutputString(out, u"\x1b"), EFI_WARN_UNKNOWN_GLYPH);
	EXPECT_STATUS(text_output_track(&dev.text, u"\r"), EFI_SUCCESS);
	EXPECT(cursor_at(out, 0, 2));
	EXPECT(logged("string@8,2 "));
}
