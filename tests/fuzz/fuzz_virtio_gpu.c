/* Fuzzes what Ember takes from a virtio GPU's answers (drivers/virtio/virtio_gpu_parse.c): the
 * response check refuses short and mistyped answers, and the modes built from any display
 * information are at least one, within VGPU_MAX_DIMENSION, distinct, and all fit within
 * mode 0 (the display's own size). */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include "../../drivers/virtio/virtio_gpu.h"

static void check_modes(const struct vgpu_size *modes, UINT32 count)
{
	if (count < 1 || count > VGPU_MAX_MODES)
		abort();
	for (UINT32 i = 0; i < count; i++) {
		if (!modes[i].width || !modes[i].height || modes[i].width > VGPU_MAX_DIMENSION ||
		    modes[i].height > VGPU_MAX_DIMENSION || modes[i].width > modes[0].width ||
		    modes[i].height > modes[0].height)
			abort();
		for (UINT32 j = 0; j < i; j++)
			if (modes[j].width == modes[i].width && modes[j].height == modes[i].height)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct virtio_gpu_resp_display_info info;
	struct vgpu_size modes[VGPU_MAX_MODES];
	UINT32 len = size > UINT32_MAX ? UINT32_MAX : (UINT32)size;
	EFI_STATUS status;

	/* The answer as the driver's response buffer holds it: at most the size it asked for. */
	memset(&info, 0, sizeof(info));
	memcpy(&info, data, size < sizeof(info) ? size : sizeof(info));
	status = vgpu_check_response(&info, len, VIRTIO_GPU_RESP_OK_DISPLAY_INFO, sizeof(info));
	if (!EFI_ERROR(status) &&
	    (size < sizeof(info) || info.hdr.type != VIRTIO_GPU_RESP_OK_DISPLAY_INFO))
		abort();
	if (EFI_ERROR(vgpu_check_response(&info, len, VIRTIO_GPU_RESP_OK_NODATA, 24)) ==
	    (size >= 24 && info.hdr.type == VIRTIO_GPU_RESP_OK_NODATA))
		abort();
	check_modes(modes,
		    vgpu_modes_build(EFI_ERROR(status) ? NULL : &info, len, modes, VGPU_MAX_MODES));
	/* A short answer is never read past its length. */
	check_modes(modes,
		    vgpu_modes_build(&info, size < sizeof(info) ? len : 0, modes, VGPU_MAX_MODES));
	return 0;
}
