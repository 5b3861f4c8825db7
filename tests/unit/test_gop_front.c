/* The GOP front end (drivers/gop_front) over a fake display: the Mode bookkeeping, the
 * statuses of QueryMode, SetMode and Blt (UEFI 2.10, 12.9.2) before the device is asked,
 * SetMode's clear, and the three kinds of device: a linear framebuffer, a shadow
 * framebuffer that needs flushing, and one that draws every Blt itself. */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/drivers/gop_front.h>
#include <ember/lib/util.h>

typedef EFI_GRAPHICS_OUTPUT_BLT_PIXEL pixel;

#define STRIDE 24 /* mode 0's rows, wider than its 16 pixels */
#define PIXELS (STRIDE * 16)

static const UINT32 sizes[][2] = {{16, 8}, {8, 4}, {32, 16}};

enum fake_kind { LINEAR, SHADOW, BLT_ONLY };

struct fake_screen {
	struct gop_front front;
	enum fake_kind kind;
	bool no_blt_op;		  /* BLT_ONLY without its blt op: a broken driver */
	pixel pixels[PIXELS + 1]; /* one past the picture, to see nothing runs over */
	EFI_STATUS fail_query, fail_set, fail_flush, fail_blt;
	bool black; /* set_mode says the picture is black already */
	UINTN queries, sets, flushes, blts;
	EFI_TPL tpl;		    /* at the last call */
	UINTN flush_rect[4];	    /* x, y, w, h of the last flush */
	struct fb_blt_request last; /* the last request blt saw */
};

static struct fake_screen *fake_of(struct gop_front *front)
{
	return container_of(front, struct fake_screen, front);
}

static EFI_STATUS fake_query(struct gop_front *front, UINT32 n,
			     EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	struct fake_screen *f = fake_of(front);

	f->queries++;
	f->tpl = tpl_current();
	if (EFI_ERROR(f->fail_query))
		return f->fail_query;
	*info = (EFI_GRAPHICS_OUTPUT_MODE_INFORMATION){
	    .HorizontalResolution = sizes[n][0],
	    .VerticalResolution = sizes[n][1],
	    .PixelFormat = f->kind == LINEAR ? PixelBlueGreenRedReserved8BitPerColor : PixelBltOnly,
	    .PixelsPerScanLine = n == 0 ? STRIDE : sizes[n][0],
	};
	return EFI_SUCCESS;
}

static EFI_STATUS fake_set(struct gop_front *front, UINT32 n, struct gop_front_fb *fb)
{
	struct fake_screen *f = fake_of(front);

	f->sets++;
	f->tpl = tpl_current();
	if (EFI_ERROR(f->fail_set))
		return f->fail_set;
	if (n == 2)
		return EFI_DEVICE_ERROR; /* a mode the device lists but refuses */
	fb->pixels = f->kind == BLT_ONLY ? NULL : f->pixels;
	fb->black = f->black;
	return EFI_SUCCESS;
}

static EFI_STATUS fake_flush(struct gop_front *front, UINTN x, UINTN y, UINTN w, UINTN h)
{
	struct fake_screen *f = fake_of(front);

	f->flushes++;
	f->tpl = tpl_current();
	f->flush_rect[0] = x;
	f->flush_rect[1] = y;
	f->flush_rect[2] = w;
	f->flush_rect[3] = h;
	return f->fail_flush;
}

static EFI_STATUS fake_blt(struct gop_front *front, const struct fb_blt_request *r)
{
	struct fake_screen *f = fake_of(front);

	f->blts++;
	f->tpl = tpl_current();
	f->last = *r;
	return f->fail_blt;
}

static const struct gop_front_ops linear_ops = {fake_query, fake_set, NULL, NULL};
static const struct gop_front_ops shadow_ops = {fake_query, fake_set, fake_flush, NULL};
static const struct gop_front_ops blt_only_ops = {fake_query, fake_set, NULL, fake_blt};
static const struct gop_front_ops broken_ops = {fake_query, fake_set, NULL, NULL};

/* A fake screen in pool memory with every pixel set to 0x55, mode 0 current. */
static struct fake_screen *fake_create(enum fake_kind kind)
{
	static const struct gop_front_ops *const ops[] = {&linear_ops, &shadow_ops, &blt_only_ops};
	struct fake_screen *f = pool_alloc(sizeof(*f));

