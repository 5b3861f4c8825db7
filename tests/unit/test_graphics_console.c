/* The graphics console (drivers/graphics_console) bound to a fake GOP in memory: glyphs in
 * the built-in font, colours, scrolling by VideoToVideo, the cursor, and following the GOP
 * into another mode. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/drivers/font.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/simple_text_output.h>

void test_install_builtin_drivers(void);

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define MAX_W 1024
#define MAX_H 768

static const EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
static const EFI_GUID out_guid = EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID;

struct fake_gop {
	EFI_GRAPHICS_OUTPUT_PROTOCOL gop;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	EFI_HANDLE handle;
	pixel fb[MAX_W * MAX_H];
};

static struct fake_gop *fg;

/* The last is too small for 80x25 (640x400): no text mode there. */
static const UINT32 sizes[][2] = {{1024, 768}, {640, 480}, {320, 200}};

static pixel *at(UINTN x, UINTN y)
{
	return &fg->fb[y * fg->info.HorizontalResolution + x];
}

static EFI_STATUS EFIAPI g_query(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode, UINTN *size,
				 EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **info)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI g_set_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 mode)
{
	fg->mode.Mode = mode;
	fg->info.HorizontalResolution = fg->info.PixelsPerScanLine = sizes[mode][0];
	fg->info.VerticalResolution = sizes[mode][1];
	memset(fg->fb, 0, sizeof(fg->fb));
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI g_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, pixel *buf,
			       EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy, UINTN dx,
			       UINTN dy, UINTN w, UINTN h, UINTN delta)
{
	UINTN stride = delta ? delta / sizeof(pixel) : w;

	if (op == EfiBltVideoToVideo) {
		for (UINTN y = 0; y < h; y++) /* upwards copies only, as scrolling does */
			memmove(at(dx, dy + y), at(sx, sy + y), w * sizeof(pixel));
		return EFI_SUCCESS;
	}
	for (UINTN y = 0; y < h; y++)
		for (UINTN x = 0; x < w; x++) {
			if (op == EfiBltVideoFill)
				*at(dx + x, dy + y) = buf[0];
			else if (op == EfiBltBufferToVideo)
				*at(dx + x, dy + y) = buf[(sy + y) * stride + sx + x];
			else
				buf[(dy + y) * stride + dx + x] = *at(sx + x, sy + y);
		}
	return EFI_SUCCESS;
}

/* Installs the fake GOP, in mode, on a new handle (the built-in drivers installed). */
static EFI_STATUS install_gop(UINT32 mode)
{
	test_install_builtin_drivers();
	if (!fg)
		fg = calloc(1, sizeof(*fg));
	fg->gop = (EFI_GRAPHICS_OUTPUT_PROTOCOL){g_query, g_set_mode, g_blt, &fg->mode};
	fg->mode = (EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE){
	    .MaxMode = 3, .Info = &fg->info, .SizeOfInfo = sizeof(fg->info)};
	g_set_mode(&fg->gop, mode);
	fg->handle = NULL;
	return protocol_install(&fg->handle, &gop_guid, &fg->gop);
}

static EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *bind_console(void)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = NULL;

	if (EFI_ERROR(install_gop(0)))
		return NULL;
	driver_connect(fg->handle, NULL, NULL, false);
	protocol_get(fg->handle, &out_guid, (void **)&out);
	return out;
}

static void unbind_console(void)
{
	EXPECT_STATUS(protocol_uninstall(fg->handle, &gop_guid, &fg->gop), EFI_SUCCESS);
}

/* True when the cell shows c in fg/bg (mode 0, centred at x0,y0). */
static bool cell_is(UINTN x0, UINTN y0, UINT32 col, UINT32 row, CHAR16 c, UINT8 fg_gray,
		    UINT8 bg_gray)
{
	const UINT8 *glyph = font_glyph(c);

	for (UINT32 y = 0; y < FONT_HEIGHT; y++)
		for (UINT32 x = 0; x < FONT_WIDTH; x++) {
			pixel p = *at(x0 + col * 8 + x, y0 + row * 16 + y);
			UINT8 want = glyph[y] & (0x80 >> x) ? fg_gray : bg_gray;
			if (p.Red != want || p.Green != want || p.Blue != want)
				return false;
		}
	return true;
}

