/* Windows bitmap (BMP) images: the boot logo Ember draws and hands to the OS through the ACPI
 * BGRT (which names BMP as its only image type). The parser reads outside data (a BGRT image
 * an app inspects, a logo that could come from a file), so it is bounded by the size it is
 * given and refuses what it does not handle: uncompressed 24- and 32-bit images only, with
 * a BITMAPINFOHEADER or a later, longer info header. */
#ifndef EMBER_BMP_H
#define EMBER_BMP_H

#include <efi/protocol/graphics_output.h>
#include <stdbool.h>

#define BMP_FILE_HEADER_SIZE 14
#define BMP_INFO_HEADER_SIZE 40
#define BMP_MAX_SIDE 8192 /* bigger than any screen; keeps width * height * 4 small */

/* A parsed image; pixels point into the caller's data. */
struct bmp_image {
	UINT32 width, height;
	UINT16 bits;	   /* 24 or 32 */
	bool top_down;	   /* rows stored top first (a negative height) */
	UINT32 row_size;   /* bytes per stored row, padded to 4 */
	UINT32 file_size;  /* the file header's size: what an OS copies from the BGRT */
	const UINT8 *rows; /* the first stored row */
};

/* Checks the size bytes at data and describes the image: EFI_INVALID_PARAMETER when the
 * headers or the pixel array do not fit in size (or in the file header's own size), and
 * EFI_UNSUPPORTED for a valid bitmap of a kind not handled (compressed, palette, too big). */
EFI_STATUS bmp_parse(const void *data, UINTN size, struct bmp_image *image);

/* Converts the image to width * height GOP pixels, top row first (count must be that). */
EFI_STATUS bmp_to_blt(const struct bmp_image *image, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *blt,
		      UINTN count);

#endif