	if (!f)
		return NULL;
	f->kind = kind;
	memset(f->pixels, 0x55, sizeof(f->pixels));
	gop_front_init(&f->front, ops[kind], ARRAY_SIZE(sizes));
	if (EFI_ERROR(gop_front_set_mode(&f->front, 0))) {
		pool_free(f);
		return NULL;
	}
	return f;
}

static void fake_destroy(struct fake_screen *f)
{
	f->front.signature = 0;
	pool_free(f);
}

static UINT32 val(pixel p)
{
	UINT32 v;

	memcpy(&v, &p, sizeof(v));
	return v;
}

/* Pixels of the rectangle with value v, and pixels outside it that still hold 0x55. */
static UINTN count_inside(struct fake_screen *f, UINTN rx, UINTN ry, UINTN rw, UINTN rh, UINT32 v)
{
	UINTN n = 0;

	for (UINTN i = 0; i < PIXELS + 1; i++) {
		UINTN x = i % STRIDE, y = i / STRIDE;
		bool inside = i < PIXELS && x >= rx && x < rx + rw && y >= ry && y < ry + rh;

		n += inside ? val(f->pixels[i]) == v : val(f->pixels[i]) == 0x55555555;
	}
	return n;
}

/* The same for the first n pixels of the array (a mode with packed rows). */
static UINTN count_first(struct fake_screen *f, UINTN n, UINT32 v)
{
	UINTN ok = 0;

	for (UINTN i = 0; i < PIXELS + 1; i++)
		ok += val(f->pixels[i]) == (i < n ? v : 0x55555555);
	return ok;
}

TEST(gop_front_mode_bookkeeping_after_start)
{
	struct fake_screen *f = fake_create(LINEAR);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;

	ASSERT(f != NULL);
	gop = &f->front.gop;
	EXPECT(gop->Mode == &f->front.mode);
	EXPECT_EQ(gop->Mode->MaxMode, 3);
	EXPECT_EQ(gop->Mode->Mode, 0);
	EXPECT(gop->Mode->Info == &f->front.info);
	EXPECT_EQ(gop->Mode->SizeOfInfo, sizeof(EFI_GRAPHICS_OUTPUT_MODE_INFORMATION));
	EXPECT_EQ(gop->Mode->Info->HorizontalResolution, 16);
	EXPECT_EQ(gop->Mode->Info->VerticalResolution, 8);
	EXPECT_EQ(gop->Mode->Info->PixelsPerScanLine, STRIDE);
	EXPECT_EQ(gop->Mode->FrameBufferBase, (uintptr_t)f->pixels);
	EXPECT_EQ(gop->Mode->FrameBufferSize, STRIDE * 8 * sizeof(pixel));
	/* SetMode's clear: the picture is black, the padding of each row untouched. */
	EXPECT_EQ(count_inside(f, 0, 0, 16, 8, 0), PIXELS + 1);
	EXPECT(gop_front_from_gop(gop) == &f->front);
	fake_destroy(f);
}

TEST(gop_front_install_needs_a_mode_and_puts_the_gop_on_a_handle)
{
	static const EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	struct {
		VENDOR_DEVICE_PATH vendor;
		EFI_DEVICE_PATH_PROTOCOL end;
	} path = {{{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(VENDOR_DEVICE_PATH), 0}},
		   {0x1, 0x2, 0x3, {4, 5, 6, 7, 8, 9, 10, 11}}},
		  {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};
	struct fake_screen *f = pool_alloc(sizeof(*f));
	EFI_HANDLE handle = NULL, none = NULL;
	void *found;

	ASSERT(f != NULL);
	gop_front_init(&f->front, &linear_ops, ARRAY_SIZE(sizes));
	EXPECT_STATUS(gop_front_install(&f->front, &none, NULL), EFI_NOT_READY);
	EXPECT(none == NULL);
	ASSERT_STATUS(gop_front_set_mode(&f->front, 1), EFI_SUCCESS);
	ASSERT_STATUS(gop_front_install(&f->front, &handle, &path.vendor.Header), EFI_SUCCESS);
	EXPECT(f->front.handle == handle);
	ASSERT_STATUS(protocol_get(handle, &gop_guid, &found), EFI_SUCCESS);
	EXPECT(found == &f->front.gop);
	EXPECT_STATUS(gop_front_uninstall(&f->front, &path.vendor.Header), EFI_SUCCESS);
	EXPECT(!handle_is_valid(handle));

	/* Without a device path. */
	handle = NULL;
	ASSERT_STATUS(gop_front_install(&f->front, &handle, NULL), EFI_SUCCESS);
	EXPECT_STATUS(protocol_get(handle, &gop_guid, &found), EFI_SUCCESS);
	EXPECT_STATUS(gop_front_uninstall(&f->front, NULL), EFI_SUCCESS);
	EXPECT(!handle_is_valid(handle));
	fake_destroy(f);
}

