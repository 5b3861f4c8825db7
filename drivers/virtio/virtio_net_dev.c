/* virtio-net, the device side (virtio 1.2, 5.1.5-5.1.6): feature negotiation (MAC and STATUS;
 * no offloads, no merged buffers, no control queue), the receive queue kept full of
 * VNET_BUF_SIZE buffers and the transmit queue fed with copies of the caller's frames. */
#define LOG_PREFIX "virtio-net: "
#include "virtio_net.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define VNET_FEATURES (VIRTIO_NET_F_MAC | VIRTIO_NET_F_STATUS)
#define PAGE 4096

static bool has(struct virtio_net *n, UINT64 feature)
{
	return (n->features & feature) != 0;
}

/* The device's MAC, or a locally administered one when it has none (5.1.5: the driver then
 * makes one up). */
static void read_mac(struct virtio_net *n)
{
	struct virtio_dev *dev = &n->vp.dev;
	EFI_MAC_ADDRESS mac = {{0}};

	if (has(n, VIRTIO_NET_F_MAC)) {
		for (UINT32 i = 0; i < SNP_ETH_ADDR; i++)
			mac.Addr[i] = (UINT8)dev->ops->read_config(dev, VIRTIO_NET_CFG_MAC + i, 1);
	} else {
		UINT64 t = core_time_ns();
		mac.Addr[0] = 0x02;
		for (UINT32 i = 1; i < SNP_ETH_ADDR; i++)
			mac.Addr[i] = (UINT8)(t >> (8 * i));
	}
	n->front.mode.PermanentAddress = mac;
	n->front.mode.CurrentAddress = mac;
}

bool vnet_dev_link_up(struct virtio_net *n)
{
	struct virtio_dev *dev = &n->vp.dev;

	if (!has(n, VIRTIO_NET_F_STATUS))
		return true;
	return (dev->ops->read_config(dev, VIRTIO_NET_CFG_STATUS, 2) & VIRTIO_NET_S_LINK_UP) != 0;
}

EFI_STATUS vnet_dev_probe(struct virtio_net *n)
{
	struct virtio_dev *dev = &n->vp.dev;
	EFI_STATUS status = virtio_negotiate(dev, VNET_FEATURES);

	if (EFI_ERROR(status)) {
		log_debug("feature negotiation: %r\n", status);
		return status;
	}
	n->features = dev->features;
	read_mac(n);
	n->front.mode.MediaPresentSupported = has(n, VIRTIO_NET_F_STATUS);
	n->front.mode.MediaPresent = vnet_dev_link_up(n);
	/* Idle until SNP Initialize: a reset device does no DMA. */
	return virtio_reset(dev);
}

static EFI_STATUS buffers_alloc(struct virtio_net *n, struct vnet_buffers *b, UINT32 count)
{
	struct virtio_dev *dev = &n->vp.dev;
	EFI_STATUS status;

	b->pages = (UINTN)count * VNET_BUF_SIZE / PAGE;
	status =
	    dev->ops->alloc_shared(dev, b->pages, (void **)&b->host, &b->dev_addr, &b->mapping);
	if (EFI_ERROR(status)) {
		b->host = NULL;
		return status;
	}
	mem_set(b->host, 0, b->pages * PAGE);
	return EFI_SUCCESS;
}

static void buffers_free(struct virtio_net *n, struct vnet_buffers *b)
{
	if (b->host)
		n->vp.dev.ops->free_shared(&n->vp.dev, b->pages, b->host, b->mapping);
	b->host = NULL;
}

/* Hands receive buffer slot to the device. */
static EFI_STATUS post_rx(struct virtio_net *n, UINT16 slot)
{
	struct virtq_buf b = {n->rx.dev_addr + (UINT64)slot * VNET_BUF_SIZE, VNET_BUF_SIZE, true};
	UINT16 head;
	EFI_STATUS status = virtq_add(&n->rxq.vq, &b, 1, &head);

	if (!EFI_ERROR(status))
		n->rx_slot[head] = slot;
	return status;
}

