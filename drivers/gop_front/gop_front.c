/* EFI_GRAPHICS_OUTPUT_PROTOCOL entry points over a display's gop_front_ops (UEFI 2.10,
 * 12.9.2). Mode changes and drawing run at TPL_NOTIFY, so that a Blt from an event never
 * meets a half-changed mode. */
#define LOG_PREFIX "gop: "
#include <ember/drivers/gop_front.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>
#include <ember/core/settings.h>

#define PIXEL_SIZE sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL)

/* A checked request on the current picture: into the framebuffer (then the device hears
 * what changed), or to the device itself when it has no framebuffer. */
static bool black_fill(const struct fb_blt_request *r)
{
	const EFI_GRAPHICS_OUTPUT_BLT_PIXEL *p = r->buffer;

	return r->op == EfiBltVideoFill && !p->Blue && !p->Green && !p->Red && !p->Reserved;
}

static EFI_STATUS draw(struct gop_front *g, const struct fb_blt_request *r)
{
	/* A black fill of an all-black picture changes nothing, and start-up clears the screen
	 * three times (SetMode, the graphics console's start, the console splitter's), 0.27 M
	 * instructions each under QEMU. The picture is known only while nothing but the
	 * firmware has run: a program may draw in the framebuffer directly, which no Blt shows. */
	if (g->blank && !image_starts && black_fill(r))
		return EFI_SUCCESS;
	if (r->op != EfiBltVideoToBltBuffer)
		g->blank = false;
	if (!g->fb.pixels)
		return g->ops->blt(g, r);
	fb_blt_draw(&g->fb, r);
	if (!g->ops->flush || r->op == EfiBltVideoToBltBuffer)
		return EFI_SUCCESS;
	return g->ops->flush(g, r->dx, r->dy, r->width, r->height);
}

/* SetMode leaves the whole picture black (12.9.2). */
static EFI_STATUS clear(struct gop_front *g)
{
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL black = {0, 0, 0, 0};
	struct fb_blt_request r = {&black, EfiBltVideoFill, 0, 0, 0, 0, g->fb.width, g->fb.height};
	EFI_STATUS status = fb_blt_check(g->fb.width, g->fb.height, &r);

	if (!EFI_ERROR(status))
		status = draw(g, &r);
	g->blank = !EFI_ERROR(status);
	return status;
}

/* Mode, Info and the framebuffer fields as the new mode has them. A picture the device keeps
 * to itself (PixelBltOnly) is no framebuffer to the caller, even when Blt draws in memory. */
static void commit(struct gop_front *g, UINT32 n, const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info,
		   EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels)
{
	bool linear = pixels && info->PixelFormat != PixelBltOnly;

	g->info = *info;
	g->mode.Mode = n;
	g->fb = (struct fb_surface){pixels, info->HorizontalResolution, info->VerticalResolution,
				    info->PixelsPerScanLine};
	g->mode.FrameBufferBase = linear ? (EFI_PHYSICAL_ADDRESS)(uintptr_t)pixels : 0;
	g->mode.FrameBufferSize =
	    linear ? (UINTN)info->PixelsPerScanLine * info->VerticalResolution * PIXEL_SIZE : 0;
}

EFI_STATUS gop_front_set_mode(struct gop_front *g, UINT32 n)
{
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	struct gop_front_fb fb = {NULL, false};
	EFI_STATUS status;

	mem_set(&info, 0, sizeof(info));
	status = g->ops->query_mode(g, n, &info);
	if (!EFI_ERROR(status))
		status = g->ops->set_mode(g, n, &fb);
	if (!EFI_ERROR(status) && !fb.pixels && !g->ops->blt)
		status = EFI_DEVICE_ERROR; /* nowhere to draw: a driver without ops->blt */
	if (EFI_ERROR(status)) {
		log_debug("mode %u (%ux%u): %r\n", n, info.HorizontalResolution,
			  info.VerticalResolution, status);
		return status;
	}
	commit(g, n, &info, fb.pixels);
	g->blank = fb.black;
	return fb.black ? EFI_SUCCESS : clear(g);
}

/* The mode of the size the ConsoleResolution setting names; false when there is no
 * setting or no such mode. */
static bool preferred_mode(struct gop_front *g, UINT32 *n)
{
	struct ember_console_resolution want;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info;
	UINTN size = sizeof(want);

	if (EFI_ERROR(variable_get(EMBER_CONSOLE_RESOLUTION_VARIABLE, &ember_settings_guid, NULL,
				   &size, &want)) ||
	    size != sizeof(want))
		return false;
	for (UINT32 i = 0; i < g->mode.MaxMode; i++) {
		mem_set(&info, 0, sizeof(info));
		if (!EFI_ERROR(g->ops->query_mode(g, i, &info)) &&
		    info.HorizontalResolution == want.width &&
		    info.VerticalResolution == want.height) {
			*n = i;
			return true;
		}
	}
	log_debug("no %ux%u mode: the driver's own is used\n", want.width, want.height);
	return false;
}

