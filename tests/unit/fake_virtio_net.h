/* A virtio-net backend (virtio 1.2, 5.1) for the fake virtio device (fake_virtio.h): a MAC and
 * a link status in the device configuration, frames the driver transmits kept for the test,
 * and frames the test delivers written into the receive buffers the driver posted (held
 * until then), with a virtio_net_hdr of the size the negotiated version gives. */
#ifndef EMBER_TEST_FAKE_VIRTIO_NET_H
#define EMBER_TEST_FAKE_VIRTIO_NET_H

#include "fake_virtio.h"

#define FAKE_VIRTIO_ID_NET 1
#define FAKE_NET_FRAMES 8
#define FAKE_NET_FRAME_MAX 2048

struct fake_virtio_net {
	UINT8 rx[FAKE_NET_FRAMES][FAKE_NET_FRAME_MAX]; /* waiting for a receive buffer */
	UINT32 rx_len[FAKE_NET_FRAMES];
	UINTN rx_count;
	UINT8 tx[FAKE_NET_FRAMES][FAKE_NET_FRAME_MAX]; /* the last frames sent, header removed */
	UINT32 tx_len[FAKE_NET_FRAMES];
	UINTN tx_count;
	UINT32 used_len; /* when not 0, the length the device claims for the next frame */
};

/* A virtio-net device offering VERSION_1, MAC (52:54:00:12:34:56), STATUS (link up) and
 * CSUM (which the driver must not take), with a receive and a transmit queue of 256. */
struct fake_virtio *fake_virtio_net_create(enum fake_virtio_interface interface);
/* The backend of a device made by fake_virtio_net_create. */
struct fake_virtio_net *fake_virtio_net(struct fake_virtio *d);
/* Queues a frame for the driver and serves the receive queue. */
void fake_virtio_net_deliver(struct fake_virtio *d, const void *frame, UINT32 len);
/* Frees a device made by fake_virtio_net_create. */
void fake_virtio_net_destroy(struct fake_virtio *d);

#endif
