/* EFI_HII_FONT_PROTOCOL (UEFI 2.10, 34.1): the statuses the specification gives bad
 * arguments, and what any font must do (a glyph for 'A', a string as wide as its glyphs).
 * Sizes are not asserted: each firmware has its own system font. */
#define APP_TEST_SUITE "85_hii_font"
#include "conformance.h"
#include <efi/protocol/hii_font.h>

static EFI_GUID font_guid = EFI_HII_FONT_PROTOCOL_GUID;

static EFI_HII_FONT_PROTOCOL *font(void)
{
	EFI_HII_FONT_PROTOCOL *p = NULL;

	if (!CHECK_STATUS(app_bs->LocateProtocol(&font_guid, NULL, (void **)&p), EFI_SUCCESS))
		return NULL;
	return p;
}

APP_TEST(hii_font_get_glyph)
{
	EFI_HII_FONT_PROTOCOL *f = font();
	EFI_IMAGE_OUTPUT *blt = NULL;

	if (!f)
		return;
	CHECK_STATUS(f->GetGlyph(f, u'A', NULL, NULL, NULL), EFI_INVALID_PARAMETER);
	if (!CHECK_STATUS(f->GetGlyph(f, u'A', NULL, &blt, NULL), EFI_SUCCESS) || !CHECK(blt))
		return;
	CHECK(blt->Width > 0 && blt->Height > 0 && blt->Image.Bitmap);
	/* *Blt must be NULL on entry. */
	CHECK_STATUS(f->GetGlyph(f, u'A', NULL, &blt, NULL), EFI_INVALID_PARAMETER);
	app_bs->FreePool(blt);
}

APP_TEST(hii_font_string_to_image)
{
	EFI_HII_FONT_PROTOCOL *f = font();
	EFI_IMAGE_OUTPUT *glyph = NULL, *blt = NULL;

	if (!f || EFI_ERROR(f->GetGlyph(f, u'A', NULL, &glyph, NULL)) || !glyph)
		return;
	CHECK_STATUS(f->StringToImage(f, 0, NULL, NULL, &blt, 0, 0, NULL, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->StringToImage(f, 0, u"AA", NULL, NULL, 0, 0, NULL, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	if (CHECK_STATUS(f->StringToImage(f, 0, u"AA", NULL, &blt, 0, 0, NULL, NULL, NULL),
			 EFI_SUCCESS) &&
	    CHECK(blt)) {
		/* At least the glyphs: EDK2 makes the new image as wide as the screen. */
		CHECK(blt->Width >= 2 * glyph->Width);
		CHECK(blt->Height >= glyph->Height);
		app_bs->FreePool(blt);
	}
	app_bs->FreePool(glyph);
}

APP_TEST(hii_font_get_font_info)
{
	EFI_HII_FONT_PROTOCOL *f = font();
	EFI_FONT_HANDLE handle = NULL;
	EFI_FONT_DISPLAY_INFO *out = NULL, in;

	if (!f)
		return;
	/* No FontHandle: the first font, as EDK2 reads "or NULL to start with the first". */
	if (CHECK_STATUS(f->GetFontInfo(f, NULL, NULL, &out, NULL), EFI_SUCCESS)) {
		CHECK(out && out->FontInfo.FontSize > 0);
		app_bs->FreePool(out);
	}
	out = NULL;
	if (CHECK_STATUS(f->GetFontInfo(f, &handle, NULL, &out, NULL), EFI_SUCCESS)) {
		CHECK(handle != NULL);
		CHECK(out && out->FontInfo.FontSize > 0);
		app_bs->FreePool(out);
	}
	mem_set(&in, 0, sizeof(in));
	in.FontInfoMask = EFI_FONT_INFO_SYS_FONT | EFI_FONT_INFO_ANY_FONT;
	handle = NULL;
	CHECK_STATUS(f->GetFontInfo(f, &handle, &in, NULL, NULL), EFI_INVALID_PARAMETER);
}

APP_TEST(hii_font_flag_combinations)
{
	EFI_HII_FONT_PROTOCOL *f = font();
	EFI_IMAGE_OUTPUT *blt = NULL;

	if (!f)
		return;
	/* Clean clipping needs clipping; WRAP excludes CLIP_CLEAN_X. */
	CHECK_STATUS(f->StringToImage(f, EFI_HII_OUT_FLAG_CLIP_CLEAN_X, u"A", NULL, &blt, 0, 0,
				      NULL, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->StringToImage(f, EFI_HII_OUT_FLAG_CLIP_CLEAN_Y, u"A", NULL, &blt, 0, 0,
				      NULL, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->StringToImage(f,
				      EFI_HII_OUT_FLAG_CLIP | EFI_HII_OUT_FLAG_WRAP |
					  EFI_HII_OUT_FLAG_CLIP_CLEAN_X,
				      u"A", NULL, &blt, 0, 0, NULL, NULL, NULL),
		     EFI_INVALID_PARAMETER);
	CHECK(blt == NULL);
	/* The screen without the caller's EFI_IMAGE_OUTPUT: EDK2 makes a new image; the
	 * specification does not call it invalid. */
	if (CHECK_STATUS(f->StringToImage(f, EFI_HII_DIRECT_TO_SCREEN, u"A", NULL, &blt, 0, 0, NULL,
					  NULL, NULL),
			 EFI_SUCCESS) &&
	    CHECK(blt != NULL))
		app_bs->FreePool(blt);
}

APP_TEST(hii_font_unknown_glyph_and_string_ids)
{
	EFI_HII_FONT_PROTOCOL *f = font();
	EFI_IMAGE_OUTPUT *blt = NULL;
	UINT8 not_a_list[16] = {0};

	if (!f)
		return;
	/* A private-use character no system font has: the replacement glyph, with a warning. */
	if (CHECK_STATUS(f->GetGlyph(f, 0xe000, NULL, &blt, NULL), EFI_WARN_UNKNOWN_GLYPH) && blt)
		app_bs->FreePool(blt);
	blt = NULL;
	CHECK_STATUS(
	    f->StringIdToImage(f, 0, NULL, 1, (CHAR8 *)"en-US", NULL, &blt, 0, 0, NULL, NULL, NULL),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(f->StringIdToImage(f, 0, (EFI_HII_HANDLE)not_a_list, 1, (CHAR8 *)"en-US", NULL,
					&blt, 0, 0, NULL, NULL, NULL),
		     EFI_NOT_FOUND);
	CHECK(blt == NULL);
}
