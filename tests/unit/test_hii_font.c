/* EFI_HII_FONT_PROTOCOL (core/hii/font.c, font_image.c) with the built-in 8x16 font: glyphs
 * in the colours asked for, strings laid out in rows (line breaks, wrapping at spaces,
 * clipping, clean clipping, transparency, glyph-less characters), drawn into new images,
 * the caller's and a screen; the font's description; strings by id; and the status of
 * every bad argument. */
#include <string.h>

#include "support/test.h"
#include "hii_builder.h"
#include <ember/core/core.h>
#include <ember/core/hii.h>
#include <ember/core/hii_font.h>
#include <ember/drivers/font.h>
#include <ember/lib/guids.h>
#include <efi/protocol/hii_database.h>
#include <efi/protocol/hii_font.h>

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define NONE ((UINTN)-1)
#define PUA 0xe000 /* a private-use character: no glyph */

static const pixel fg = {0x10, 0x20, 0x30, 0}, bg = {0x40, 0x50, 0x60, 0};
static const pixel paint = {1, 2, 3, 0};

static EFI_HII_FONT_PROTOCOL *font(void)
{
	EFI_HII_FONT_PROTOCOL *p = NULL;

	hii_font_publish();
	protocol_locate(&efi_hii_font_protocol_guid, (void **)&p);
	return p;
}

static EFI_FONT_DISPLAY_INFO colours(void)
{
	EFI_FONT_DISPLAY_INFO info;

	memset(&info, 0, sizeof(info));
	info.ForegroundColor = fg;
	info.BackgroundColor = bg;
	info.FontInfoMask =
	    EFI_FONT_INFO_SYS_FONT | EFI_FONT_INFO_SYS_SIZE | EFI_FONT_INFO_SYS_STYLE;
	return info;
}

static bool same(pixel a, pixel b)
{
	return a.Red == b.Red && a.Green == b.Green && a.Blue == b.Blue;
}

/* Whether the cell at (x, y) of a w-wide image shows c's glyph in fg on bg (on == NULL:
 * background pixels are not checked). */
static bool cell_is(const pixel *image, UINTN w, UINTN x, UINTN y, CHAR16 c, const pixel *on)
{
	/* c 0: the replacement glyph, drawn for characters the font lacks. */
	const UINT8 *glyph = c ? font_glyph(c) : font_8x16_glyphs[font_8x16_replacement];

	for (UINTN gy = 0; gy < FONT_HEIGHT; gy++)
		for (UINTN gx = 0; gx < FONT_WIDTH; gx++) {
			pixel p = image[(y + gy) * w + x + gx];
			bool lit = glyph[gy] & (0x80 >> gx);

			if (lit ? !same(p, fg) : (on && !same(p, *on)))
				return false;
		}
	return true;
}

TEST(hii_font_get_glyph)
{
	EFI_FONT_DISPLAY_INFO info = colours();
	EFI_IMAGE_OUTPUT *blt = NULL;
	UINTN baseline = 0;

	ASSERT_STATUS(font()->GetGlyph(font(), u'A', &info, &blt, &baseline), EFI_SUCCESS);
	EXPECT_EQ(blt->Width, FONT_WIDTH);
	EXPECT_EQ(blt->Height, FONT_HEIGHT);
	EXPECT_EQ(baseline, 4);
	EXPECT(cell_is(blt->Image.Bitmap, FONT_WIDTH, 0, 0, u'A', &bg));
	pool_free(blt);
	blt = NULL;
	/* No glyph: the replacement character's, with a warning. */
	EXPECT_STATUS(font()->GetGlyph(font(), PUA, &info, &blt, NULL), EFI_WARN_UNKNOWN_GLYPH);
	ASSERT(blt != NULL);
	EXPECT(cell_is(blt->Image.Bitmap, FONT_WIDTH, 0, 0, 0, &bg));
	/* *Blt must be NULL on entry; Blt itself must be given. */
	EXPECT_STATUS(font()->GetGlyph(font(), u'A', &info, &blt, NULL), EFI_INVALID_PARAMETER);
	pool_free(blt);
	EXPECT_STATUS(font()->GetGlyph(font(), u'A', &info, NULL, NULL), EFI_INVALID_PARAMETER);
}

