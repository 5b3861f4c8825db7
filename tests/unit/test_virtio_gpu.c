/* The virtio GPU driver (drivers/virtio/virtio_gpu_*.c) through the UEFI driver model on a
 * fake virtio GPU (fake_virtio_gpu.c): Supported (virtio-gpu-pci yes, virtio-vga no), the
 * modes from the display information, Blt reaching the screen only through transfer and
 * flush of the changed rectangle, SetMode swapping resources, a device that refuses
 * commands or answers short, and Stop and ExitBootServices giving everything back. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fake_virtio_gpu.h"
#include "virtio_driver_check.h"
#include "../../drivers/virtio/virtio_gpu_spec.h"
#include <efi/protocol/graphics_output.h>
#include <ember/core/core.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

static EFI_DRIVER_BINDING_PROTOCOL *binding(void)
{
	return fake_virtio_driver(u"Virtio GPU Driver");
}

static EFI_GRAPHICS_OUTPUT_PROTOCOL *gop(void)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *g = NULL;

	protocol_locate(&efi_graphics_output_protocol_guid, (void **)&g);
	return g;
}

static struct fake_virtio *start(UINT32 width, UINT32 height)
{
	struct fake_virtio *d = fake_virtio_gpu_create(width, height);

	if (d)
		driver_connect(d->pci->handle, NULL, NULL, true);
	return d;
}

static void stop(struct fake_virtio *d)
{
	UINT32 scanout_before = d->gpu->scanout;

	virtio_check_disconnect(d);
	EXPECT(gop() == NULL);
	/* The driver took the scanout away and gave its resources back before the reset. */
	EXPECT(scanout_before != 0);
	EXPECT_EQ(d->gpu->resources_at_reset, 0);
	EXPECT_EQ(d->gpu->commands[VIRTIO_GPU_CMD_SET_SCANOUT - 0x100] >= 2, true);
	virtio_check_clean(d);
	fake_virtio_destroy(d);
}

static UINT32 screen_at(struct fake_virtio *d, UINT32 x, UINT32 y)
{
	return d->gpu->screen[y * d->gpu->screen_w + x] & 0xffffff;
}

static EFI_STATUS fill(EFI_GRAPHICS_OUTPUT_PROTOCOL *g, UINT32 rgb, UINTN x, UINTN y, UINTN w,
		       UINTN h)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL p = {rgb & 0xff, (rgb >> 8) & 0xff, rgb >> 16, 0};

	return g->Blt(g, &p, EfiBltVideoFill, 0, 0, x, y, w, h, 0);
}

TEST(virtio_gpu_supported_on_virtio_gpu_pci_only)
{
	struct fake_virtio *d = fake_virtio_gpu_create(1280, 800);
	EFI_DRIVER_BINDING_PROTOCOL *db = binding();

	ASSERT(d != NULL && db != NULL);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_SUCCESS);
	/* virtio-vga: the same IDs as a VGA; the QEMU video driver takes its VGA interface. */
	fake_pci_io_config_set(d->pci, 0x0A, 2, 0x0300);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_UNSUPPORTED);
	fake_pci_io_config_set(d->pci, 0x0A, 2, 0x0380);
	fake_virtio_set_ids(d, 0x1af4, 0x1041, 0x1100);
	EXPECT_STATUS(db->Supported(db, d->pci->handle, NULL), EFI_UNSUPPORTED);
	fake_virtio_destroy(d);
}

TEST(virtio_gpu_modes_from_the_display)
{
	struct fake_virtio *d = start(1280, 800);
	static const UINT32 want[][2] = {
	    {1280, 800}, {640, 480}, {800, 600}, {1024, 768}, {1280, 720}};
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *g;
	UINTN size;

	ASSERT(d != NULL);
	g = gop();
	ASSERT(g != NULL);
	ASSERT_EQ(g->Mode->MaxMode, 5);
	EXPECT_EQ(g->Mode->Mode, 0);
	/* Blt only: no framebuffer a program could write without a flush. */
	EXPECT_EQ(g->Mode->Info->PixelFormat, PixelBltOnly);
	EXPECT_EQ(g->Mode->FrameBufferBase, 0);
	EXPECT_EQ(g->Mode->FrameBufferSize, 0);
	for (UINT32 n = 0; n < 5; n++) {
		ASSERT_STATUS(g->QueryMode(g, n, &size, &info), EFI_SUCCESS);
		EXPECT_EQ(info->HorizontalResolution, want[n][0]);
		EXPECT_EQ(info->VerticalResolution, want[n][1]);
		pool_free(info);
	}
	EXPECT_EQ(d->gpu->screen_w, 1280);
	EXPECT_EQ(d->gpu->screen_h, 800);
	EXPECT_EQ(fake_gpu_resources(d->gpu), 1);
	stop(d);
}