EFI_STATUS gop_front_set_boot_mode(struct gop_front *g, UINT32 fallback)
{
	UINT32 n;

	if (preferred_mode(g, &n) && !EFI_ERROR(gop_front_set_mode(g, n))) {
		log_info("mode %u (%ux%u) from the ConsoleResolution setting\n", n,
			 g->info.HorizontalResolution, g->info.VerticalResolution);
		return EFI_SUCCESS;
	}
	return gop_front_set_mode(g, fallback);
}

/* ---- EFI_GRAPHICS_OUTPUT_PROTOCOL ---- */

static EFI_STATUS EFIAPI front_query_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 n,
					  UINTN *size_of_info,
					  EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **info)
{
	struct gop_front *g = gop_front_from_gop(this);
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *copy;
	EFI_STATUS status;
	EFI_TPL old;

	if (!g || !size_of_info || !info || n >= g->mode.MaxMode)
		return EFI_INVALID_PARAMETER;
	/* The caller frees it with FreePool. */
	copy = pool_alloc_typed(EfiBootServicesData, sizeof(*copy));
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	mem_set(copy, 0, sizeof(*copy));
	old = tpl_raise(TPL_NOTIFY);
	status = g->ops->query_mode(g, n, copy);
	tpl_restore(old);
	if (EFI_ERROR(status)) {
		pool_free(copy);
		return status;
	}
	*size_of_info = sizeof(*copy);
	*info = copy;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI front_set_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *this, UINT32 n)
{
	struct gop_front *g = gop_front_from_gop(this);
	EFI_STATUS status;
	EFI_TPL old;

	if (!g)
		return EFI_INVALID_PARAMETER;
	if (n >= g->mode.MaxMode)
		return EFI_UNSUPPORTED;
	old = tpl_raise(TPL_NOTIFY);
	status = gop_front_set_mode(g, n);
	tpl_restore(old);
	return status;
}

static EFI_STATUS EFIAPI front_blt(EFI_GRAPHICS_OUTPUT_PROTOCOL *this,
				   EFI_GRAPHICS_OUTPUT_BLT_PIXEL *buffer,
				   EFI_GRAPHICS_OUTPUT_BLT_OPERATION op, UINTN sx, UINTN sy,
				   UINTN dx, UINTN dy, UINTN width, UINTN height, UINTN delta)
{
	struct gop_front *g = gop_front_from_gop(this);
	struct fb_blt_request r = {buffer, op, sx, sy, dx, dy, width, height, delta};
	EFI_STATUS status;
	EFI_TPL old;

	if (!g)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	status = fb_blt_check(g->fb.width, g->fb.height, &r);
	if (!EFI_ERROR(status))
		status = draw(g, &r);
	tpl_restore(old);
	return status;
}

/* ---- Set-up ---- */

void gop_front_init(struct gop_front *g, const struct gop_front_ops *ops, UINT32 mode_count)
{
	g->signature = GOP_FRONT_SIGNATURE;
	g->handle = NULL;
	g->ops = ops;
	g->gop =
	    (EFI_GRAPHICS_OUTPUT_PROTOCOL){front_query_mode, front_set_mode, front_blt, &g->mode};
	mem_set(&g->info, 0, sizeof(g->info));
	g->fb = (struct fb_surface){NULL, 0, 0, 0};
	/* Mode == MaxMode: none current until gop_front_set_mode succeeds. */
	g->mode = (EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE){
	    .MaxMode = mode_count,
	    .Mode = mode_count,
	    .Info = &g->info,
	    .SizeOfInfo = sizeof(g->info),
	};
}

EFI_STATUS gop_front_install(struct gop_front *g, EFI_HANDLE *handle,
			     EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_STATUS status;

	if (g->mode.Mode >= g->mode.MaxMode)
		return EFI_NOT_READY;
	if (path)
		status =
		    protocol_install_multiple(handle, &efi_graphics_output_protocol_guid, &g->gop,
					      &efi_device_path_protocol_guid, path, NULL);
	else
		status = protocol_install(handle, &efi_graphics_output_protocol_guid, &g->gop);
	if (!EFI_ERROR(status))
		g->handle = *handle;
	return status;
}

EFI_STATUS gop_front_uninstall(struct gop_front *g, EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_STATUS status;

	if (path)
		status = protocol_uninstall_multiple(g->handle, &efi_graphics_output_protocol_guid,
						     &g->gop, &efi_device_path_protocol_guid, path,
						     NULL);
	else
		status = protocol_uninstall(g->handle, &efi_graphics_output_protocol_guid, &g->gop);
	if (!EFI_ERROR(status))
		g->handle = NULL;
	return status;
}

struct gop_front *gop_front_from_gop(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop)
{
	struct gop_front *g;

	if (!gop)
		return NULL;
	g = container_of(gop, struct gop_front, gop);
	if (!mem_is_allocated(g, sizeof(*g)) || g->signature != GOP_FRONT_SIGNATURE)
		return NULL;
	return g;
}
