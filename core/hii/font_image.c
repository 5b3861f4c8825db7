/* EFI_HII_FONT_PROTOCOL.StringToImage (UEFI 2.10, 34.1): a string laid out in rows of 8x16
 * cells of the system font, then drawn into the caller's image, a new one, or the screen.
 * Line breaks (CR, LF, CR LF, U+2028, U+2029) start a row unless EFI_HII_IGNORE_LINE_BREAK;
 * EFI_HII_OUT_FLAG_WRAP breaks a row that would pass the image's right edge after its last
 * space (or before the character when it has none); what passes an edge is clipped. */
#define LOG_PREFIX "hii: "
#include "font.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/font.h>
#include <ember/lib/str.h>

#define NOT_SHOWN ((UINTN)-1)
#define KNOWN_FLAGS 0xffu

/* Where each character goes: its x in its row (NOT_SHOWN for breaks and ignored ones). */
struct layout {
	const CHAR16 *text;
	UINTN count;	/* characters, the NUL not included */
	UINTN *x, *row; /* per character */
	UINTN rows;
	UINTN width; /* of the widest row */
};

/* Where drawing goes: the pixels of the rectangle (left, top, w, h) of a canvas. */
struct surface {
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels;
	UINTN left, top, w, h;
	UINTN canvas_w, canvas_h;
};

static bool is_break(CHAR16 c)
{
	return c == 0x0a || c == 0x0d || c == 0x2028 || c == 0x2029;
}

/* Ends the current row (from row_start) before character i: after its last space when it
 * has one, the characters after the space moving to the new row. The new row's start. */
static UINTN wrap(struct layout *l, UINTN row_start, UINTN i, UINTN *x)
{
	UINTN space = i;

	while (space > row_start && l->text[space - 1] != u' ')
		space--;
	if (space == row_start)
		space = i; /* one long word: break inside it */
	l->rows++;
	*x = 0;
	for (UINTN k = space; k < i; k++) {
		l->row[k] = l->rows - 1;
		if (l->x[k] == NOT_SHOWN)
			continue;
		l->x[k] = *x;
		*x += FONT_WIDTH;
	}
	return space;
}

/* Lays the text out; limit is the width rows may take before wrapping (0: no wrapping). */
static void lay_out(struct layout *l, EFI_HII_OUT_FLAGS flags, UINTN limit)
{
	UINTN x = 0, row_start = 0;
	bool unknown;

	l->rows = 1;
	for (UINTN i = 0; i < l->count; i++) {
		CHAR16 c = l->text[i];

		l->x[i] = NOT_SHOWN;
		l->row[i] = l->rows - 1;
		if (is_break(c)) {
			/* CR LF is one break: the CR's. */
			if (!(flags & EFI_HII_IGNORE_LINE_BREAK) &&
			    !(c == 0x0a && i > 0 && l->text[i - 1] == 0x0d)) {
				l->width = MAX(l->width, x);
				l->rows++;
				x = 0;
				row_start = i + 1;
			}
			continue;
		}
		hii_font_glyph(c, &unknown);
		if (unknown && (flags & EFI_HII_IGNORE_IF_NO_GLYPH))
			continue;
		if (limit && x > 0 && x + FONT_WIDTH > limit) {
			l->width = MAX(l->width, x);
			row_start = wrap(l, row_start, i, &x);
			l->row[i] = l->rows - 1;
		}
		l->x[i] = x;
		x += FONT_WIDTH;
	}
	l->width = MAX(l->width, x);
}

static EFI_GRAPHICS_OUTPUT_BLT_PIXEL *at(const struct surface *s, UINTN cx, UINTN cy)
{
	return &s->pixels[(cy - s->top) * s->w + (cx - s->left)];
}

/* Draws one glyph with its cell's top left at canvas (cx, cy), clipped to the surface. */
static void draw_glyph(const struct surface *s, const UINT8 *glyph, UINTN cx, UINTN cy,
		       const EFI_GRAPHICS_OUTPUT_BLT_PIXEL *fg,
		       const EFI_GRAPHICS_OUTPUT_BLT_PIXEL *bg)
{
	for (UINTN y = 0; y < FONT_HEIGHT; y++) {
		if (cy + y < s->top || cy + y >= s->top + s->h)
			continue;
		for (UINTN x = 0; x < FONT_WIDTH; x++) {
			bool on = glyph[y] & (0x80 >> x);

			if (cx + x < s->left || cx + x >= s->left + s->w || (!on && !bg))
				continue;
			*at(s, cx + x, cy + y) = on ? *fg : *bg;
		}
	}
}

/* Draws every character that is shown (clean clipping drops partial cells and rows); its
 * column goes to columns. Returns the number of rows drawn, at least in part. */