TEST(graphics_console_draws_scrolls_and_follows_the_gop)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = bind_console();
	UINTN cols, rows, x0 = (1024 - 640) / 2, y0 = (768 - 400) / 2;

	ASSERT(out);
	/* (The console splitter, when a test started it, has taken the console too.) */
	EXPECT_STATUS(out->SetMode(out, 0), EFI_SUCCESS);
	EXPECT_EQ(out->Mode->MaxMode, 4);
	EXPECT_STATUS(out->QueryMode(out, 1, &cols, &rows), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->QueryMode(out, 3, &cols, &rows), EFI_SUCCESS);
	EXPECT(cols == 128 && rows == 48);
	EXPECT_STATUS(out->EnableCursor(out, FALSE), EFI_SUCCESS);
	EXPECT_STATUS(out->OutputString(out, u"Hi\r\n"), EFI_SUCCESS);
	EXPECT(cell_is(x0, y0, 0, 0, 'H', 0xaa, 0));
	EXPECT(cell_is(x0, y0, 1, 0, 'i', 0xaa, 0));
	EXPECT_STATUS(out->SetAttribute(out, EFI_TEXT_ATTR(EFI_WHITE, EFI_LIGHTGRAY)), EFI_SUCCESS);
	EXPECT_STATUS(out->SetCursorPosition(out, 79, 24), EFI_SUCCESS);
	EXPECT_STATUS(out->OutputString(out, u"Z"), EFI_SUCCESS); /* wraps: one scroll */
	EXPECT_EQ(out->Mode->CursorColumn, 0);
	EXPECT_EQ(out->Mode->CursorRow, 24);
	EXPECT(cell_is(x0, y0, 79, 23, 'Z', 0xff, 0xaa));
	EXPECT(!cell_is(x0, y0, 0, 0, 'H', 0xaa, 0)); /* row 0 scrolled away */
	EXPECT_STATUS(out->OutputString(out, u"\x1b"), EFI_WARN_UNKNOWN_GLYPH);
	EXPECT_STATUS(out->TestString(out, u"\u2554\u2550\u2557"), EFI_SUCCESS);
	EXPECT_STATUS(out->TestString(out, u"\x1b"), EFI_UNSUPPORTED);

	/* The cursor is an inverted underline in its cell, and goes again. */
	out->SetAttribute(out, EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK));
	out->ClearScreen(out);
	EXPECT_STATUS(out->EnableCursor(out, TRUE), EFI_SUCCESS);
	EXPECT_EQ(at(x0 + 3, y0 + 15)->Red, 0xff);
	EXPECT_EQ(at(x0 + 3, y0 + 13)->Red, 0);
	out->EnableCursor(out, FALSE);
	EXPECT_EQ(at(x0 + 3, y0 + 15)->Red, 0);

	/* The GOP changes mode behind the console's back: modes for 640x480, mode 0, cleared. */
	g_set_mode(&fg->gop, 1);
	EXPECT_STATUS(out->QueryMode(out, 2, &cols, &rows), EFI_SUCCESS);
	EXPECT(cols == 80 && rows == 30);
	EXPECT_EQ(out->Mode->MaxMode, 3);
	EXPECT_EQ(out->Mode->Mode, 0);
	EXPECT_STATUS(out->OutputString(out, u"ok"), EFI_SUCCESS);
	EXPECT(cell_is((640 - 640) / 2, (480 - 400) / 2, 1, 0, 'k', 0xaa, 0));
	unbind_console();
	EXPECT(!handle_is_valid(fg->handle)); /* SimpleTextOut went with the GOP */
}

/* True when the cursor's underline is drawn in cell (col,row) of mode 0 on 1024x768. */
static bool cursor_in(UINT32 col, UINT32 row)
{
	return at((1024 - 640) / 2 + col * 8 + 3, (768 - 400) / 2 + row * 16 + 15)->Red == 0xff;
}

