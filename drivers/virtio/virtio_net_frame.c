/* Pure logic for the virtio-net SNP: the length of a received frame from the device's
 * used-ring length (outside data: bounded here). */
#include "virtio_net.h"
#include <ember/lib/str.h>

EFI_STATUS vnet_rx_frame_len(UINT32 used_len, UINT32 hdr_size, UINT32 buf_size, UINT32 *frame_len)
{
	/* The device says how many bytes it wrote; it may not claim more than the buffer. */
	if (used_len > buf_size || hdr_size > buf_size || used_len < hdr_size ||
	    used_len - hdr_size < SNP_ETH_HEADER)
		return EFI_DEVICE_ERROR;
	*frame_len = used_len - hdr_size;
	return EFI_SUCCESS;
}
