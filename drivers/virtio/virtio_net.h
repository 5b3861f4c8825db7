/* The virtio network device (virtio 1.2, 5.1) as EFI_SIMPLE_NETWORK_PROTOCOL (UEFI 2.10, 24.1):
 * one receive queue kept full of buffers, one transmit queue whose buffers are copies of the
 * caller's frames, polled (no interrupts). The SNP lives on a child handle whose device path
 * is the PCI function's with a MAC() node appended, as boot options and PXE expect. */
#ifndef DRIVERS_VIRTIO_NET_H
#define DRIVERS_VIRTIO_NET_H

#include <efi/protocol/device_path.h>
#include <ember/drivers/pci_driver.h>
#include <ember/drivers/snp_front.h>
#include "virtio_pci.h"

/* ---- virtio-net (virtio 1.2, 5.1) ---- */
#define VIRTIO_ID_NET 1
#define VIRTIO_PCI_LEGACY_NET 0x1000
#define VIRTIO_NET_F_MAC (1ULL << 5)
#define VIRTIO_NET_F_STATUS (1ULL << 16)
#define VIRTIO_NET_CFG_MAC 0	/* 6 bytes */
#define VIRTIO_NET_CFG_STATUS 6 /* u16 */
#define VIRTIO_NET_S_LINK_UP 1
#define VIRTIO_NET_RX_QUEUE 0
#define VIRTIO_NET_TX_QUEUE 1
/* struct virtio_net_hdr: 12 bytes with VERSION_1 (num_buffers always there), 10 on the legacy
 * interface without MRG_RXBUF (5.1.6.1). Ember sends it zeroed: no offloads. */
#define VIRTIO_NET_HDR_MODERN 12
#define VIRTIO_NET_HDR_LEGACY 10

/* Buffers: each holds a header and a frame; 2 KiB is more than the 1526 bytes the spec asks
 * of receive buffers without MRG_RXBUF (5.1.6.3.1). */
#define VNET_BUF_SIZE 2048
#define VNET_RX_BUFFERS 64
#define VNET_TX_BUFFERS 32

/* ---- virtio_net_frame.c: pure logic on frames (no device, no core; fuzzed) ---- */

/* The frame a receive buffer holds after the device wrote used_len bytes into a buffer of
 * buf_size bytes that starts with a hdr_size-byte header: its length in *frame_len.
 * EFI_DEVICE_ERROR (the buffer is dropped) when used_len does not fit the buffer or leaves
 * less than an Ethernet header. */
EFI_STATUS vnet_rx_frame_len(UINT32 used_len, UINT32 hdr_size, UINT32 buf_size, UINT32 *frame_len);

/* ---- The device ---- */

struct vnet_buffers {
	UINT8 *host;
	UINT64 dev_addr;
	void *mapping;
	UINTN pages;
};

struct virtio_net {
	struct pci_driver_dev pci;
	struct virtio_pci vp;
	struct snp_front front;
	EFI_HANDLE child;
	EFI_DEVICE_PATH_PROTOCOL *child_path;
	EFI_EVENT exit_event;
	UINT64 features; /* negotiated at Start, again at each bring-up */
	UINT32 hdr_size;
	bool live; /* queues set up and DRIVER_OK: the SNP is Initialized */
	struct virtio_queue rxq, txq;
	struct vnet_buffers rx, tx;
	UINT16 *rx_slot; /* per descriptor head: the receive buffer it carries */
	UINT16 *tx_slot; /* per descriptor head: the transmit buffer it carries */
	/* A received frame taken from the used ring and not yet handed out. */
	bool rx_pending;
	UINT16 rx_pending_slot;
	UINT32 rx_pending_len;
	/* Transmit buffers: the caller's pointer for each one in use (NULL: free), and the
	 * ones the device has sent, in order, until GetStatus hands them back. */
	void *tx_owner[VNET_TX_BUFFERS];
	UINT16 tx_done[VNET_TX_BUFFERS];
	UINT16 tx_done_count;
};

/* ---- virtio_net_dev.c ---- */

/* Negotiates features, reads the MAC and link state into n->mode, then resets the device:
 * the queues are set up only by vnet_dev_up (SNP Initialize). */
EFI_STATUS vnet_dev_probe(struct virtio_net *n);
/* Sets up both queues, fills the receive queue and sets DRIVER_OK. */
EFI_STATUS vnet_dev_up(struct virtio_net *n);
/* Resets the device and releases the queues and buffers (nothing when not live). */
void vnet_dev_down(struct virtio_net *n);
/* The link state, from the device's status field when VIRTIO_NET_F_STATUS was negotiated. */
bool vnet_dev_link_up(struct virtio_net *n);
/* Reaps the transmit queue's used ring into tx_done. */
void vnet_dev_reap_tx(struct virtio_net *n);
/* Copies a frame (len bytes, after the virtio header) into a free transmit buffer and hands
 * it to the device; owner is what GetStatus gives back. EFI_NOT_READY when all are busy. */
EFI_STATUS vnet_dev_send(struct virtio_net *n, const void *frame, UINT32 len, void *owner);
/* The next received frame the filters accept, kept as rx_pending; EFI_NOT_READY when none. */
EFI_STATUS vnet_dev_peek(struct virtio_net *n);
/* The pending frame's bytes. */
UINT8 *vnet_dev_pending_frame(struct virtio_net *n);
/* Gives the pending frame's buffer back to the device. */
void vnet_dev_release_pending(struct virtio_net *n);

/* ---- virtio_net_snp.c ---- */

/* Sets up n->front over the device (snp_front_init). */
EFI_STATUS vnet_snp_init(struct virtio_net *n);
/* Closes WaitForPacket and takes the device down. */
void vnet_snp_fini(struct virtio_net *n);

#endif
