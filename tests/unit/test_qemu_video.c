/* The QEMU video driver (drivers/qemu_video) on an emulated display (fake_display.c): what
 * Start publishes, the DISPI programming of SetMode, QueryMode/SetMode/Blt statuses, the
 * VRAM limit on modes, the I/O-port fallback, and Stop/Start through the driver model. */
#include <string.h>

#include "support/test.h"
#include "block_dev.h"
#include "fake_display.h"
#include <efi/protocol/component_name2.h>
#include <efi/protocol/graphics_output.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>

#define MIB (1024 * 1024)

static const EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
static const EFI_GUID path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

static const struct fake_display_config std_vga = {0x1234, 0x1111, 0x00, 16 * MIB};

static struct fake_display *start(struct fake_display_config config)
{
	struct fake_display *d;

	test_install_builtin_drivers();
	d = fake_display_create(&config);
	if (d)
		driver_connect(d->handle, NULL, NULL, false);
	return d;
}

/* The GOP handle whose device path extends the device's; NULL if there is none. */
static EFI_HANDLE gop_child(struct fake_display *d, EFI_GRAPHICS_OUTPUT_PROTOCOL **gop)
{
	EFI_HANDLE *handles = NULL, found = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path;
	UINTN count = 0;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &gop_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++)
		if (!EFI_ERROR(protocol_get(handles[i], &path_guid, (void **)&path)) &&
		    dp_starts_with(path, &d->path.root.Header))
			found = handles[i];
	pool_free(handles);
	if (found && gop)
		protocol_get(found, &gop_guid, (void **)gop);
	return found;
}

static UINT32 pixel_at(struct fake_display *d, UINT32 stride, UINT32 x, UINT32 y)
{
	UINT32 v;

	memcpy(&v, d->vram + ((UINTN)y * stride + x) * 4, 4);
	return v;
}

TEST(qemu_video_start_shows_1024x768_on_a_child)
{
	struct fake_display *d = start(std_vga);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	CHAR16 *text;

	ASSERT(gop_child(d, &gop) != NULL);
	EXPECT_EQ(gop->Mode->MaxMode, 16);
	EXPECT_EQ(gop->Mode->Mode, 0);
	EXPECT_EQ(gop->Mode->SizeOfInfo, sizeof(EFI_GRAPHICS_OUTPUT_MODE_INFORMATION));
	EXPECT_EQ(gop->Mode->Info->HorizontalResolution, 1024);
	EXPECT_EQ(gop->Mode->Info->VerticalResolution, 768);
	EXPECT_EQ(gop->Mode->Info->PixelsPerScanLine, 1024);
	EXPECT_EQ(gop->Mode->Info->PixelFormat, PixelBlueGreenRedReserved8BitPerColor);
	EXPECT_EQ(gop->Mode->FrameBufferBase, (uintptr_t)d->vram);
	EXPECT_EQ(gop->Mode->FrameBufferSize, 1024 * 768 * 4);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 1024);
	EXPECT_EQ(d->dispi[FAKE_DISPI_YRES], 768);
	EXPECT_EQ(d->dispi[FAKE_DISPI_BPP], 32);
	EXPECT_EQ(d->dispi[FAKE_DISPI_VIRT_WIDTH], 1024);
	EXPECT_EQ(d->dispi[FAKE_DISPI_ENABLE], 0xC1);
	EXPECT_EQ(d->ar_index, 0x20);
	EXPECT(d->attributes & EFI_PCI_IO_ATTRIBUTE_MEMORY);
	EXPECT_EQ(pixel_at(d, 1024, 1023, 767), 0);
	ASSERT_STATUS(protocol_get(gop_child(d, NULL), &path_guid, (void **)&path), EFI_SUCCESS);
	text = dp_to_text(path, false, false);
	EXPECT(text && str16_cmp(text, u"PciRoot(0x0)/Pci(0x2,0x0)/AcpiAdr(0x80010100)") == 0);
	pool_free(text);
	fake_display_destroy(d);
}

