/* A virtio GPU (virtio 1.2, 5.7) on the fake virtio device (fake_virtio.h) for the tests of
 * drivers/virtio/virtio_gpu_*.c: GET_DISPLAY_INFO with one scanout of a size the test
 * chooses, 2D resources held on the "host" side, backing reached through the fake PCI
 * function's DMA mappings only, TRANSFER_TO_HOST_2D copying from it, and a screen that
 * shows a rectangle of the scanout's resource only once RESOURCE_FLUSH names it. Driver
 * mistakes (unknown resources, rectangles outside them, unreferencing what the scanout
 * shows ...) are recorded as fake_virtio errors. */
#ifndef EMBER_TEST_FAKE_VIRTIO_GPU_H
#define EMBER_TEST_FAKE_VIRTIO_GPU_H

#include "fake_virtio.h"

#define FAKE_GPU_RESOURCES 8

struct fake_gpu_resource {
	UINT32 id; /* 0: a free slot */
	UINT32 width, height;
	UINT32 *pixels; /* the host's copy */
	UINT64 backing; /* device address, 0 when none is attached */
	UINT32 backing_len;
};

struct fake_virtio_gpu {
	UINT32 display_width, display_height; /* scanout 0 as GET_DISPLAY_INFO reports it */
	bool display_disabled;
	UINT32 fail_type;   /* a command type answered ERR_UNSPEC (0: none) */
	bool short_answers; /* answers come back 8 bytes short */
	struct fake_gpu_resource res[FAKE_GPU_RESOURCES];
	UINT32 scanout; /* the resource on scanout 0, 0 when disabled */
	UINT32 screen_w, screen_h;
	UINT32 *screen;		  /* what the scanout shows, flushed rectangles only */
	UINTN commands[8];	  /* by type - 0x100 */
	UINT64 transferred;	  /* pixels */
	UINTN resources_at_reset; /* resources the last reset destroyed */
};

/* A modern virtio GPU (1af4:1050, class 0x0380) whose scanout 0 is width x height. */
struct fake_virtio *fake_virtio_gpu_create(UINT32 width, UINT32 height);
/* The live resource with that ID, or NULL. */
struct fake_gpu_resource *fake_gpu_resource(struct fake_virtio_gpu *gpu, UINT32 id);
/* Resources the driver holds now. */
UINTN fake_gpu_resources(struct fake_virtio_gpu *gpu);

#endif