static UINTN draw(const struct layout *l, const struct surface *s, EFI_HII_OUT_FLAGS flags,
		  UINTN bx, UINTN by, const EFI_FONT_DISPLAY_INFO *info, UINTN *columns)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL fg, bg;
	bool transparent = flags & EFI_HII_OUT_FLAG_TRANSPARENT, unknown;
	UINTN rows = 0;

	hii_font_colors(info, &fg, &bg);
	for (UINTN i = 0; i < l->count; i++) {
		UINTN cx = bx + l->x[i], cy = by + l->row[i] * FONT_HEIGHT;
		/* bx and by are the caller's: past the canvas, nothing shows (and no sum wraps). */
		bool shown =
		    l->x[i] != NOT_SHOWN && bx < s->canvas_w && by < s->canvas_h &&
		    cx < s->canvas_w && cy < s->canvas_h &&
		    !((flags & EFI_HII_OUT_FLAG_CLIP_CLEAN_X) && cx + FONT_WIDTH > s->canvas_w) &&
		    !((flags & EFI_HII_OUT_FLAG_CLIP_CLEAN_Y) && cy + FONT_HEIGHT > s->canvas_h);

		if (columns)
			columns[i] = shown ? l->x[i] : NOT_SHOWN;
		if (!shown)
			continue;
		draw_glyph(s, hii_font_glyph(l->text[i], &unknown), cx, cy, &fg,
			   transparent ? NULL : &bg);
		rows = MAX(rows, l->row[i] + 1);
	}
	return rows;
}

/* The flags' rules: CLIP_CLEAN_X and _Y need clipping (asked for, or implied by the caller's
 * image), WRAP excludes CLIP_CLEAN_X, DIRECT_TO_SCREEN with the caller's output needs its
 * screen (without one, the text goes to a new image, as EDK2 does). */
static bool flags_valid(EFI_HII_OUT_FLAGS flags, const EFI_IMAGE_OUTPUT *given)
{
	bool clip = given || (flags & EFI_HII_OUT_FLAG_CLIP);

	if (flags & ~KNOWN_FLAGS)
		return false;
	if ((flags & (EFI_HII_OUT_FLAG_CLIP_CLEAN_X | EFI_HII_OUT_FLAG_CLIP_CLEAN_Y)) && !clip)
		return false;
	if ((flags & EFI_HII_OUT_FLAG_WRAP) && (flags & EFI_HII_OUT_FLAG_CLIP_CLEAN_X))
		return false;
	if (flags & EFI_HII_DIRECT_TO_SCREEN)
		return !given || given->Image.Screen;
	return !given || given->Image.Bitmap;
}

/* A new image (header and pixels in one block) that holds the text at (bx, by), filled with
 * the background (transparent: zero). */
static EFI_STATUS new_image(const struct layout *l, UINTN bx, UINTN by,
			    const EFI_FONT_DISPLAY_INFO *info, bool transparent,
			    EFI_IMAGE_OUTPUT **out)
{
	UINTN w = bx + l->width, h = by + l->rows * FONT_HEIGHT;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL fg, bg, *pixels;
	EFI_IMAGE_OUTPUT *image;

	if (bx > 0xffff || by > 0xffff || w > 0xffff || h > 0xffff)
		return EFI_OUT_OF_RESOURCES; /* Width and Height are 16 bits */
	image = pool_alloc(sizeof(*image) + w * h * sizeof(*pixels));
	if (!image)
		return EFI_OUT_OF_RESOURCES;
	pixels = (EFI_GRAPHICS_OUTPUT_BLT_PIXEL *)(image + 1);
	hii_font_colors(info, &fg, &bg);
	if (!transparent)
		for (UINTN i = 0; i < w * h; i++)
			pixels[i] = bg;
	image->Width = (UINT16)w;
	image->Height = (UINT16)h;
	image->Image.Bitmap = pixels;
	*out = image;
	return EFI_SUCCESS;
}

/* Draws on the screen: the rectangle the text covers is read, drawn on and written back. */
static EFI_STATUS draw_on_screen(const struct layout *l, const EFI_IMAGE_OUTPUT *screen,
				 EFI_HII_OUT_FLAGS flags, UINTN bx, UINTN by,
				 const EFI_FONT_DISPLAY_INFO *info, UINTN *columns, UINTN *rows)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = screen->Image.Screen;
	struct surface s = {NULL, bx, by, 0, 0, screen->Width, screen->Height};
	EFI_STATUS status;

	*rows = 0;
	if (bx >= s.canvas_w || by >= s.canvas_h) {
		draw(l, &s, flags, bx, by, info, columns);
		return EFI_SUCCESS;
	}
	s.w = MIN(l->width, s.canvas_w - bx);
	s.h = MIN(l->rows * FONT_HEIGHT, s.canvas_h - by);
	if (!s.w || !s.h) {
		draw(l, &s, flags, bx, by, info, columns);
		return EFI_SUCCESS;
	}
	s.pixels = pool_alloc(s.w * s.h * sizeof(*s.pixels));
	if (!s.pixels)
		return EFI_OUT_OF_RESOURCES;
	status = gop->Blt(gop, s.pixels, EfiBltVideoToBltBuffer, bx, by, 0, 0, s.w, s.h, 0);
	if (!EFI_ERROR(status)) {
		*rows = draw(l, &s, flags, bx, by, info, columns);
		status = gop->Blt(gop, s.pixels, EfiBltBufferToVideo, 0, 0, bx, by, s.w, s.h, 0);
	}
	pool_free(s.pixels);
	return status;
}

