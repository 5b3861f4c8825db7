/* EFI_HII_FONT_PROTOCOL (UEFI 2.10, 34.1) with one font, the system font: Ember's built-in
 * 8x16 font, the one the GOP console draws with. GetGlyph and GetFontInfo here, strings
 * drawn in font_image.c. Font packages of the database are not used (see docs/design.md). */
#define LOG_PREFIX "hii: "
#include "font.h"
#include "hii.h"
#include <ember/core/core.h>
#include <ember/core/hii_font.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/font.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define SYSTEM_FOREGROUND                                                                          \
	{                                                                                          \
		0xaa, 0xaa, 0xaa, 0                                                                \
	} /* EFI_LIGHTGRAY, the console's default */
#define SYSTEM_BACKGROUND                                                                          \
	{                                                                                          \
		0x00, 0x00, 0x00, 0                                                                \
	}

/* The one font's handle: GetFontInfo hands out its address. */
static const UINT8 system_font_handle;

void hii_font_colors(const EFI_FONT_DISPLAY_INFO *info, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *fg,
		     EFI_GRAPHICS_OUTPUT_BLT_PIXEL *bg)
{
	const EFI_GRAPHICS_OUTPUT_BLT_PIXEL sys_fg = SYSTEM_FOREGROUND, sys_bg = SYSTEM_BACKGROUND;

	*fg = info && !(info->FontInfoMask & EFI_FONT_INFO_SYS_FORE_COLOR) ? info->ForegroundColor
									   : sys_fg;
	*bg = info && !(info->FontInfoMask & EFI_FONT_INFO_SYS_BACK_COLOR) ? info->BackgroundColor
									   : sys_bg;
}

const UINT8 *hii_font_glyph(CHAR16 c, bool *unknown)
{
	const UINT8 *glyph = font_glyph(c);

	*unknown = !glyph;
	return glyph ? glyph : font_8x16_glyphs[font_8x16_replacement];
}

static EFI_STATUS EFIAPI hii_get_glyph(const EFI_HII_FONT_PROTOCOL *This, CHAR16 Char,
				       const EFI_FONT_DISPLAY_INFO *StringInfo,
				       EFI_IMAGE_OUTPUT **Blt, UINTN *Baseline)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL fg, bg, *pixels;
	EFI_IMAGE_OUTPUT *image;
	bool unknown;
	const UINT8 *glyph = hii_font_glyph(Char, &unknown);

	if (!Blt || *Blt)
		return EFI_INVALID_PARAMETER;
	/* One block, so that the caller's one FreePool frees the pixels too. */
	image = pool_alloc(sizeof(*image) + FONT_WIDTH * FONT_HEIGHT * sizeof(*pixels));
	if (!image)
		return EFI_OUT_OF_RESOURCES;
	pixels = (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)(image + 1);
	hii_font_colors(StringInfo, &fg, &bg);
	for (UINTN y = 0; y < FONT_HEIGHT; y++)
		for (UINTN x = 0; x < FONT_WIDTH; x++)
			pixels[y * FONT_WIDTH + x] = glyph[y] & (0x80 >> x) ? fg : bg;
	image->Width = FONT_WIDTH;
	image->Height = FONT_HEIGHT;
	image->Image.Bitmap = pixels;
	*Blt = image;
	if (Baseline)
		*Baseline = HII_FONT_BASELINE;
	return unknown ? EFI_WARN_UNKNOWN_GLYPH : EFI_SUCCESS;
}

/* Masks that ask for two contradicting things: the system's and any font (or size, style),
 * any size (style) and a resized (restyled) one. */
static bool mask_valid(EFI_FONT_INFO_MASK m)
{
	const EFI_FONT_INFO_MASK pairs[][2] = {{EFI_FONT_INFO_SYS_FONT, EFI_FONT_INFO_ANY_FONT},
					       {EFI_FONT_INFO_SYS_SIZE, EFI_FONT_INFO_ANY_SIZE},
					       {EFI_FONT_INFO_SYS_STYLE, EFI_FONT_INFO_ANY_STYLE},
					       {EFI_FONT_INFO_RESIZE, EFI_FONT_INFO_ANY_SIZE},
					       {EFI_FONT_INFO_RESTYLE, EFI_FONT_INFO_ANY_STYLE}};

	for (UINTN i = 0; i < ARRAY_SIZE(pairs); i++)
		if ((m & pairs[i][0]) && (m & pairs[i][1]))
			return false;
	return true;
}

/* Whether the system font is the one asked for: each of name, size and style matches, or
 * the mask lets the system's or any stand. The font is never resized nor restyled. */
static bool font_matches(const EFI_FONT_DISPLAY_INFO *in)
{
	EFI_FONT_INFO_MASK m = in->FontInfoMask;
	bool name = (m & (EFI_FONT_INFO_SYS_FONT | EFI_FONT_INFO_ANY_FONT)) ||
		    !str16_cmp(in->FontInfo.FontName, HII_FONT_NAME);
	bool size = (m & (EFI_FONT_INFO_SYS_SIZE | EFI_FONT_INFO_ANY_SIZE)) ||
		    in->FontInfo.FontSize == FONT_HEIGHT;
	bool style = (m & (EFI_FONT_INFO_SYS_STYLE | EFI_FONT_INFO_ANY_STYLE)) ||
		     in->FontInfo.FontStyle == EFI_HII_FONT_STYLE_NORMAL;

	return name && size && style;
}

/* The font has a glyph for every character of s. */
static bool has_glyphs(const CHAR16 *s)
{
	for (; *s; s++)
		if (!font_glyph(*s))
			return false;
	return true;
}