TEST(hii_font_string_to_new_image_with_rows)
{
	EFI_FONT_DISPLAY_INFO info = colours();
	EFI_IMAGE_OUTPUT *blt = NULL;
	EFI_HII_ROW_INFO *rows = NULL;
	UINTN count = 0, columns[6];
	const UINTN want[6] = {0, 8, NONE, 0, 8, 16};

	ASSERT_STATUS(
	    font()->StringToImage(font(), 0, u"Hi\nyou", &info, &blt, 0, 0, &rows, &count, columns),
	    EFI_SUCCESS);
	EXPECT_EQ(blt->Width, 24);
	EXPECT_EQ(blt->Height, 32);
	EXPECT(cell_is(blt->Image.Bitmap, 24, 8, 0, u'i', &bg));
	EXPECT(cell_is(blt->Image.Bitmap, 24, 16, 16, u'u', &bg));
	EXPECT(same(blt->Image.Bitmap[23], bg)); /* past row 0's end: background */
	ASSERT_EQ(count, 2);
	EXPECT_EQ(rows[0].StartIndex, 0);
	EXPECT_EQ(rows[0].EndIndex, 2);
	EXPECT_EQ(rows[0].LineWidth, 16);
	EXPECT_EQ(rows[1].StartIndex, 3);
	EXPECT_EQ(rows[1].EndIndex, 5);
	EXPECT_EQ(rows[1].LineWidth, 24);
	EXPECT_EQ(rows[1].LineHeight, 16);
	EXPECT_EQ(rows[1].BaselineOffset, 4);
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(columns[i], want[i]);
	pool_free(blt);
	pool_free(rows);
}

TEST(hii_font_string_to_image_offset_and_default_colours)
{
	EFI_IMAGE_OUTPUT *blt = NULL;
	const pixel grey = {0xaa, 0xaa, 0xaa, 0}, black = {0, 0, 0, 0};

	/* No StringInfo: the system's light grey on black; BltX/BltY grow the new image. */
	ASSERT_STATUS(font()->StringToImage(font(), 0, u"x", NULL, &blt, 3, 2, NULL, NULL, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(blt->Width, 11);
	EXPECT_EQ(blt->Height, 18);
	for (UINTN y = 0; y < 16; y++)
		for (UINTN x = 0; x < 8; x++) {
			bool lit = font_glyph(u'x')[y] & (0x80 >> x);
			EXPECT(same(blt->Image.Bitmap[(y + 2) * 11 + x + 3], lit ? grey : black));
		}
	pool_free(blt);
}

/* A caller's image of w x h pixels, painted. */
static EFI_IMAGE_OUTPUT *canvas(UINT16 w, UINT16 h)
{
	EFI_IMAGE_OUTPUT *image = pool_alloc(sizeof(*image) + (UINTN)w * h * sizeof(pixel));
	pixel *p = (pixel *)(image + 1);

	for (UINTN i = 0; i < (UINTN)w * h; i++)
		p[i] = paint;
	image->Width = w;
	image->Height = h;
	image->Image.Bitmap = p;
	return image;
}

TEST(hii_font_wraps_at_spaces_and_clips)
{
	EFI_FONT_DISPLAY_INFO info = colours();
	EFI_IMAGE_OUTPUT *blt = canvas(40, 40), *given = blt;
	EFI_HII_ROW_INFO *rows = NULL;
	UINTN count = 0, columns[10];
	const UINTN want[10] = {0, 8, 16, 0, 8, 16, 0, 8, 16, 24};

	/* 5 cells a row: "ab " / "cd " / "efgh"; the third row is cut by the bottom. */
	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_OUT_FLAG_WRAP, u"ab cd efgh", &info,
					    &blt, 0, 0, &rows, &count, columns),
		      EFI_SUCCESS);
	EXPECT(blt == given);
	for (int i = 0; i < 10; i++)
		EXPECT_EQ(columns[i], want[i]);
	ASSERT_EQ(count, 3);
	EXPECT_EQ(rows[1].StartIndex, 3);
	EXPECT_EQ(rows[1].EndIndex, 5);
	EXPECT_EQ(rows[2].StartIndex, 6);
	EXPECT(cell_is(blt->Image.Bitmap, 40, 8, 16, u'd', &bg));
	EXPECT(same(blt->Image.Bitmap[39 * 40 + 39], paint)); /* past "efgh": untouched */
	pool_free(rows);
	/* Clean Y: the cut row is not drawn at all. */
	ASSERT_STATUS(
	    font()->StringToImage(font(), EFI_HII_OUT_FLAG_WRAP | EFI_HII_OUT_FLAG_CLIP_CLEAN_Y,
				  u"ab cd efgh", &info, &blt, 0, 0, NULL, &count, columns),
	    EFI_SUCCESS);
	EXPECT_EQ(count, 2);
	EXPECT_EQ(columns[6], NONE);
	pool_free(blt);
}

