/* Text output: what ConOut and StdErr do with text, modes, attributes and the cursor.
 * Transcript pieces sit between [name] and [/name] markers for the test to compare. */
#include "console_test.h"

static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *con;

struct pos {
	INT32 col, row;
};

static struct pos at(EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *c)
{
	return (struct pos){c->Mode->CursorColumn, c->Mode->CursorRow};
}

static bool pos_is(struct pos p, INT32 col, INT32 row)
{
	if (p.col == col && p.row == row)
		return true;
	app_print("    cursor at (%d,%d), expected (%d,%d)\n", p.col, p.row, col, row);
	return false;
}

static void text_modes(void)
{
	UINTN cols = 0, rows = 0;

	app_print("text modes: %d, current %d\n", con->Mode->MaxMode, con->Mode->Mode);
	CHECK(con->Mode->MaxMode >= 2);
	CHECK_STATUS(con->QueryMode(con, 0, &cols, &rows), EFI_SUCCESS);
	CHECK(cols == 80 && rows == 25);
	CHECK_STATUS(con->QueryMode(con, 1, &cols, &rows), EFI_SUCCESS);
	CHECK(cols == 80 && rows == 50);
	CHECK_STATUS(con->QueryMode(con, (UINTN)con->Mode->MaxMode, &cols, &rows), EFI_UNSUPPORTED);
	CHECK_STATUS(con->SetMode(con, (UINTN)con->Mode->MaxMode), EFI_UNSUPPORTED);
	CHECK_STATUS(con->SetMode(con, ~(UINTN)0), EFI_UNSUPPORTED);

	CHECK_STATUS(con->SetMode(con, 1), EFI_SUCCESS);
	CHECK_EQ(con->Mode->Mode, 1);
	CHECK(pos_is(at(con), 0, 0));
	CHECK_STATUS(con->SetCursorPosition(con, 79, 49), EFI_SUCCESS);
	CHECK_STATUS(con->SetCursorPosition(con, 0, 50), EFI_UNSUPPORTED);
	CHECK(pos_is(at(con), 79, 49));
	CHECK_STATUS(con->SetMode(con, 0), EFI_SUCCESS);
	CHECK_EQ(con->Mode->Mode, 0);
	CHECK(pos_is(at(con), 0, 0));
}

/* Cursor movement by OutputString (12.4.3); positions are read before anything prints. */
static void text_cursor(void)
{
	struct pos p[12];

	app_print("[cursor]");
	con->ClearScreen(con);
	p[0] = at(con);
	ct_out(con, u"abc");
	p[1] = at(con);
	ct_out(con, u"\b");
	p[2] = at(con);
	ct_out(con, u"\r");
	p[3] = at(con);
	ct_out(con, u"\n");
	p[4] = at(con);
	con->SetCursorPosition(con, 5, 1);
	ct_out(con, u"\n"); /* LF keeps the column */
	p[5] = at(con);
	con->SetCursorPosition(con, 78, 3);
	ct_out(con, u"xyz"); /* wraps after the right edge */
	p[6] = at(con);
	con->SetCursorPosition(con, 0, 24);
	ct_out(con, u"\r\n"); /* scrolls at the bottom */
	p[7] = at(con);
	con->SetCursorPosition(con, 79, 24);
	ct_out(con, u"w"); /* wraps and scrolls */
	p[8] = at(con);
	con->SetCursorPosition(con, 0, 0);
	ct_out(con, u"\b"); /* nothing left of the left edge */
	p[9] = at(con);
	con->SetCursorPosition(con, 0, 5);
	ct_out(con, u"a\tb");
	p[10] = at(con);
	ct_out(con, u"\r\n");
	app_print("[/cursor]\n");

	CHECK(pos_is(p[0], 0, 0));
	CHECK(pos_is(p[1], 3, 0));
	CHECK(pos_is(p[2], 2, 0));
	CHECK(pos_is(p[3], 0, 0));
	CHECK(pos_is(p[4], 0, 1));
	CHECK(pos_is(p[5], 5, 2));
	CHECK(pos_is(p[6], 1, 4));
	CHECK(pos_is(p[7], 0, 24));
	CHECK(pos_is(p[8], 0, 24));
	CHECK(pos_is(p[9], 0, 0));
	CHECK(pos_is(p[10], 9, 5));
}

