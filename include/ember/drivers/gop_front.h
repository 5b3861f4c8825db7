/* A Graphics Output front end for display drivers (QEMU video, ramfb, the hosted screen ...):
 * one struct that carries EFI_GRAPHICS_OUTPUT_PROTOCOL with its Mode and Info, checks every
 * call as UEFI 2.10 section 12.9.2 requires, keeps the mode bookkeeping, clears the screen on
 * SetMode and does Blt on the mode's framebuffer (lib/fb_blt.c). The device only lists its
 * modes, sets one (programs the hardware and says where the pixels are) and, if it needs to,
 * hears which rectangle changed or draws Blt requests itself when it has no framebuffer. */
#ifndef EMBER_GOP_FRONT_H
#define EMBER_GOP_FRONT_H

#include <stdbool.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/graphics_output.h>
#include <ember/lib/fb_blt.h>

#define GOP_FRONT_SIGNATURE 0x746e6f7266706f67ULL /* "gopfront" */

struct gop_front;

/* Where the picture of a mode lives, as the device's set_mode gives it. */
struct gop_front_fb {
	/* Memory the CPU draws the picture in, rows PixelsPerScanLine pixels apart; NULL when
	 * there is none and the device draws every Blt itself (ops->blt). */
	EFI_GRAPHICS_OUTPUT_BLT_PIXEL *pixels;
	/* The picture is black already (fresh zeroed memory): SetMode need not clear it. */
	bool black;
};

/* What a device implements. Mode numbers reaching it are below MaxMode, Blt requests have
 * passed fb_blt_check against the current mode, and the calls run at TPL_NOTIFY. */
struct gop_front_ops {
	/* The information of mode n. */
	EFI_STATUS (*query_mode)(struct gop_front *gop, UINT32 n,
				 EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info);
	/* Programs mode n (whose information query_mode gave) and says where its picture
	 * lives; on failure the previous mode stays current. */
	EFI_STATUS (*set_mode)(struct gop_front *gop, UINT32 n, struct gop_front_fb *fb);
	/* Optional: the rectangle of the framebuffer a Blt or SetMode changed, for a device
	 * that shows a copy of it (a shadow framebuffer). */
	EFI_STATUS (*flush)(struct gop_front *gop, UINTN x, UINTN y, UINTN width, UINTN height);
	/* Required when set_mode gives no pixels: performs one checked request. */
	EFI_STATUS (*blt)(struct gop_front *gop, const struct fb_blt_request *request);
};

struct gop_front {
	UINT64 signature;
	EFI_HANDLE handle; /* where the GOP is installed */
	EFI_GRAPHICS_OUTPUT_PROTOCOL gop;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION info; /* of the current mode */
	struct fb_surface fb;			   /* the current picture; pixels NULL: ops->blt */
	const struct gop_front_ops *ops;
	bool blank; /* the picture is all black: nothing drawn since the last clear */
};

/* Sets up the protocol over ops with mode_count modes, none current yet. The struct must lie
 * in pool memory: callers' GOP pointers are checked by memory ownership. */
void gop_front_init(struct gop_front *gop, const struct gop_front_ops *ops, UINT32 mode_count);

/* Makes mode n current as SetMode does (n < MaxMode), without the caller checks: for the
 * driver's first mode, before gop_front_install. */
EFI_STATUS gop_front_set_mode(struct gop_front *gop, UINT32 n);
/* The mode a driver starts in: the one the ConsoleResolution setting names
 * (include/ember/core/settings.h) when the device has it, else fallback. */
EFI_STATUS gop_front_set_boot_mode(struct gop_front *gop, UINT32 fallback);

/* Installs the GOP on *handle (a new handle when *handle is NULL), with the device path when
 * path is not NULL; records the handle. EFI_NOT_READY when no mode is current. */
EFI_STATUS gop_front_install(struct gop_front *gop, EFI_HANDLE *handle,
			     EFI_DEVICE_PATH_PROTOCOL *path);

/* Removes what gop_front_install installed (path: the same device path, or NULL); fails,
 * changing nothing, while someone holds the GOP open BY_DRIVER. */
EFI_STATUS gop_front_uninstall(struct gop_front *gop, EFI_DEVICE_PATH_PROTOCOL *path);

/* The front end behind a GOP that gop_front_init set up, or NULL for any other pointer. */
struct gop_front *gop_front_from_gop(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop);

#endif