TEST(hii_font_clean_x_and_partial_cells)
{
	EFI_FONT_DISPLAY_INFO info = colours();
	EFI_IMAGE_OUTPUT *blt = canvas(20, 16);
	UINTN columns[4];

	/* 'c' at x 16 has 4 of its 8 columns inside: drawn in part, or not with CLEAN_X. */
	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_OUT_FLAG_CLIP, u"abcd", &info, &blt, 0,
					    0, NULL, NULL, columns),
		      EFI_SUCCESS);
	EXPECT_EQ(columns[2], 16);
	EXPECT_EQ(columns[3], NONE);
	EXPECT(same(blt->Image.Bitmap[16], bg)); /* the top row of a cell is blank */
	ASSERT_STATUS(font()->StringToImage(font(),
					    EFI_HII_OUT_FLAG_CLIP | EFI_HII_OUT_FLAG_CLIP_CLEAN_X,
					    u"abcd", &info, &blt, 0, 0, NULL, NULL, columns),
		      EFI_SUCCESS);
	EXPECT_EQ(columns[1], 8);
	EXPECT_EQ(columns[2], NONE);
	pool_free(blt);
	blt = canvas(20, 16);
	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_OUT_FLAG_CLIP_CLEAN_X, u"abcd", &info,
					    &blt, 0, 0, NULL, NULL, columns),
		      EFI_SUCCESS);
	EXPECT(same(blt->Image.Bitmap[16], paint)); /* the caller's image implies clipping */
	/* A position far past the image (a sum that would wrap around): nothing is drawn. */
	pool_free(blt);
	blt = canvas(20, 16);
	ASSERT_STATUS(font()->StringToImage(font(), 0, u"abcd", &info, &blt, (UINTN)-8, 0, NULL,
					    NULL, columns),
		      EFI_SUCCESS);
	EXPECT_EQ(columns[1], NONE);
	for (UINTN i = 0; i < 20 * 16; i++)
		EXPECT(same(blt->Image.Bitmap[i], paint));
	pool_free(blt);
}

TEST(hii_font_transparent_ignored_characters_and_breaks)
{
	EFI_FONT_DISPLAY_INFO info = colours();
	EFI_IMAGE_OUTPUT *blt = canvas(32, 32);
	UINTN columns[5], count;
	const CHAR16 text[] = {u'a', PUA, u'b', 0};

	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_OUT_FLAG_TRANSPARENT, (CHAR16 *)text,
					    &info, &blt, 0, 0, NULL, NULL, columns),
		      EFI_SUCCESS);
	EXPECT(cell_is(blt->Image.Bitmap, 32, 0, 0, u'a', &paint)); /* background kept */
	EXPECT(cell_is(blt->Image.Bitmap, 32, 8, 0, 0, &paint));
	EXPECT_EQ(columns[2], 16);
	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_IGNORE_IF_NO_GLYPH, (CHAR16 *)text,
					    &info, &blt, 0, 0, NULL, NULL, columns),
		      EFI_SUCCESS);
	EXPECT_EQ(columns[1], NONE);
	EXPECT_EQ(columns[2], 8);
	EXPECT(cell_is(blt->Image.Bitmap, 32, 8, 0, u'b', &bg));
	/* CR LF is one break; with IGNORE_LINE_BREAK none. */
	ASSERT_STATUS(
	    font()->StringToImage(font(), 0, u"a\r\nb", &info, &blt, 0, 0, NULL, &count, columns),
	    EFI_SUCCESS);
	EXPECT_EQ(count, 2);
	EXPECT_EQ(columns[3], 0);
	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_IGNORE_LINE_BREAK, u"a\r\nb", &info,
					    &blt, 0, 0, NULL, &count, columns),
		      EFI_SUCCESS);
	EXPECT_EQ(count, 1);
	EXPECT_EQ(columns[3], 8);
	pool_free(blt);
}

