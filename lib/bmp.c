/* Windows bitmap parsing (include/ember/lib/bmp.h): the file header ("BM", file size, pixel
 * offset) and the info header (size >= 40, width, height, planes, bits, compression). */
#include <ember/lib/bmp.h>
#include <ember/lib/util.h>

#define BI_RGB 0

static UINT16 le16(const UINT8 *p)
{
	return (UINT16)(p[0] | p[1] << 8);
}

static UINT32 le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

/* The info header's geometry and format; pixel placement is checked by the caller. */
static EFI_STATUS parse_info(const UINT8 *info, struct bmp_image *image)
{
	INT32 width = (INT32)le32(info + 4), height = (INT32)le32(info + 8);
	UINT16 planes = le16(info + 12);
	UINT32 compression = le32(info + 16);

	image->bits = le16(info + 14);
	if (planes != 1 || width <= 0 || height == 0 || height == INT32_MIN)
		return EFI_INVALID_PARAMETER;
	if ((image->bits != 24 && image->bits != 32) || compression != BI_RGB)
		return EFI_UNSUPPORTED;
	image->top_down = height < 0;
	image->width = (UINT32)width;
	image->height = (UINT32)(height < 0 ? -height : height);
	if (image->width > BMP_MAX_SIDE || image->height > BMP_MAX_SIDE)
		return EFI_UNSUPPORTED;
	/* Both sides are at most 8192: no product below overflows 32 bits. */
	image->row_size = (image->width * image->bits / 8 + 3) & ~3u;
	return EFI_SUCCESS;
}

EFI_STATUS bmp_parse(const void *data, UINTN size, struct bmp_image *image)
{
	const UINT8 *p = data;
	UINT32 info_size, offset;
	UINT64 end;
	EFI_STATUS status;

	if (!p || !image || size < BMP_FILE_HEADER_SIZE + BMP_INFO_HEADER_SIZE || p[0] != 'B' ||
	    p[1] != 'M')
		return EFI_INVALID_PARAMETER;
	image->file_size = le32(p + 2);
	offset = le32(p + 10);
	info_size = le32(p + BMP_FILE_HEADER_SIZE);
	if (image->file_size > size || info_size < BMP_INFO_HEADER_SIZE ||
	    info_size > image->file_size - BMP_FILE_HEADER_SIZE)
		return EFI_INVALID_PARAMETER;
	status = parse_info(p + BMP_FILE_HEADER_SIZE, image);
	if (EFI_ERROR(status))
		return status;
	end = (UINT64)offset + (UINT64)image->row_size * image->height;
	if (offset < BMP_FILE_HEADER_SIZE + info_size || end > image->file_size)
		return EFI_INVALID_PARAMETER;
	image->rows = p + offset;
	return EFI_SUCCESS;
}

EFI_STATUS bmp_to_blt(const struct bmp_image *image, EFI_GRAPHICS_OUTPUT_BLT_PIXEL *blt,
		      UINTN count)
{
	UINT32 step = image->bits / 8;

	if (!blt || count != (UINTN)image->width * image->height)
		return EFI_INVALID_PARAMETER;
	for (UINT32 y = 0; y < image->height; y++) {
		UINT32 stored = image->top_down ? y : image->height - 1 - y;
		const UINT8 *src = image->rows + (UINTN)stored * image->row_size;

		for (UINT32 x = 0; x < image->width; x++, src += step) {
			EFI_GRAPHICS_OUTPUT_BLT_PIXEL *d = &blt[(UINTN)y * image->width + x];

			d->Blue = src[0];
			d->Green = src[1];
			d->Red = src[2];
			d->Reserved = 0;
		}
	}
	return EFI_SUCCESS;
}