static EFI_STATUS fill_rx(struct virtio_net *n)
{
	UINT16 count = (UINT16)MIN((UINT32)VNET_RX_BUFFERS, (UINT32)n->rxq.vq.size);

	for (UINT16 slot = 0; slot < count; slot++) {
		EFI_STATUS status = post_rx(n, slot);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

/* The queues with their buffers and the per-head maps. */
static EFI_STATUS queues_create(struct virtio_net *n)
{
	struct virtio_dev *dev = &n->vp.dev;
	EFI_STATUS status;

	status = virtio_queue_create(dev, VIRTIO_NET_RX_QUEUE, VNET_RX_BUFFERS, &n->rxq);
	if (EFI_ERROR(status)) {
		log_debug("receive queue: %r\n", status);
		return status;
	}
	status = virtio_queue_create(dev, VIRTIO_NET_TX_QUEUE, VNET_TX_BUFFERS, &n->txq);
	if (EFI_ERROR(status)) {
		log_debug("transmit queue: %r\n", status);
		return status;
	}
	n->rx_slot = pool_alloc(n->rxq.vq.size * sizeof(UINT16));
	n->tx_slot = pool_alloc(n->txq.vq.size * sizeof(UINT16));
	if (!n->rx_slot || !n->tx_slot)
		return EFI_OUT_OF_RESOURCES;
	status = buffers_alloc(n, &n->rx, VNET_RX_BUFFERS);
	if (!EFI_ERROR(status))
		status = buffers_alloc(n, &n->tx, VNET_TX_BUFFERS);
	if (EFI_ERROR(status))
		log_debug("buffers: %r\n", status);
	return status;
}

static void queues_destroy(struct virtio_net *n)
{
	virtio_queue_destroy(&n->vp.dev, &n->rxq);
	virtio_queue_destroy(&n->vp.dev, &n->txq);
	pool_free(n->rx_slot);
	pool_free(n->tx_slot);
	n->rx_slot = n->tx_slot = NULL;
	buffers_free(n, &n->rx);
	buffers_free(n, &n->tx);
}

EFI_STATUS vnet_dev_up(struct virtio_net *n)
{
	struct virtio_dev *dev = &n->vp.dev;
	EFI_STATUS status = virtio_negotiate(dev, VNET_FEATURES);

	if (EFI_ERROR(status)) {
		log_debug("feature negotiation: %r\n", status);
		return status;
	}
	n->features = dev->features;
	n->hdr_size = dev->legacy ? VIRTIO_NET_HDR_LEGACY : VIRTIO_NET_HDR_MODERN;
	status = queues_create(n);
	if (EFI_ERROR(status))
		goto err_queues;
	status = fill_rx(n);
	if (EFI_ERROR(status)) {
		log_debug("filling the receive queue: %r\n", status);
		goto err_queues;
	}
	n->rx_pending = false;
	n->tx_done_count = 0;
	n->front.interrupts = 0;
	mem_set(n->tx_owner, 0, sizeof(n->tx_owner));
	virtio_driver_ok(dev);
	dev->ops->notify(dev, VIRTIO_NET_RX_QUEUE);
	n->live = true;
	return EFI_SUCCESS;

err_queues:
	virtio_reset(dev);
	queues_destroy(n);
	virtio_fail(dev);
	return status;
}

void vnet_dev_down(struct virtio_net *n)
{
	if (!n->live)
		return;
	/* Reset first: the device must not touch the rings or buffers once released. */
	virtio_reset(&n->vp.dev);
	queues_destroy(n);
	n->live = false;
	n->rx_pending = false;
	n->tx_done_count = 0;
}

void vnet_dev_reap_tx(struct virtio_net *n)
{
	UINT16 head;
	UINT32 len;

	while (virtq_get_used(&n->txq.vq, &head, &len) == EFI_SUCCESS) {
		/* virtq_get_used returns only heads in flight: each slot once. */
		if (n->tx_done_count < VNET_TX_BUFFERS)
			n->tx_done[n->tx_done_count++] = n->tx_slot[head];
		n->front.interrupts |= EFI_SIMPLE_NETWORK_TRANSMIT_INTERRUPT;
	}
}

EFI_STATUS vnet_dev_send(struct virtio_net *n, const void *frame, UINT32 len, void *owner)
{
	struct virtq_buf b;
	UINT16 slot = 0, head;
	UINT8 *buf;

	vnet_dev_reap_tx(n);
	while (slot < VNET_TX_BUFFERS && n->tx_owner[slot])
		slot++;
	if (slot == VNET_TX_BUFFERS || len > VNET_BUF_SIZE - n->hdr_size)
		return EFI_NOT_READY;
	buf = n->tx.host + (UINTN)slot * VNET_BUF_SIZE;
	mem_set(buf, 0, n->hdr_size); /* no checksum or segmentation offload */
	mem_copy(buf + n->hdr_size, frame, len);
	b = (struct virtq_buf){n->tx.dev_addr + (UINT64)slot * VNET_BUF_SIZE, n->hdr_size + len,
			       false};
	if (EFI_ERROR(virtq_add(&n->txq.vq, &b, 1, &head)))
		return EFI_NOT_READY;
	n->tx_slot[head] = slot;
	n->tx_owner[slot] = owner;
	n->vp.dev.ops->notify(&n->vp.dev, VIRTIO_NET_TX_QUEUE);
	return EFI_SUCCESS;
}

UINT8 *vnet_dev_pending_frame(struct virtio_net *n)
{
	return n->rx.host + (UINTN)n->rx_pending_slot * VNET_BUF_SIZE + n->hdr_size;
}

void vnet_dev_release_pending(struct virtio_net *n)
{
	if (!n->rx_pending)
		return;
	n->rx_pending = false;
	post_rx(n, n->rx_pending_slot);
	n->vp.dev.ops->notify(&n->vp.dev, VIRTIO_NET_RX_QUEUE);
}

EFI_STATUS vnet_dev_peek(struct virtio_net *n)
{
	UINT16 head;
	UINT32 used_len, frame_len;
	EFI_STATUS status;

	while (!n->rx_pending) {
		status = virtq_get_used(&n->rxq.vq, &head, &used_len);
		if (status == EFI_NOT_READY)
			return status;
		if (EFI_ERROR(status))
			return EFI_DEVICE_ERROR;
		n->rx_pending = true;
		n->rx_pending_slot = n->rx_slot[head];
		/* Frames the device garbled or the filters refuse go straight back. */
		if (EFI_ERROR(
			vnet_rx_frame_len(used_len, n->hdr_size, VNET_BUF_SIZE, &frame_len)) ||
		    !snp_frame_accepted(vnet_dev_pending_frame(n), frame_len, &n->front.mode)) {
			vnet_dev_release_pending(n);
			continue;
		}
		n->rx_pending_len = frame_len;
	}
	return EFI_SUCCESS;
}