TEST(hii_font_string_to_image_bad_arguments)
{
	EFI_IMAGE_OUTPUT *blt = NULL, *given = canvas(16, 16);

	EXPECT_STATUS(font()->StringToImage(font(), 0, NULL, NULL, &blt, 0, 0, NULL, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(font()->StringToImage(font(), 0, u"a", NULL, NULL, 0, 0, NULL, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	/* Clean clipping without clipping, WRAP with CLIP_CLEAN_X, the screen without one, an
	 * unknown flag. */
	EXPECT_STATUS(font()->StringToImage(font(), EFI_HII_OUT_FLAG_CLIP_CLEAN_Y, u"a", NULL, &blt,
					    0, 0, NULL, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(font()->StringToImage(font(),
					    EFI_HII_OUT_FLAG_WRAP | EFI_HII_OUT_FLAG_CLIP_CLEAN_X,
					    u"a", NULL, &given, 0, 0, NULL, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(
	    font()->StringToImage(font(), 0x100, u"a", NULL, &given, 0, 0, NULL, NULL, NULL),
	    EFI_INVALID_PARAMETER);
	EXPECT(blt == NULL);
	/* The screen without the caller's output: a new image (EDK2 does so, OVMF shows). */
	EXPECT_STATUS(font()->StringToImage(font(), EFI_HII_DIRECT_TO_SCREEN, u"a", NULL, &blt, 0,
					    0, NULL, NULL, NULL),
		      EFI_SUCCESS);
	EXPECT(blt && blt->Width == 8 && blt->Height == 16);
	pool_free(blt);
	pool_free(given);
}

/* A 32x32 screen behind a GOP whose Blt copies rectangles in and out. */
static pixel screen[32 * 32];

static EFI_STATUS EFIAPI screen_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *This, pixel *buffer,
				    EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy,
				    UINTN dx, UINTN dy, UINTN w, UINTN h, UINTN delta)
{
	if (sx + w > 32 || sy + h > 32 || dx + w > 32 || dy + h > 32 || delta)
		return EFI_INVALID_PARAMETER;
	for (UINTN y = 0; y < h; y++)
		for (UINTN x = 0; x < w; x++) {
			if (op == EfiBltVideoToBltBuffer)
				buffer[y * w + x] = screen[(sy + y) * 32 + sx + x];
			else if (op == EfiBltBufferToVideo)
				screen[(dy + y) * 32 + dx + x] = buffer[y * w + x];
			else
				return EFI_UNSUPPORTED;
		}
	return EFI_SUCCESS;
}

TEST(hii_font_direct_to_screen)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL gop = {.Blt = screen_blt};
	EFI_IMAGE_OUTPUT out = {32, 32, {.Screen = &gop}}, *blt = &out;
	EFI_FONT_DISPLAY_INFO info = colours();
	UINTN count;

	for (UINTN i = 0; i < 32 * 32; i++)
		screen[i] = paint;
	/* At (20, 10): "ab" fits, "c" is cut by the right edge (24 + 8 > 32 is drawn in part). */
	ASSERT_STATUS(font()->StringToImage(font(), EFI_HII_DIRECT_TO_SCREEN, u"abc", &info, &blt,
					    16, 10, NULL, &count, NULL),
		      EFI_SUCCESS);
	EXPECT(blt == &out);
	EXPECT_EQ(count, 1);
	EXPECT(cell_is(screen, 32, 16, 10, u'a', &bg));
	EXPECT(cell_is(screen, 32, 24, 10, u'b', &bg));
	EXPECT(same(screen[9 * 32 + 16], paint));  /* the row above: untouched */
	EXPECT(same(screen[26 * 32 + 31], paint)); /* below the text: untouched */
}

TEST(hii_font_get_font_info)
{
	EFI_FONT_HANDLE handle = NULL;
	EFI_FONT_DISPLAY_INFO *out = NULL;
	struct {
		EFI_FONT_DISPLAY_INFO info;
		CHAR16 more[16];
	} in;
	const CHAR16 no_glyph[] = {u'a', PUA, 0};

	ASSERT_STATUS(font()->GetFontInfo(font(), &handle, NULL, &out, NULL), EFI_SUCCESS);
	EXPECT(handle != NULL);
	EXPECT_EQ(out->FontInfo.FontSize, 16);
	EXPECT_EQ(out->FontInfo.FontStyle, EFI_HII_FONT_STYLE_NORMAL);
	EXPECT(!memcmp(out->FontInfo.FontName, u"Ember 8x16", sizeof(u"Ember 8x16")));
	pool_free(out);
	/* One font: the next is none. */
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, NULL, NULL, NULL), EFI_NOT_FOUND);
	EXPECT(handle == NULL);
	/* By name, size and style. */
	memset(&in, 0, sizeof(in));
	memcpy(in.info.FontInfo.FontName, u"Ember 8x16", sizeof(u"Ember 8x16"));
	in.info.FontInfo.FontSize = 16;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, u"abc"), EFI_SUCCESS);
	handle = NULL;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, (CHAR16 *)no_glyph),
		      EFI_NOT_FOUND);
	in.info.FontInfo.FontSize = 19;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, NULL), EFI_NOT_FOUND);
	in.info.FontInfoMask = EFI_FONT_INFO_ANY_SIZE;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, NULL), EFI_SUCCESS);
	handle = NULL;
	memcpy(in.info.FontInfo.FontName, u"Courier", sizeof(u"Courier"));
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, NULL), EFI_NOT_FOUND);
	in.info.FontInfoMask |= EFI_FONT_INFO_ANY_FONT;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, NULL), EFI_SUCCESS);
	handle = NULL;
	/* No handle to update: the first font all the same (EDK2 does so, OVMF shows). */
	EXPECT_STATUS(font()->GetFontInfo(font(), NULL, NULL, NULL, NULL), EFI_SUCCESS);
	/* Contradicting masks. */
	in.info.FontInfoMask = EFI_FONT_INFO_SYS_FONT | EFI_FONT_INFO_ANY_FONT;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	in.info.FontInfoMask = EFI_FONT_INFO_RESIZE | EFI_FONT_INFO_ANY_SIZE;
	EXPECT_STATUS(font()->GetFontInfo(font(), &handle, &in.info, NULL, NULL),
		      EFI_INVALID_PARAMETER);
}

