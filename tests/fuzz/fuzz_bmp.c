/* Fuzzes the BMP parser (lib/bmp.c): any bytes as a bitmap. An image it accepts must lie
 * inside the input (its rows, padded, within the file size, itself within the input), and
 * converting it to GOP pixels must read nothing outside (ASan). */
#include "fuzz.h"
#include <stdlib.h>

#include <ember/lib/bmp.h>

#define MAX_PIXELS (1u << 20) /* converting bigger accepted images only costs time */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bmp_image img;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *blt;
	UINTN count;

	if (EFI_ERROR(bmp_parse(data, size, &img)))
		return 0;
	if (img.file_size > size || img.rows < data ||
	    (size_t)(img.rows - data) + (size_t)img.row_size * img.height > img.file_size ||
	    img.row_size < (size_t)img.width * img.bits / 8)
		abort();
	count = (UINTN)img.width * img.height;
	if (count > MAX_PIXELS)
		return 0;
	blt = malloc(count * sizeof(*blt));
	if (blt && EFI_ERROR(bmp_to_blt(&img, blt, count)))
		abort();
	free(blt);
	return 0;
}