TEST(graphics_console_cursor_follows_every_call)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = bind_console();

	ASSERT(out);
	EXPECT_STATUS(out->SetMode(out, 0), EFI_SUCCESS);
	EXPECT_STATUS(out->EnableCursor(out, TRUE), EFI_SUCCESS);
	EXPECT(cursor_in(0, 0));
	/* Characters that only move the cursor take it along. */
	EXPECT_STATUS(out->OutputString(out, u"\n"), EFI_SUCCESS);
	EXPECT(cursor_in(0, 1) && !cursor_in(0, 0));
	EXPECT_STATUS(out->OutputString(out, u"ab\b"), EFI_SUCCESS);
	EXPECT(cursor_in(1, 1) && !cursor_in(0, 1));
	EXPECT_STATUS(out->OutputString(out, u"\r"), EFI_SUCCESS);
	EXPECT(cursor_in(0, 1) && !cursor_in(1, 1));
	EXPECT_STATUS(out->SetCursorPosition(out, 5, 5), EFI_SUCCESS);
	EXPECT(cursor_in(5, 5) && !cursor_in(0, 1));
	EXPECT_STATUS(out->EnableCursor(out, FALSE), EFI_SUCCESS);
	EXPECT(!cursor_in(5, 5));
	EXPECT_STATUS(out->SetCursorPosition(out, 6, 6), EFI_SUCCESS);
	EXPECT(!cursor_in(6, 6));
	EXPECT_STATUS(out->EnableCursor(out, TRUE), EFI_SUCCESS);
	EXPECT(cursor_in(6, 6));
	EXPECT_STATUS(out->Reset(out, FALSE), EFI_SUCCESS);
	EXPECT(cursor_in(0, 0) && !cursor_in(6, 6));
	unbind_console();
}

TEST(graphics_console_test_string_and_width_markers)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = bind_console();

	ASSERT(out);
	/* Width markers take no cell and are no unknown glyph (as on every console). */
	EXPECT_STATUS(out->TestString(out, u"a\xfff1"
					   u"b\xfff2"),
		      EFI_SUCCESS);
	EXPECT_STATUS(out->TestString(out, u"\u2554\r\n\t\b"), EFI_SUCCESS);
	/* A character the font lacks is drawn as its replacement glyph, with a warning. */
	EXPECT_STATUS(out->TestString(out, u"\u4e00"), EFI_UNSUPPORTED);
	out->SetCursorPosition(out, 0, 0);
	EXPECT_STATUS(out->OutputString(out, u"\u4e00\xfff1"), EFI_WARN_UNKNOWN_GLYPH);
	EXPECT_EQ(out->Mode->CursorColumn, 1);
	unbind_console();
}

TEST(graphics_console_without_a_text_mode)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = bind_console();
	UINTN cols, rows;

	ASSERT(out);
	/* The GOP goes to 320x200, too small for 80x25: no text mode (UEFI 2.10, 12.4). */
	g_set_mode(&fg->gop, 2);
	EXPECT_STATUS(out->OutputString(out, u"x"), EFI_UNSUPPORTED);
	EXPECT_EQ(out->Mode->MaxMode, 0);
	EXPECT_EQ(out->Mode->Mode, -1);
	EXPECT_STATUS(out->ClearScreen(out), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetCursorPosition(out, 0, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->QueryMode(out, 0, &cols, &rows), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->SetMode(out, 0), EFI_UNSUPPORTED);
	EXPECT_STATUS(out->Reset(out, FALSE), EFI_DEVICE_ERROR);
	EXPECT_STATUS(out->EnableCursor(out, TRUE), EFI_SUCCESS);
	for (UINT32 i = 0; i < 320 * 200; i++) /* nothing was drawn */
		ASSERT(!fg->fb[i].Red && !fg->fb[i].Green && !fg->fb[i].Blue);
	/* Back to a mode with text: mode 0 again, cleared, the cursor home. */
	g_set_mode(&fg->gop, 1);
	EXPECT_STATUS(out->OutputString(out, u"ok"), EFI_SUCCESS);
	EXPECT_EQ(out->Mode->Mode, 0);
	EXPECT_EQ(out->Mode->MaxMode, 3);
	EXPECT(cell_is(0, (480 - 400) / 2, 1, 0, 'k', 0xaa, 0));
	unbind_console();
}

TEST(graphics_console_leaves_a_screen_too_small_alone)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = NULL;

	ASSERT_STATUS(install_gop(2), EFI_SUCCESS);
	driver_connect(fg->handle, NULL, NULL, false);
	EXPECT_STATUS(protocol_get(fg->handle, &out_guid, (void **)&out), EFI_UNSUPPORTED);
	unbind_console();
}