TEST(hii_font_string_id_to_image)
{
	static const EFI_GUID guid = {0xf0f0f0f0, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
	static struct hii_builder b;
	EFI_HII_DATABASE_PROTOCOL *db = NULL;
	EFI_FONT_DISPLAY_INFO info = colours();
	EFI_IMAGE_OUTPUT *blt = NULL;
	EFI_HII_HANDLE h;
	UINT8 blocks[64];
	UINT32 n;

	hii_publish();
	ASSERT_STATUS(protocol_locate(&efi_hii_database_protocol_guid, (void **)&db), EFI_SUCCESS);
	hb_begin(&b, &guid);
	n = hb_ucs2_block(blocks, "hello");
	blocks[n++] = EFI_HII_SIBT_END;
	hb_strings(&b, "en-US", blocks, n);
	n = hb_ucs2_block(blocks, "salut");
	blocks[n++] = EFI_HII_SIBT_END;
	hb_strings(&b, "fr-FR", blocks, n);
	hb_end(&b);
	ASSERT_STATUS(db->NewPackageList(db, (void *)b.buf, NULL, &h), EFI_SUCCESS);

	ASSERT_STATUS(font()->StringIdToImage(font(), 0, h, 1, (CHAR8 *)"fr-FR", &info, &blt, 0, 0,
					      NULL, NULL, NULL),
		      EFI_SUCCESS);
	EXPECT_EQ(blt->Width, 40);
	EXPECT(cell_is(blt->Image.Bitmap, 40, 0, 0, u's', &bg));
	pool_free(blt);
	blt = NULL;
	/* No language, or one the list lacks: the list's first. */
	ASSERT_STATUS(
	    font()->StringIdToImage(font(), 0, h, 1, NULL, &info, &blt, 0, 0, NULL, NULL, NULL),
	    EFI_SUCCESS);
	EXPECT(cell_is(blt->Image.Bitmap, 40, 0, 0, u'h', &bg));
	pool_free(blt);
	blt = NULL;
	ASSERT_STATUS(font()->StringIdToImage(font(), 0, h, 1, (CHAR8 *)"de-DE", &info, &blt, 0, 0,
					      NULL, NULL, NULL),
		      EFI_SUCCESS);
	EXPECT(cell_is(blt->Image.Bitmap, 40, 0, 0, u'h', &bg));
	pool_free(blt);
	blt = NULL;
	EXPECT_STATUS(font()->StringIdToImage(font(), 0, h, 7, (CHAR8 *)"en-US", &info, &blt, 0, 0,
					      NULL, NULL, NULL),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(font()->StringIdToImage(font(), 0, (EFI_HII_HANDLE)&b, 1, (CHAR8 *)"en-US",
					      &info, &blt, 0, 0, NULL, NULL, NULL),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(font()->StringIdToImage(font(), 0, NULL, 1, (CHAR8 *)"en-US", &info, &blt, 0,
					      0, NULL, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(font()->StringIdToImage(font(), 0, h, 1, (CHAR8 *)"en-US", &info, NULL, 0, 0,
					      NULL, NULL, NULL),
		      EFI_INVALID_PARAMETER);
	EXPECT(blt == NULL);
	db->RemovePackageList(db, h);
}