static void text_set_cursor(void)
{
	struct pos before, after;

	CHECK_STATUS(con->SetCursorPosition(con, 79, 24), EFI_SUCCESS);
	before = at(con);
	CHECK_STATUS(con->SetCursorPosition(con, 80, 0), EFI_UNSUPPORTED);
	CHECK_STATUS(con->SetCursorPosition(con, 0, 25), EFI_UNSUPPORTED);
	CHECK_STATUS(con->SetCursorPosition(con, ~(UINTN)0, 0), EFI_UNSUPPORTED);
	after = at(con);
	CHECK(pos_is(before, 79, 24));
	CHECK(pos_is(after, 79, 24));
	ct_out(con, u"\r\n");
}

static void text_attributes(void)
{
	INT32 set, kept;

	CHECK_EQ(con->Mode->Attribute, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	CHECK_STATUS(con->SetAttribute(con, EFI_TEXT_ATTR(EFI_YELLOW, EFI_BLUE)), EFI_SUCCESS);
	set = con->Mode->Attribute;
	CHECK_STATUS(con->SetAttribute(con, 0x80), EFI_UNSUPPORTED);
	kept = con->Mode->Attribute;
	app_print("[attr]yellow on blue[/attr]\n");
	CHECK_EQ(set, 0x1e);
	CHECK_EQ(kept, 0x1e);
	CHECK_STATUS(con->SetAttribute(con, 0x7f), EFI_SUCCESS);
	CHECK_STATUS(con->SetAttribute(con, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK)), EFI_SUCCESS);

	CHECK_STATUS(con->EnableCursor(con, FALSE), EFI_SUCCESS);
	CHECK(!con->Mode->CursorVisible);
	CHECK_STATUS(con->EnableCursor(con, TRUE), EFI_SUCCESS);
	CHECK(con->Mode->CursorVisible);
}

static void text_glyphs(void)
{
	EFI_STATUS status;

	CHECK_STATUS(con->TestString(con, u"box \u250c\u2500\u2510 \u2191"), EFI_SUCCESS);
	CHECK_STATUS(con->TestString(con, u"tab\tcr\r\nbs\b"), EFI_SUCCESS);
	CHECK_STATUS(con->TestString(con, u"esc \x1b"), EFI_UNSUPPORTED);
	CHECK_STATUS(con->TestString(con, (CHAR16[]){0xd800, 0}), EFI_UNSUPPORTED);

	app_print("[glyph]");
	/* Width markers (34.8.2) take no cell and print nothing either. */
	status = ct_out(con, u"a\x1b"
			     u"b\x7f"
			     u"c\x85"
			     u"d\xfff1\xfff2");
	app_print("[/glyph]\n");
	CHECK_STATUS(status, EFI_WARN_UNKNOWN_GLYPH);

	app_print("[box]\n");
	status = ct_out(con, u"\u250c\u2500\u2500\u2510\r\n"
			     u"\u2502ok\u2502\r\n"
			     u"\u2514\u2500\u2500\u2518\r\n"
			     u"\u2191\u2193\u2588\u2591\u25b2\u25ba\u25bc\u25c4\u2550\u256c\r\n"
			     u"caf\u00e9 \u20ac\r\n");
	app_print("[/box]\n");
	CHECK_STATUS(status, EFI_SUCCESS);
}

/* Line ends as a pipe gets them: CR LF and LF CR are one "\n" even across calls. */
static void text_line_ends(void)
{
	static const CHAR16 *const pieces[] = {
	    u"L1\r\n", u"L2\n", u"\r", u"L3\r", u"\n", u"L4\rX\r\n", u"L5\n\r\n", u"P\r",
	};

	app_print("[lines]");
	for (size_t i = 0; i < ARRAY_SIZE(pieces); i++)
		ct_out(con, pieces[i]);
	app_print("Q\n[/lines]\n");
}