/* RowInfoArray: one entry per row drawn, from the layout. */
static EFI_STATUS row_info(const struct layout *l, UINTN rows, EFI_HII_ROW_INFO **out)
{
	EFI_HII_ROW_INFO *info = pool_alloc(MAX(rows, 1) * sizeof(*info));

	if (!info)
		return EFI_OUT_OF_RESOURCES;
	for (UINTN r = 0; r < rows; r++) {
		info[r].StartIndex = NOT_SHOWN;
		info[r].LineHeight = FONT_HEIGHT;
		info[r].BaselineOffset = HII_FONT_BASELINE;
	}
	for (UINTN i = 0; i < l->count; i++) {
		UINTN r = l->row[i];

		if (r >= rows)
			continue;
		if (info[r].StartIndex == NOT_SHOWN)
			info[r].StartIndex = i;
		info[r].EndIndex = i;
		if (l->x[i] != NOT_SHOWN)
			info[r].LineWidth = l->x[i] + FONT_WIDTH;
	}
	for (UINTN r = 0; r < rows; r++)
		if (info[r].StartIndex == NOT_SHOWN)
			info[r].StartIndex = info[r].EndIndex = r ? info[r - 1].EndIndex + 1 : 0;
	*out = info;
	return EFI_SUCCESS;
}

/* Lays out and draws into the caller's image, a new one or the screen; *rows drawn. */
static EFI_STATUS render(struct layout *l, EFI_HII_OUT_FLAGS flags,
			 const EFI_FONT_DISPLAY_INFO *info, EFI_IMAGE_OUTPUT **blt, UINTN bx,
			 UINTN by, UINTN *columns, UINTN *rows)
{
	EFI_IMAGE_OUTPUT *image = *blt;
	bool wrap = image && (flags & EFI_HII_OUT_FLAG_WRAP);
	struct surface s;
	EFI_STATUS status;

	lay_out(l, flags, wrap && bx < image->Width ? image->Width - bx : 0);
	if (image && (flags & EFI_HII_DIRECT_TO_SCREEN))
		return draw_on_screen(l, image, flags, bx, by, info, columns, rows);
	if (!image) {
		status = new_image(l, bx, by, info, flags & EFI_HII_OUT_FLAG_TRANSPARENT, &image);
		if (EFI_ERROR(status))
			return status;
	}
	s = (struct surface){image->Image.Bitmap, 0, 0, image->Width, image->Height, image->Width,
			     image->Height};
	*rows = draw(l, &s, flags, bx, by, info, columns);
	*blt = image;
	return EFI_SUCCESS;
}

EFI_STATUS EFIAPI hii_string_to_image(const EFI_HII_FONT_PROTOCOL *This, EFI_HII_OUT_FLAGS Flags,
				      const EFI_STRING String,
				      const EFI_FONT_DISPLAY_INFO *StringInfo,
				      EFI_IMAGE_OUTPUT **Blt, UINTN BltX, UINTN BltY,
				      EFI_HII_ROW_INFO **RowInfoArray, UINTN *RowInfoArraySize,
				      UINTN *ColumnInfoArray)
{
	struct layout l = {String, 0, NULL, NULL, 0, 0};
	EFI_IMAGE_OUTPUT *given;
	UINTN rows = 0;
	EFI_STATUS status;

	if (!String || !Blt || !flags_valid(Flags, *Blt))
		return EFI_INVALID_PARAMETER;
	given = *Blt;
	l.count = str16_len(String);
	l.x = pool_alloc(MAX(l.count, 1) * 2 * sizeof(UINTN));
	if (!l.x)
		return EFI_OUT_OF_RESOURCES;
	l.row = l.x + MAX(l.count, 1);
	status = render(&l, Flags, StringInfo, Blt, BltX, BltY, ColumnInfoArray, &rows);
	if (!EFI_ERROR(status) && RowInfoArray) {
		status = row_info(&l, rows, RowInfoArray);
		if (EFI_ERROR(status) && !given) {
			pool_free(*Blt);
			*Blt = NULL;
		}
	}
	if (!EFI_ERROR(status) && RowInfoArraySize)
		*RowInfoArraySize = rows;
	pool_free(l.x);
	return status;
}