/* The system font's description with the colours asked for, in one pool block. */
static EFI_FONT_DISPLAY_INFO *describe(const EFI_FONT_DISPLAY_INFO *in)
{
	UINTN name_size = sizeof(HII_FONT_NAME);
	EFI_FONT_DISPLAY_INFO *out =
	    pool_alloc(offsetof(EFI_FONT_DISPLAY_INFO, FontInfo.FontName) + name_size);

	if (!out)
		return NULL;
	hii_font_colors(in, &out->ForegroundColor, &out->BackgroundColor);
	out->FontInfoMask = in ? in->FontInfoMask : 0;
	out->FontInfo.FontStyle = EFI_HII_FONT_STYLE_NORMAL;
	out->FontInfo.FontSize = FONT_HEIGHT;
	mem_copy(out->FontInfo.FontName, HII_FONT_NAME, name_size);
	return out;
}

static EFI_STATUS EFIAPI hii_get_font_info(const EFI_HII_FONT_PROTOCOL *This,
					   EFI_FONT_HANDLE *FontHandle,
					   const EFI_FONT_DISPLAY_INFO *StringInfoIn,
					   EFI_FONT_DISPLAY_INFO **StringInfoOut,
					   const EFI_STRING String)
{
	EFI_FONT_DISPLAY_INFO *out = NULL;

	if (StringInfoIn && !mask_valid(StringInfoIn->FontInfoMask))
		return EFI_INVALID_PARAMETER;
	/* One font: after it (or after a handle not ours) there is no other. No FontHandle at
	 * all asks for the first font, as EDK2 reads the specification. */
	if ((FontHandle && *FontHandle) || (StringInfoIn && !font_matches(StringInfoIn)) ||
	    (String && !has_glyphs(String))) {
		if (FontHandle)
			*FontHandle = NULL;
		return EFI_NOT_FOUND;
	}
	if (StringInfoOut) {
		out = describe(StringInfoIn);
		if (!out)
			return EFI_OUT_OF_RESOURCES;
		*StringInfoOut = out;
	}
	if (FontHandle)
		*FontHandle = (EFI_FONT_HANDLE)&system_font_handle;
	return EFI_SUCCESS;
}

/* The string's text in language, or in the list's first language when language is NULL or
 * the list has no string package of it; a pool copy in *text. */
static EFI_STATUS get_text(EFI_HII_HANDLE list, EFI_STRING_ID id, const CHAR8 *language,
			   CHAR16 **text)
{
	EFI_HII_STRING_PROTOCOL *sp = &hii_string_protocol;
	CHAR8 languages[64];
	UINTN size = sizeof(languages), n = 0;
	EFI_STATUS status = EFI_INVALID_LANGUAGE;

	if (language)
		status = sp->GetString(sp, language, list, id, NULL, &n, NULL);
	if (status == EFI_INVALID_LANGUAGE || status == EFI_INVALID_PARAMETER) {
		/* GetLanguages lists them ';'-separated: cut after the first. */
		status = sp->GetLanguages(sp, list, languages, &size);
		if (status == EFI_BUFFER_TOO_SMALL || EFI_ERROR(status))
			return status == EFI_BUFFER_TOO_SMALL ? EFI_OUT_OF_RESOURCES : status;
		for (UINTN i = 0; languages[i]; i++)
			if (languages[i] == ';')
				languages[i] = 0;
		language = languages;
		n = 0;
		status = sp->GetString(sp, language, list, id, NULL, &n, NULL);
	}
	if (status != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(status) ? status : EFI_NOT_FOUND;
	*text = pool_alloc(n);
	if (!*text)
		return EFI_OUT_OF_RESOURCES;
	status = sp->GetString(sp, language, list, id, *text, &n, NULL);
	if (EFI_ERROR(status)) {
		pool_free(*text);
		*text = NULL;
	}
	return status;
}

static EFI_STATUS EFIAPI hii_string_id_to_image(const EFI_HII_FONT_PROTOCOL *This,
						EFI_HII_OUT_FLAGS Flags, EFI_HII_HANDLE PackageList,
						EFI_STRING_ID StringId, const CHAR8 *Language,
						const EFI_FONT_DISPLAY_INFO *StringInfo,
						EFI_IMAGE_OUTPUT **Blt, UINTN BltX, UINTN BltY,
						EFI_HII_ROW_INFO **RowInfoArray,
						UINTN *RowInfoArraySize, UINTN *ColumnInfoArray)
{
	CHAR16 *text = NULL;
	EFI_STATUS status;

	if (!Blt || !PackageList)
		return EFI_INVALID_PARAMETER;
	if (!hii_list_lookup(PackageList))
		return EFI_NOT_FOUND;
	status = get_text(PackageList, StringId, Language, &text);
	if (EFI_ERROR(status)) {
		log_debug("StringIdToImage: string %u: %r\n", StringId, status);
		return status == EFI_OUT_OF_RESOURCES ? status : EFI_NOT_FOUND;
	}
	status = hii_string_to_image(This, Flags, text, StringInfo, Blt, BltX, BltY, RowInfoArray,
				     RowInfoArraySize, ColumnInfoArray);
	pool_free(text);
	return status;
}

static EFI_HII_FONT_PROTOCOL hii_font_protocol = {hii_string_to_image, hii_string_id_to_image,
						  hii_get_glyph, hii_get_font_info};

EFI_STATUS hii_font_publish(void)
{
	static EFI_HANDLE handle;
	EFI_STATUS status;

	if (handle)
		return EFI_SUCCESS;
	status = protocol_install(&handle, &efi_hii_font_protocol_guid, &hii_font_protocol);
	if (EFI_ERROR(status))
		log_debug("installing the font protocol: %r\n", status);
	return status;
}

static EFI_STATUS hii_font_init(void)
{
	return hii_font_publish();
}
EMBER_INIT(INIT_EARLY, hii_font_init);