TEST(qemu_video_set_mode_programs_the_device_and_clears)
{
	struct fake_display *d = start(std_vga);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL white = {0xff, 0xff, 0xff, 0};
	UINTN size = 800 * 600 * 4;

	ASSERT(gop_child(d, &gop) != NULL);
	memset(d->vram, 0x77, 2 * MIB);
	ASSERT_STATUS(gop->SetMode(gop, 2), EFI_SUCCESS);
	EXPECT_EQ(gop->Mode->Mode, 2);
	EXPECT_EQ(gop->Mode->Info->HorizontalResolution, 800);
	EXPECT_EQ(gop->Mode->Info->VerticalResolution, 600);
	EXPECT_EQ(gop->Mode->FrameBufferSize, size);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 800);
	EXPECT_EQ(d->dispi[FAKE_DISPI_YRES], 600);
	EXPECT_EQ(d->dispi[FAKE_DISPI_VIRT_WIDTH], 800);
	EXPECT_EQ(d->dispi[FAKE_DISPI_ENABLE], 0xC1);
	EXPECT_EQ(d->ar_index, 0x20);
	EXPECT(mem_is_zero(d->vram, size));
	EXPECT_EQ(d->vram[size], 0x77);
	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 799, 599, 1, 1, 0), EFI_SUCCESS);
	EXPECT_EQ(pixel_at(d, 800, 799, 599), 0x00ffffff);
	EXPECT_STATUS(gop->Blt(gop, &white, EfiBltVideoFill, 0, 0, 800, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	fake_display_destroy(d);
}

TEST(qemu_video_rejects_bad_arguments)
{
	struct fake_display *d = start(std_vga);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL, foreign;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info = NULL;
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL px = {0};
	UINTN size = 0;

	ASSERT(gop_child(d, &gop) != NULL);
	ASSERT_STATUS(gop->QueryMode(gop, 15, &size, &info), EFI_SUCCESS);
	EXPECT_EQ(size, sizeof(*info));
	EXPECT_EQ(info->HorizontalResolution, 2560);
	EXPECT_EQ(info->VerticalResolution, 1600);
	pool_free(info);
	EXPECT_STATUS(gop->QueryMode(gop, 16, &size, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(gop, 0, NULL, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(gop, 0, &size, NULL), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->QueryMode(NULL, 0, &size, &info), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->SetMode(gop, 16), EFI_UNSUPPORTED);
	EXPECT_STATUS(gop->SetMode(NULL, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->Blt(NULL, &px, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	/* A copy of the protocol outside the driver's memory is not the driver's GOP. */
	foreign = *gop;
	EXPECT_STATUS(gop->Blt(&foreign, &px, EfiBltVideoFill, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->SetMode(&foreign, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(gop->Blt(gop, &px, EfiGraphicsOutputBltOperationMax, 0, 0, 0, 0, 1, 1, 0),
		      EFI_INVALID_PARAMETER);
	EXPECT_EQ(gop->Mode->Mode, 0);
	fake_display_destroy(d);
}

TEST(qemu_video_mode_the_device_refuses_is_a_device_error)
{
	struct fake_display_config config = std_vga;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	struct fake_display *d;

	config.max_yres = 900;
	d = start(config);
	ASSERT(gop_child(d, &gop) != NULL);
	EXPECT_STATUS(gop->SetMode(gop, 6), EFI_DEVICE_ERROR); /* 1280x1024 */
	EXPECT_EQ(gop->Mode->Mode, 0);
	EXPECT_EQ(gop->Mode->Info->VerticalResolution, 768);
	EXPECT_STATUS(gop->SetMode(gop, 8), EFI_SUCCESS); /* 1440x900 */
	fake_display_destroy(d);

	/* Mode 0 itself refused: Start fails and gives everything back. */
	config.max_yres = 700;
	d = start(config);
	EXPECT(gop_child(d, NULL) == NULL);
	EXPECT_EQ(d->attributes, 0);
	fake_display_destroy(d);
}

static void expect_modes(struct fake_display *d, const UINT32 (*sizes)[2], UINT32 count)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;
	UINTN size;

	ASSERT(gop_child(d, &gop) != NULL);
	ASSERT_EQ(gop->Mode->MaxMode, count);
	for (UINT32 i = 0; i < count; i++) {
		ASSERT_STATUS(gop->QueryMode(gop, i, &size, &info), EFI_SUCCESS);
		EXPECT_EQ(info->HorizontalResolution, sizes[i][0]);
		EXPECT_EQ(info->VerticalResolution, sizes[i][1]);
		pool_free(info);
	}
}

TEST(qemu_video_offers_only_modes_that_fit)
{
	static const UINT32 four_mib[][2] = {{1024, 768}, {640, 480},  {800, 600},
					     {1280, 720}, {1280, 800}, {1360, 768}};
	static const UINT32 two_mib[][2] = {{640, 480}, {800, 600}};
	struct fake_display_config config = {0x1234, 0x1111, 0x80, 4 * MIB};
	struct fake_display *d = start(config);

	expect_modes(d, four_mib, ARRAY_SIZE(four_mib));
	fake_display_destroy(d);
	/* Without room for 1024x768 the first mode that fits becomes mode 0. */
	config.vram = 2 * MIB;
	d = start(config);
	expect_modes(d, two_mib, ARRAY_SIZE(two_mib));
	fake_display_destroy(d);
	config.vram = 1 * MIB;
	d = start(config);
	EXPECT(gop_child(d, NULL) == NULL);
	fake_display_destroy(d);
}

TEST(qemu_video_uses_io_ports_without_the_mmio_bar)
{
	struct fake_display_config config = std_vga;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	struct fake_display *d;

	config.no_mmio = true;
	d = start(config);
	ASSERT(gop_child(d, &gop) != NULL);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 1024);
	EXPECT_EQ(d->dispi[FAKE_DISPI_ENABLE], 0xC1);
	EXPECT_EQ(d->ar_index, 0x20);
	EXPECT_STATUS(gop->SetMode(gop, 1), EFI_SUCCESS);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 640);
	fake_display_destroy(d);

	/* bochs-display has no ports: without its BAR2 there is nothing to drive. */
	config.sub_class = 0x80;
	d = start(config);
	EXPECT(gop_child(d, NULL) == NULL);
	EXPECT_EQ(d->dispi_writes, 0);
	fake_display_destroy(d);
}

static EFI_COMPONENT_NAME2_PROTOCOL *qv_names(void);

TEST(qemu_video_drives_qxl_vga_through_the_io_ports)
{
	/* qxl-vga's BAR2 is its ROM: the DISPI registers are reached on the I/O ports only. */
	struct fake_display_config config = {0x1b36, 0x0100, 0x00, 16 * MIB};
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	struct fake_display *d = start(config);
	CHAR16 *name = NULL;

	ASSERT(gop_child(d, &gop) != NULL);
	EXPECT_EQ(d->mmio_accesses, 0);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 1024);
	EXPECT_EQ(d->ar_index, 0x20);
	EXPECT_STATUS(gop->SetMode(gop, 1), EFI_SUCCESS);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 640);
	EXPECT_EQ(d->mmio_accesses, 0);
	ASSERT(qv_names() != NULL);
	EXPECT_STATUS(
	    qv_names()->GetControllerName(qv_names(), d->handle, NULL, (CHAR8 *)"en", &name),
	    EFI_SUCCESS);
	EXPECT(name && str16_cmp(name, u"QEMU QXL VGA") == 0);
	fake_display_destroy(d);
}

TEST(qemu_video_drives_virtio_vga_through_its_vga_registers)
{
	struct fake_display_config config = {0x1af4, 0x1050, 0x00, 8 * MIB};
	struct fake_display *d = start(config);

	ASSERT(gop_child(d, NULL) != NULL);
	EXPECT(d->mmio_accesses > 0);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 1024);
	fake_display_destroy(d);
}

TEST(qemu_video_leaves_other_devices_alone)
{
	static const struct fake_display_config others[] = {
	    {0x8086, 0x1111, 0x00, 16 * MIB},
	    {0x1234, 0x1112, 0x00, 16 * MIB},
	    {0x1234, 0x1111, 0x01, 16 * MIB},
	    {0x1b36, 0x0100, 0x80, 16 * MIB}, /* qxl without VGA: no DISPI */
	    {0x1af4, 0x1050, 0x80, 16 * MIB}, /* virtio-gpu-pci: the virtio GPU driver's */
	};

	for (UINTN i = 0; i < ARRAY_SIZE(others); i++) {
		struct fake_display *d = start(others[i]);

		EXPECT(gop_child(d, NULL) == NULL);
		EXPECT_EQ(d->dispi_writes, 0);
		fake_display_destroy(d);
	}
}

TEST(qemu_video_stops_and_starts_through_the_driver_model)
{
	PCI_DEVICE_PATH other = {{HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(other), 0}}, 0, 3};
	EFI_DEVICE_PATH_PROTOCOL end = {
	    END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}};
	struct fake_display *d = start(std_vga);
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;

	ASSERT(gop_child(d, NULL) != NULL);
	EXPECT_STATUS(driver_disconnect(d->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT(gop_child(d, NULL) == NULL);
	EXPECT_EQ(d->attributes, 0);

	/* A remaining path naming something else: not for this driver. */
	d->dispi_writes = 0;
	driver_connect(d->handle, NULL, &other.Header, false);
	EXPECT(gop_child(d, NULL) == NULL);
	EXPECT_EQ(d->dispi_writes, 0);

	/* An End node: the device starts, without the child. */
	EXPECT_STATUS(driver_connect(d->handle, NULL, &end, false), EFI_SUCCESS);
	EXPECT(gop_child(d, NULL) == NULL);
	EXPECT_EQ(d->dispi[FAKE_DISPI_XRES], 1024);
	EXPECT(d->attributes & EFI_PCI_IO_ATTRIBUTE_MEMORY);
	EXPECT_STATUS(driver_disconnect(d->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_EQ(d->attributes, 0);

	EXPECT_STATUS(driver_connect(d->handle, NULL, NULL, false), EFI_SUCCESS);
	ASSERT(gop_child(d, &gop) != NULL);
	EXPECT_EQ(gop->Mode->Mode, 0);
	fake_display_destroy(d);
}

/* The QEMU video driver's ComponentName2, found by its driver name. */
static EFI_COMPONENT_NAME2_PROTOCOL *qv_names(void)
{
	static const EFI_GUID names_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;
	EFI_COMPONENT_NAME2_PROTOCOL *names, *found = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	CHAR16 *name;

	if (EFI_ERROR(handle_locate_buffer(ByProtocol, &names_guid, NULL, &count, &handles)))
		return NULL;
	for (UINTN i = 0; i < count && !found; i++)
		if (!EFI_ERROR(protocol_get(handles[i], &names_guid, (void **)&names)) &&
		    !EFI_ERROR(names->GetDriverName(names, (CHAR8 *)"en", &name)) &&
		    str16_cmp(name, u"QEMU Video Driver") == 0)
			found = names;
	pool_free(handles);
	return found;
}

TEST(qemu_video_names_only_the_devices_it_drives)
{
	struct fake_display_config config = std_vga;
	struct fake_display *d = start(config);
	EFI_COMPONENT_NAME2_PROTOCOL *names = qv_names();
	CHAR16 *name = NULL;

	ASSERT(names != NULL);
	ASSERT_STATUS(names->GetControllerName(names, d->handle, NULL, (CHAR8 *)"en", &name),
		      EFI_SUCCESS);
	EXPECT(str16_cmp(name, u"QEMU Standard VGA") == 0);
	EXPECT_STATUS(
	    names->GetControllerName(names, d->handle, gop_child(d, NULL), (CHAR8 *)"en", &name),
	    EFI_SUCCESS);
	/* A handle that is not the device's child; the device once the driver let it go. */
	EXPECT_STATUS(names->GetControllerName(names, d->handle, d->handle, (CHAR8 *)"en", &name),
		      EFI_UNSUPPORTED);
	EXPECT_STATUS(driver_disconnect(d->handle, NULL, NULL), EFI_SUCCESS);
	EXPECT_STATUS(names->GetControllerName(names, d->handle, NULL, (CHAR8 *)"en", &name),
		      EFI_UNSUPPORTED);
	fake_display_destroy(d);

	/* A display the driver does not take is not named. */
	config.vendor = 0x8086;
	d = start(config);
	ASSERT(d != NULL);
	EXPECT_STATUS(names->GetControllerName(names, d->handle, NULL, (CHAR8 *)"en", &name),
		      EFI_UNSUPPORTED);
	fake_display_destroy(d);

	config = std_vga;
	config.sub_class = 0x80;
	d = start(config);
	ASSERT(d != NULL);
	ASSERT_STATUS(names->GetControllerName(names, d->handle, NULL, (CHAR8 *)"en", &name),
		      EFI_SUCCESS);
	EXPECT(str16_cmp(name, u"QEMU Bochs Display") == 0);
	fake_display_destroy(d);
}
