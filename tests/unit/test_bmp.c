/* lib/bmp.c: bitmaps built here (24 and 32 bits, bottom-up and top-down, padded rows), the
 * built-in boot logo, and headers that lie: each refused with the status the header names. */
#include <string.h>

#include <ember/core/boot_logo.h>
#include <ember/lib/bmp.h>
#include "support/test.h"

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A w x h bitmap of the given bits; pixel (x, y) (y from the top) is blue x, green y, red
 * 0x80. Returns its size. */
static size_t make(uint8_t *b, int32_t w, int32_t h, uint16_t bits)
{
	uint32_t rows = (uint32_t)(h < 0 ? -h : h), row = ((uint32_t)w * bits / 8 + 3) & ~3u;
	uint32_t size = 54 + row * rows;

	memset(b, 0, size);
	b[0] = 'B';
	b[1] = 'M';
	put32(b + 2, size);
	put32(b + 10, 54);
	put32(b + 14, 40);
	put32(b + 18, (uint32_t)w);
	put32(b + 22, (uint32_t)h);
	put16(b + 26, 1);
	put16(b + 28, bits);
	for (uint32_t y = 0; y < rows; y++) {
		uint32_t stored = h < 0 ? y : rows - 1 - y;
		uint8_t *p = b + 54 + stored * row;
		for (uint32_t x = 0; x < (uint32_t)w; x++, p += bits / 8) {
			p[0] = (uint8_t)x;
			p[1] = (uint8_t)y;
			p[2] = 0x80;
		}
	}
	return size;
}

static uint8_t buf[4096];

static void check_pixels(const struct bmp_image *img)
{
	pixel out[64];

	ASSERT(img->width * img->height <= 64);
	ASSERT_STATUS(bmp_to_blt(img, out, img->width * img->height), EFI_SUCCESS);
	for (uint32_t y = 0; y < img->height; y++)
		for (uint32_t x = 0; x < img->width; x++) {
			pixel p = out[y * img->width + x];
			EXPECT(p.Blue == x && p.Green == y && p.Red == 0x80 && p.Reserved == 0);
		}
}

TEST(bmp_24_bit_bottom_up_with_padded_rows)
{
	struct bmp_image img;
	size_t size = make(buf, 5, 3, 24); /* 15 bytes a row, padded to 16 */

	ASSERT_STATUS(bmp_parse(buf, size, &img), EFI_SUCCESS);
	EXPECT_EQ(img.width, 5);
	EXPECT_EQ(img.height, 3);
	EXPECT_EQ(img.row_size, 16);
	EXPECT_EQ(img.file_size, size);
	EXPECT(!img.top_down);
	check_pixels(&img);
}

TEST(bmp_32_bit_top_down)
{
	struct bmp_image img;
	size_t size = make(buf, 4, -6, 32);

	ASSERT_STATUS(bmp_parse(buf, size, &img), EFI_SUCCESS);
	EXPECT(img.top_down);
	EXPECT_EQ(img.height, 6);
	check_pixels(&img);
}

TEST(bmp_to_blt_wants_exactly_the_image)
{
	struct bmp_image img;
	pixel out[16];

	ASSERT_STATUS(bmp_parse(buf, make(buf, 3, 3, 24), &img), EFI_SUCCESS);
	EXPECT_STATUS(bmp_to_blt(&img, out, 8), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bmp_to_blt(&img, NULL, 9), EFI_INVALID_PARAMETER);
}

TEST(bmp_refuses_bad_headers)
{
	struct bmp_image img;
	size_t size = make(buf, 4, 4, 24);

	EXPECT_STATUS(bmp_parse(buf, size - 1, &img), EFI_INVALID_PARAMETER); /* truncated */
	EXPECT_STATUS(bmp_parse(buf, 53, &img), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(bmp_parse(NULL, size, &img), EFI_INVALID_PARAMETER);
	buf[1] = 'X';
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	buf[1] = 'M';
	put32(buf + 2, 10); /* a file size below the headers */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put32(buf + 2, (uint32_t)size);
	put32(buf + 10, (uint32_t)size - 47); /* pixels run past the end */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put32(buf + 10, 20); /* pixels inside the headers */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put32(buf + 10, 54);
	put32(buf + 14, 0xfffffff0); /* an info header longer than the file */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put32(buf + 14, 40);
	put32(buf + 22, 0x80000000); /* INT32_MIN rows */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put32(buf + 22, 0);
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put32(buf + 22, 4);
	put16(buf + 26, 2); /* planes */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_INVALID_PARAMETER);
	put16(buf + 26, 1);
	ASSERT_STATUS(bmp_parse(buf, size, &img), EFI_SUCCESS);
}

TEST(bmp_refuses_what_it_does_not_handle)
{
	struct bmp_image img;
	size_t size = make(buf, 4, 4, 24);

	put16(buf + 28, 8); /* a palette */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_UNSUPPORTED);
	put16(buf + 28, 24);
	put32(buf + 30, 1); /* RLE8 */
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_UNSUPPORTED);
	put32(buf + 30, 0);
	put32(buf + 18, BMP_MAX_SIDE + 1);
	EXPECT_STATUS(bmp_parse(buf, size, &img), EFI_UNSUPPORTED);
}

TEST(bmp_the_boot_logo_parses)
{
	struct bmp_image img;

	ASSERT_STATUS(bmp_parse(boot_logo_bmp, boot_logo_bmp_size, &img), EFI_SUCCESS);
	EXPECT_EQ(img.bits, 24);
	EXPECT_EQ(img.file_size, boot_logo_bmp_size);
	EXPECT(img.width >= 64 && img.width <= 640 && img.height >= 64 && img.height <= 480);
}