static void text_std_err(void)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *err = app_st->StdErr;
	struct pos con_before, con_after, err_pos;

	if (!CHECK(err && err != con && err->Mode != con->Mode))
		return;
	con->SetCursorPosition(con, 10, 3);
	con_before = at(con);
	CHECK_STATUS(err->ClearScreen(err), EFI_SUCCESS);
	CHECK_STATUS(ct_out(err, u"[err]to stderr \u2502\r\n"), EFI_SUCCESS);
	err_pos = at(err);
	ct_out(err, u"E1\r");
	ct_out(err, u"\nE2\n\r");
	ct_out(err, u"[/err]\r\n");
	con_after = at(con);
	CHECK(pos_is(con_before, 10, 3));
	CHECK(pos_is(con_after, 10, 3));
	CHECK(pos_is(err_pos, 0, 1));
	ct_out(con, u"\r\n");
}

static void text_reset(void)
{
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_WHITE, EFI_RED));
	con->SetCursorPosition(con, 7, 7);
	CHECK_STATUS(con->Reset(con, FALSE), EFI_SUCCESS);
	CHECK_EQ(con->Mode->Attribute, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	CHECK(pos_is(at(con), 0, 0));
	CHECK(con->Mode->CursorVisible);
}

static void text_handles(void)
{
	EFI_GUID in_ex_guid = EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID;
	EFI_GUID in_guid = EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID;
	EFI_GUID out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;
	EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL *ex = NULL;
	void *iface = NULL;

	CHECK_STATUS(app_bs->HandleProtocol(app_st->ConsoleInHandle, &in_guid, &iface),
		     EFI_SUCCESS);
	CHECK(iface == app_st->ConIn);
	CHECK_STATUS(app_bs->HandleProtocol(app_st->ConsoleInHandle, &in_ex_guid, (void **)&ex),
		     EFI_SUCCESS);
	CHECK(ex && ex->WaitForKeyEx && ex->WaitForKeyEx != app_st->ConIn->WaitForKey);
	CHECK_STATUS(app_bs->HandleProtocol(app_st->ConsoleOutHandle, &out_guid, &iface),
		     EFI_SUCCESS);
	CHECK(iface == app_st->ConOut);
	CHECK_STATUS(app_bs->HandleProtocol(app_st->StandardErrorHandle, &out_guid, &iface),
		     EFI_SUCCESS);
	CHECK(iface == app_st->StdErr);
	ct_print_path("conin path", app_st->ConsoleInHandle);
	ct_print_path("conout path", app_st->ConsoleOutHandle);
	ct_print_path("stderr path", app_st->StandardErrorHandle);
}

void ct_text(void)
{
	con = app_st->ConOut;
	text_handles();
	text_modes();
	text_cursor();
	text_set_cursor();
	text_attributes();
	text_glyphs();
	text_line_ends();
	text_std_err();
	text_reset();
}

/* On a terminal: the modes it offers, colours, and a hidden cursor left for ember-run to
 * restore; then the keys typed. */
void ct_terminal(void)
{
	con = app_st->ConOut;
	app_print("text modes: %d, current %d\n", con->Mode->MaxMode, con->Mode->Mode);
	for (INT32 i = 0; i < con->Mode->MaxMode; i++) {
		UINTN cols, rows;
		EFI_STATUS status = con->QueryMode(con, (UINTN)i, &cols, &rows);
		if (EFI_ERROR(status))
			app_print("mode %d: %r\n", i, status);
		else
			app_print("mode %d: %ux%u\n", i, (unsigned)cols, (unsigned)rows);
	}
	CHECK_STATUS(con->SetAttribute(con, EFI_TEXT_ATTR(EFI_LIGHTRED, EFI_BLUE)), EFI_SUCCESS);
	app_print("[red]");
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	app_print("[/red]\n");
	CHECK_STATUS(con->SetCursorPosition(con, 2, 1), EFI_SUCCESS);
	app_print("[at 2,1]\n");
	CHECK_STATUS(con->EnableCursor(con, FALSE), EFI_SUCCESS);
	con->SetAttribute(con, EFI_TEXT_ATTR(EFI_YELLOW, EFI_BLACK));
	app_print("ready\n");
	ct_read_keys(2);
}
