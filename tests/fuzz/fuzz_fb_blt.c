/* Fuzzes the GOP Blt engine (lib/fb_blt.c): any operation and arguments on a small screen.
 * Input: byte 0 the operation (0-4, 4 invalid), bytes 1-3 width, height and extra stride,
 * then nine 3-byte numbers: SourceX/Y, DestinationX/Y, Width, Height, Delta and the size of
 * the caller's buffer (a number whose first byte has bit 7 set is near the top of UINTN).
 * fb_blt must accept exactly the requests an independent 128-bit check calls valid, and
 * never touch memory outside the screen or the buffer (ASan). */
#include "fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/lib/fb_blt.h>

#define PX 4

typedef unsigned __int128 u128;

static UINTN number(const uint8_t *p)
{
	UINTN low = (UINTN)p[1] << 8 | p[2];

	return p[0] & 0x80 ? ~(UINTN)0 - (low | (UINTN)(p[0] & 0x7f) << 16)
			   : (UINTN)p[0] << 16 | low;
}

static int fits(u128 x, u128 y, u128 w, u128 h, u128 width, u128 height)
{
	return x + w <= width && y + h <= height;
}

struct req {
	unsigned op;
	UINTN a[8]; /* sx sy dx dy w h delta buffer_bytes */
};

/* Whether fb_blt must accept the request, and the buffer bytes it may touch. */
static int valid(const struct req *r, UINT32 width, UINT32 height, u128 *need)
{
	u128 sx = r->a[0], sy = r->a[1], dx = r->a[2], dy = r->a[3], w = r->a[4], h = r->a[5];
	u128 delta = r->a[6] ? r->a[6] : w * PX, bx, by;

	*need = r->op == 0 ? PX : 0;
	if (r->op > 3 || !w || !h || (!r->a[6] && w * PX > UINT64_MAX))
		return 0;
	if (r->op == 0)
		return fits(dx, dy, w, h, width, height);
	if (r->op == 3)
		return fits(sx, sy, w, h, width, height) && fits(dx, dy, w, h, width, height);
	if (!fits(r->op == 1 ? sx : dx, r->op == 1 ? sy : dy, w, h, width, height))
		return 0;
	bx = r->op == 1 ? dx : sx;
	by = r->op == 1 ? dy : sy;
	if (bx + w > delta / PX || (by + h) * delta > INT64_MAX)
		return 0;
	*need = (by + h - 1) * delta + (bx + w) * PX;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct req r;
	UINT32 width, height, stride;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *screen, *buffer;
	struct fb_surface fb;
	EFI_STATUS status;
	u128 need;
	int ok;

	if (size < 4 + 8 * 3)
		return 0;
	r.op = data[0] % 5;
	width = data[1] % 64 + 1;
	height = data[2] % 64 + 1;
	stride = width + data[3] % 8;
	for (int i = 0; i < 8; i++)
		r.a[i] = number(data + 4 + 3 * i);
	r.a[7] %= 1 << 16;
	ok = valid(&r, width, height, &need);
	if (ok && need > r.a[7])
		return 0; /* the caller's buffer would be too small: not fb_blt's to check */
	screen = malloc((size_t)stride * height * PX);
	buffer = malloc(r.a[7] ? r.a[7] : 1);
	memset(screen, 0x11, (size_t)stride * height * PX);
	memset(buffer, 0x22, r.a[7] ? r.a[7] : 1);
	fb = (struct fb_surface){screen, width, height, stride};
	status = fb_blt(&fb, r.a[7] >= PX || r.op == 3 ? buffer : NULL, r.op, r.a[0], r.a[1],
			r.a[2], r.a[3], r.a[4], r.a[5], r.a[6]);
	if ((status == EFI_SUCCESS) != (ok && (r.a[7] >= PX || r.op == 3)))
		abort();
	free(screen);
	free(buffer);
	return 0;
}