TEST(gop_front_query_mode)
{
	struct fake_screen *f = fake_create(LINEAR);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop, foreign;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = NULL;
	UINTN size = 0, queries;

	ASSERT(f != NULL);
	gop = &f->front.gop;
	ASSERT_STATUS(gop->QueryMode(gop, 1, &size, &info), EFI_SUCCESS);
	EXPECT_EQ(size, sizeof(*info));
	EXPECT_EQ(info->HorizontalResolution, 8);
	EXPECT_EQ(info->VerticalResolution, 4);
	EXPECT_EQ(f->tpl, TPL_NOTIFY);
	EXPECT(mem_is_allocated(info, sizeof(*info)));
	pool_free(info);
	/* The mode being queried is not made current. */
	EXPECT_EQ(gop->Mode->Mode, 0);
	EXPECT_EQ(gop->Mode->Info->HorizontalResolution, 16);

	/* Refused before the device is asked. */
	queries = f->queries;
	foreign = *gop;
	EXPECT_STATUS(gop->QueryMode(NULL, 0, &size, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(&foreign, 0, &size, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(gop, 0, NULL, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(gop, 0, &size, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(gop, 3, &size, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(gop, 0xFFFFFFFF, &size, &info), EFI_INVALID_PARAMETER);
	EXPECT_EQ(f->queries, queries);

	/* A device that cannot tell: its status, nothing handed out. */
	f->fail_query = EFI_DEVICE_ERROR;
	info = NULL;
	size = 0;
	EXPECT_STATUS(gop->QueryMode(gop, 0, &size, &info), EFI_DEVICE_ERROR);
	EXPECT(info == NULL);
	EXPECT_EQ(size, 0);
	fake_destroy(f);
}

TEST(gop_front_set_mode_statuses_and_clear)
{
	struct fake_screen *f = fake_create(LINEAR);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop, foreign;
	UINTN sets;

	ASSERT(f != NULL);
	gop = &f->front.gop;
	foreign = *gop;
	sets = f->sets;
	EXPECT_STATUS(gop->SetMode(NULL, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->SetMode(&foreign, 0), EFI_INVALID_PARAMETER);
	/* This is checked before the mode number. */
	EXPECT_STATUS(gop->SetMode(&foreign, 3), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->SetMode(gop, 3), EFI_UNSUPPORTED);
	EXPECT_EQ(f->sets, sets);

	/* A mode the device refuses: its status, the old mode stays, nothing is drawn. */
	memset(f->pixels, 0x55, sizeof(f->pixels));
	EXPECT_STATUS(gop->SetMode(gop, 2), EFI_DEVICE_ERROR);
	EXPECT_EQ(gop->Mode->Mode, 0);
	EXPECT_EQ(gop->Mode->Info->HorizontalResolution, 16);
	EXPECT_EQ(count_first(f, 0, 0), PIXELS + 1);
	f->fail_query = EFI_DEVICE_ERROR;
	EXPECT_STATUS(gop->SetMode(gop, 1), EFI_DEVICE_ERROR);
	EXPECT_EQ(gop->Mode->Mode, 0);
	f->fail_query = EFI_SUCCESS;

	/* Mode 1 is 8x4 with packed rows: only those 32 pixels turn black. */
	ASSERT_STATUS(gop->SetMode(gop, 1), EFI_SUCCESS);
	EXPECT_EQ(f->tpl, TPL_NOTIFY);
	EXPECT_EQ(gop->Mode->Mode, 1);
	EXPECT_EQ(gop->Mode->Info->HorizontalResolution, 8);
	EXPECT_EQ(gop->Mode->Info->PixelsPerScanLine, 8);
	EXPECT_EQ(gop->Mode->FrameBufferSize, 8 * 4 * sizeof(pixel));
	EXPECT_EQ(count_first(f, 32, 0), PIXELS + 1);

	/* The same mode again clears again; a device whose picture is black already is not
	 * drawn on. */
	memset(f->pixels, 0x55, sizeof(f->pixels));
	EXPECT_STATUS(gop->SetMode(gop, 1), EFI_SUCCESS);
	EXPECT_EQ(count_first(f, 32, 0), PIXELS + 1);
	memset(f->pixels, 0x55, sizeof(f->pixels));
	f->black = true;
	EXPECT_STATUS(gop->SetMode(gop, 0), EFI_SUCCESS);
	EXPECT_EQ(count_first(f, 0, 0), PIXELS + 1);
	fake_destroy(f);
}

TEST(gop_front_blt_on_the_framebuffer)
{
	struct fake_screen *f = fake_create(LINEAR);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop, foreign;
	pixel white = {0xff, 0xff, 0xff, 0}, row[4];

	ASSERT(f != NULL);
	gop = &f->front.gop;
	foreign = *gop;
	memset(f->pixels, 0x55, sizeof(f->pixels));
	EXPECT_STATUS(gop->Blt(NULL, &white, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->Blt(&foreign, &white, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->Blt(gop, &white, EfiGraphicsOutputBltOperationMax, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	/* The current mode's geometry bounds the rectangle, not the row stride. */
	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 15, 0, 2, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 0, 7, 1, 2, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(count_first(f, 0, 0), PIXELS + 1);

	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 12, 6, 4, 2, 0), EFI_SUCCESS);
	EXPECT_EQ(count_inside(f, 12, 6, 4, 2, 0x00ffffff), PIXELS + 1);
	EXPECT_STATUS(gop->Blt(gop, row, EfiBltVideoToBltBuffer, 12, 6, 0, 0, 4, 1, 0),
		      EFI_SUCCESS);
	EXPECT_EQ(val(row[3]), 0x00ffffff);
	fake_destroy(f);
}

TEST(gop_front_shadow_framebuffer_is_flushed)
{
	struct fake_screen *f = fake_create(SHADOW);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	pixel white = {0xff, 0xff, 0xff, 0}, row[4];
	UINTN flushes;

	ASSERT(f != NULL);
	gop = &f->front.gop;
	/* A picture only the device shows is no framebuffer to callers. */
	EXPECT_EQ(gop->Mode->Info->PixelFormat, PixelBltOnly);
	EXPECT_EQ(gop->Mode->FrameBufferBase, 0);
	EXPECT_EQ(gop->Mode->FrameBufferSize, 0);
	/* Start's clear was flushed whole. */
	EXPECT_EQ(f->flushes, 1);
	EXPECT(f->flush_rect[0] == 0 && f->flush_rect[1] == 0 && f->flush_rect[2] == 16 &&
	       f->flush_rect[3] == 8);

	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 3, 2, 5, 4, 0), EFI_SUCCESS);
	EXPECT_EQ(f->tpl, TPL_NOTIFY);
	EXPECT(f->flush_rect[0] == 3 && f->flush_rect[1] == 2 && f->flush_rect[2] == 5 &&
	       f->flush_rect[3] == 4);
	EXPECT_EQ(val(f->pixels[2 * STRIDE + 3]), 0x00ffffff);
	EXPECT_STATUS(gop->Blt(gop, NULL, EfiBltVideoToVideo, 3, 2, 9, 1, 2, 2, 0), EFI_SUCCESS);
	EXPECT(f->flush_rect[0] == 9 && f->flush_rect[1] == 1 && f->flush_rect[2] == 2 &&
	       f->flush_rect[3] == 2);
	/* Reading changes nothing the device shows; refused requests reach nothing. */
	flushes = f->flushes;
	EXPECT_STATUS(gop->Blt(gop, row, EfiBltVideoToBltBuffer, 3, 2, 0, 0, 4, 1, 0), EFI_SUCCESS);
	EXPECT_STATUS(gop->Blt(gop, row, EfiBltBufferToVideo, 0, 0, 16, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(f->flushes, flushes);
	/* A flush that fails is the Blt's failure. */
	f->fail_flush = EFI_DEVICE_ERROR;
	EXPECT_STATUS(gop->Blt(gop, row, EfiBltBufferToVideo, 0, 0, 0, 0, 4, 1, 0),
		      EFI_DEVICE_ERROR);
	fake_destroy(f);
}

TEST(gop_front_device_without_framebuffer_draws_each_blt)
{
	struct fake_screen *f = fake_create(BLT_ONLY);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	pixel white = {0xff, 0xff, 0xff, 0}, buf[8];
	UINTN blts;

	ASSERT(f != NULL);
	gop = &f->front.gop;
	EXPECT_EQ(gop->Mode->FrameBufferBase, 0);
	EXPECT_EQ(gop->Mode->FrameBufferSize, 0);
	/* SetMode cleared through the device: a black fill of the whole picture. */
	EXPECT_EQ(f->blts, 1);
	EXPECT_EQ(f->last.op, EfiBltVideoFill);
	EXPECT(f->last.dx == 0 && f->last.dy == 0 && f->last.width == 16 && f->last.height == 8);
	EXPECT_EQ(val(f->last.buffer[0]), 0);

	/* Checked requests reach the device with Delta resolved. */
	EXPECT_STATUS(gop->Blt(gop, buf, EfiBltBufferToVideo, 0, 0, 2, 3, 4, 2, 0), EFI_SUCCESS);
	EXPECT_EQ(f->tpl, TPL_NOTIFY);
	EXPECT_EQ(f->last.op, EfiBltBufferToVideo);
	EXPECT(f->last.buffer == buf && f->last.dx == 2 && f->last.dy == 3);
	EXPECT_EQ(f->last.delta, 4 * sizeof(pixel));
	blts = f->blts;
	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 16, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->Blt(gop, NULL, EfiBltBufferToVideo, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(f->blts, blts);
	f->fail_blt = EFI_DEVICE_ERROR;
	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0),
		      EFI_DEVICE_ERROR);
	/* The clear of SetMode fails the same way. */
	EXPECT_STATUS(gop->SetMode(gop, 1), EFI_DEVICE_ERROR);
	fake_destroy(f);
}

TEST(gop_front_skips_black_fills_of_a_black_picture_while_only_the_firmware_ran)
{
	struct fake_screen *f = fake_create(BLT_ONLY);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	pixel black = {0, 0, 0, 0}, red = {0, 0, 0xff, 0}, buf[4];
	UINTN starts = image_starts;

	ASSERT(f != NULL);
	gop = &f->front.gop;
	image_starts = 0;
	EXPECT_EQ(f->blts, 1); /* SetMode's clear */
	EXPECT_STATUS(gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 0, 0, 16, 8, 0), EFI_SUCCESS);
	EXPECT_STATUS(gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 2, 2, 3, 3, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 1);
	/* Reading the picture leaves it black; drawing anything else does not. */
	EXPECT_STATUS(gop->Blt(gop, buf, EfiBltVideoToBltBuffer, 0, 0, 0, 0, 2, 2, 0), EFI_SUCCESS);
	EXPECT_STATUS(gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 0, 0, 16, 8, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 2);
	EXPECT_STATUS(gop->Blt(gop, &red, EfiBltVideoFill, 0, 0, 1, 1, 1, 1, 0), EFI_SUCCESS);
	EXPECT_STATUS(gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 0, 0, 16, 8, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 4);
	/* A fill with another Reserved byte is not the same bytes. */
	EXPECT_STATUS(gop->SetMode(gop, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 5);
	black.Reserved = 1;
	EXPECT_STATUS(gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 0, 0, 16, 8, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 6);
	/* Once a program has run, it may have drawn in the framebuffer behind the GOP's back:
	 * every fill is drawn. */
	black.Reserved = 0;
	EXPECT_STATUS(gop->SetMode(gop, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 7);
	image_starts = 1;
	EXPECT_STATUS(gop->Blt(gop, &black, EfiBltVideoFill, 0, 0, 0, 0, 16, 8, 0), EFI_SUCCESS);
	EXPECT_EQ(f->blts, 8);
	image_starts = starts;
	fake_destroy(f);
}

TEST(gop_front_refuses_a_mode_with_nowhere_to_draw)
{
	struct fake_screen *f = pool_alloc(sizeof(*f));

	ASSERT(f != NULL);
	f->kind = BLT_ONLY;
	gop_front_init(&f->front, &broken_ops, ARRAY_SIZE(sizes));
	EXPECT_STATUS(gop_front_set_mode(&f->front, 0), EFI_DEVICE_ERROR);
	EXPECT_EQ(f->front.mode.Mode, 3);
	fake_destroy(f);
}

TEST(gop_front_from_gop_accepts_only_its_own)
{
	struct fake_screen *f = fake_create(LINEAR);
	EFI_GRAPHICS_OUTPUT_PROTOCOL copy;

	ASSERT(f != NULL);
	copy = f->front.gop;
	EXPECT(gop_front_from_gop(&f->front.gop) == &f->front);
	EXPECT(gop_front_from_gop(NULL) == NULL);
	EXPECT(gop_front_from_gop(&copy) == NULL);
	f->front.signature = 0;
	EXPECT(gop_front_from_gop(&f->front.gop) == NULL);
	pool_free(f);
}