TEST(virtio_gpu_blt_reaches_the_screen_by_transfer_and_flush)
{
	struct fake_virtio *d = start(800, 600);
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL block[4];
	EFI_GRAPHICS_OUTPUT_PROTOCOL *g;
	UINT64 before;

	ASSERT(d != NULL);
	g = gop();
	ASSERT(g != NULL);
	before = d->gpu->transferred;
	ASSERT_STATUS(fill(g, 0x123456, 10, 20, 30, 40), EFI_SUCCESS);
	/* Only the changed rectangle travels. */
	EXPECT_EQ(d->gpu->transferred - before, 30 * 40);
	EXPECT_EQ(screen_at(d, 10, 20), 0x123456);
	EXPECT_EQ(screen_at(d, 39, 59), 0x123456);
	EXPECT_EQ(screen_at(d, 40, 59), 0);
	EXPECT_EQ(screen_at(d, 9, 20), 0);
	/* Video to video: the destination is flushed. */
	ASSERT_STATUS(g->Blt(g, NULL, EfiBltVideoToVideo, 10, 20, 700, 500, 30, 40, 0),
		      EFI_SUCCESS);
	EXPECT_EQ(screen_at(d, 729, 539), 0x123456);
	/* Buffer to video, at the bottom right corner. */
	memset(block, 0xff, sizeof(block));
	ASSERT_STATUS(g->Blt(g, block, EfiBltBufferToVideo, 0, 0, 798, 598, 2, 2, 0), EFI_SUCCESS);
	EXPECT_EQ(screen_at(d, 799, 599), 0xffffff);
	/* Reading the screen back needs no device. */
	ASSERT_STATUS(g->Blt(g, block, EfiBltVideoToBltBuffer, 10, 20, 0, 0, 2, 2, 0), EFI_SUCCESS);
	EXPECT_EQ(block[0].Red, 0x12);
	EXPECT_EQ(block[3].Blue, 0x56);
	stop(d);
}

TEST(virtio_gpu_set_mode_swaps_resources)
{
	struct fake_virtio *d = start(1024, 768);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *g;
	UINT32 first;

	ASSERT(d != NULL);
	g = gop();
	ASSERT(g != NULL);
	first = d->gpu->scanout;
	ASSERT_STATUS(fill(g, 0xffffff, 0, 0, 1024, 768), EFI_SUCCESS);
	ASSERT_STATUS(g->SetMode(g, 1), EFI_SUCCESS);
	EXPECT_EQ(g->Mode->Info->HorizontalResolution, 640);
	EXPECT_EQ(d->gpu->screen_w, 640);
	EXPECT(d->gpu->scanout != first && fake_gpu_resource(d->gpu, first) == NULL);
	EXPECT_EQ(fake_gpu_resources(d->gpu), 1);
	/* SetMode clears: the new picture is black on the screen too. */
	EXPECT_EQ(screen_at(d, 639, 479), 0);
	/* A device that refuses the scanout leaves the mode as it was, and nothing behind. */
	d->gpu->fail_type = VIRTIO_GPU_CMD_SET_SCANOUT;
	EXPECT_STATUS(g->SetMode(g, 0), EFI_DEVICE_ERROR);
	EXPECT_EQ(g->Mode->Mode, 1);
	EXPECT_EQ(fake_gpu_resources(d->gpu), 1);
	d->gpu->fail_type = VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING;
	EXPECT_STATUS(g->SetMode(g, 0), EFI_DEVICE_ERROR);
	EXPECT_EQ(fake_gpu_resources(d->gpu), 1);
	d->gpu->fail_type = 0;
	ASSERT_STATUS(g->SetMode(g, 0), EFI_SUCCESS);
	EXPECT_EQ(d->gpu->screen_w, 1024);
	stop(d);
}

TEST(virtio_gpu_display_info_refused_or_out_of_range)
{
	struct fake_virtio *d = fake_virtio_gpu_create(1920, 1080);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *g;

	ASSERT(d != NULL);
	d->gpu->fail_type = VIRTIO_GPU_CMD_GET_DISPLAY_INFO;
	driver_connect(d->pci->handle, NULL, NULL, true);
	g = gop();
	ASSERT(g != NULL);
	/* The usual modes up to 1024x768, 1024x768 first. */
	EXPECT_EQ(g->Mode->MaxMode, 3);
	EXPECT_EQ(g->Mode->Info->HorizontalResolution, 1024);
	stop(d);

	d = fake_virtio_gpu_create(9000, 600);
	ASSERT(d != NULL);
	driver_connect(d->pci->handle, NULL, NULL, true);
	ASSERT(gop() != NULL);
	EXPECT_EQ(gop()->Mode->Info->HorizontalResolution, 1024);
	stop(d);

	d = fake_virtio_gpu_create(1920, 1080);
	ASSERT(d != NULL);
	d->gpu->display_disabled = true;
	driver_connect(d->pci->handle, NULL, NULL, true);
	ASSERT(gop() != NULL);
	EXPECT_EQ(gop()->Mode->Info->HorizontalResolution, 1024);
	stop(d);
}

TEST(virtio_gpu_short_answers_fail_the_start_cleanly)
{
	struct fake_virtio *d = fake_virtio_gpu_create(800, 600);

	ASSERT(d != NULL);
	d->gpu->short_answers = true;
	driver_connect(d->pci->handle, NULL, NULL, true);
	EXPECT(gop() == NULL);
	EXPECT_EQ(fake_gpu_resources(d->gpu), 0);
	virtio_check_clean(d);
	fake_virtio_destroy(d);
}

TEST(virtio_gpu_names_and_exit_boot_services)
{
	struct fake_virtio *d = start(800, 600);
	CHAR16 *name;

	ASSERT(d != NULL && gop() != NULL);
	name = virtio_check_controller_name(binding(), d, NULL);
	EXPECT(name && str16_cmp(name, u"Virtio GPU") == 0);
	virtio_check_exit_boot_services(d);
}
