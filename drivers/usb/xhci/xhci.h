/* The xHCI host controller driver's private interfaces: the controller, its rings, its
 * device slots and their transfers, and EFI_USB2_HC_PROTOCOL on top (UEFI 2.10, 17.1). */
#ifndef EMBER_XHCI_H
#define EMBER_XHCI_H

#include <stdbool.h>
#include <efi/protocol/pci_io.h>
#include <efi/protocol/usb2_hc.h>
#include <ember/drivers/pci_driver.h>
#include <ember/lib/list.h>
#include <ember/lib/util.h>
#include "xhci_regs.h"

#define XHCI_SIGNATURE 0x69636878u /* "xhci" */
#define XHCI_PAGE 4096
#define XHCI_RING_TRBS (XHCI_PAGE / sizeof(struct xhci_trb)) /* the last is the link */
#define XHCI_MAX_SLOTS 64
#define XHCI_MAX_ADDRESS 128
#define XHCI_CMD_TIMEOUT_MS 1000

/* Pages shared with the controller (AllocateBuffer + a CommonBuffer mapping). */
struct xhci_dma {
	void *host;
	UINT64 dev;
	void *mapping;
	UINTN pages;
};

/* A ring of one page of TRBs ending in a link TRB back to its start, with the one transfer
 * descriptor (TD) at a time that is on it, and how that TD ended. */
struct xhci_ring {
	struct xhci_dma mem;
	UINT32 enqueue;
	UINT32 cycle;
	bool busy;		  /* a TD is queued and not completed */
	bool done;		  /* it completed: cc, event_index and residual say how */
	bool control;		  /* done only at the Status stage's event (or on an error) */
	UINT32 td_first, td_last; /* indexes of its first and last TRB */
	UINT32 cc;
	UINT32 event_index;   /* the TRB the event names */
	UINT32 residual;      /* bytes of that TRB not transferred */
	UINT32 data_residual; /* a control TD's Data stage short by this much */
};

struct xhci_hc;

/* A device slot: the xHC's view of one USB device. */
struct xhci_dev {
	UINT8 slot;
	UINT8 port;    /* root hub port, from 1 */
	UINT8 speed;   /* XHCI_SPEED_* */
	UINT8 address; /* the bus driver's address for it, 0 before SET_ADDRESS */
	/* Where it is (slot context, 6.2.2): its route string below the root port, the hub
	 * it is behind (slot and port, 0 on a root port), the hubs on its way, and the
	 * transaction translator of a full/low-speed device behind a high-speed hub. */
	UINT32 route;
	UINT8 parent_slot, parent_port, depth;
	UINT8 tt_slot, tt_port;
	struct xhci_dma ctx; /* page 0: the output device context; pages 1-2: the input context */
	struct xhci_ring *rings[32]; /* by DCI (1: the default control endpoint) */
};

/* One AsyncInterruptTransfer: a TD kept queued, its data handed to callback each time. */
struct xhci_async {
	struct list link;
	UINT8 address, endpoint;
	struct xhci_dev *dev;
	UINT8 dci;
	struct xhci_dma buf;
	UINTN length;
	EFI_ASYNC_USB_TRANSFER_CALLBACK callback;
	void *context;
};

struct xhci_hc {
	UINT32 signature;
	EFI_USB2_HC_PROTOCOL usb2;
	EFI_PCI_IO_PROTOCOL *pci_io;
	UINT32 op, db, rt; /* register block offsets in BAR 0 */
	UINT32 hcc1;
	UINT8 max_slots, max_ports;
	UINT32 ctx_size; /* 32 or 64 bytes */
	struct xhci_dma dcbaa;
	struct xhci_dma scratch_array, scratch;
	struct xhci_ring cmd;
	bool cmd_done;
	UINT32 cmd_cc;
	UINT8 cmd_slot;
	UINT64 cmd_trb;
	struct xhci_dma events; /* page 0: the event ring; page 1: its segment table */
	UINT32 ev_dequeue, ev_cycle;
	struct xhci_dev *slots[XHCI_MAX_SLOTS + 1];
	UINT8 slot_of_address[XHCI_MAX_ADDRESS];
	UINT8 default_slot; /* the slot that address 0 reaches: the last port reset */
	UINT8 port_slot[256];
	UINT8 hub_reset_slot, hub_reset_port; /* the last hub port the bus driver reset */
	struct list async;		      /* struct xhci_async */
	EFI_EVENT async_timer;
	EFI_EVENT exit_event;
	bool running;
};

/* Registers (xhci_mmio.c). */
UINT32 xhci_cap_read(struct xhci_hc *hc, UINT32 offset);
UINT32 xhci_op_read(struct xhci_hc *hc, UINT32 offset);
void xhci_op_write(struct xhci_hc *hc, UINT32 offset, UINT32 value);
void xhci_op_write64(struct xhci_hc *hc, UINT32 offset, UINT64 value);
void xhci_rt_write(struct xhci_hc *hc, UINT32 offset, UINT32 value);
void xhci_rt_write64(struct xhci_hc *hc, UINT32 offset, UINT64 value);
void xhci_doorbell(struct xhci_hc *hc, UINT8 slot, UINT32 target);
/* Waits up to ms for (op register & mask) == value; EFI_TIMEOUT else. */
EFI_STATUS xhci_op_wait(struct xhci_hc *hc, UINT32 offset, UINT32 mask, UINT32 value, UINT32 ms);
EFI_STATUS xhci_dma_alloc(struct xhci_hc *hc, UINTN pages, struct xhci_dma *dma);
void xhci_dma_free(struct xhci_hc *hc, struct xhci_dma *dma);

/* Rings (xhci_ring.c). */
EFI_STATUS xhci_ring_init(struct xhci_hc *hc, struct xhci_ring *ring);
void xhci_ring_fini(struct xhci_hc *hc, struct xhci_ring *ring);
struct xhci_ring *xhci_ring_new(struct xhci_hc *hc);
void xhci_ring_free(struct xhci_hc *hc, struct xhci_ring *ring);
/* Room for n TRBs of a TD (the link TRB does not count). */
bool xhci_ring_room(struct xhci_ring *ring, UINT32 n);
/* Queues one TRB (cycle bit supplied); returns its index. */
UINT32 xhci_ring_put(struct xhci_ring *ring, UINT64 param, UINT32 status, UINT32 control);
UINT64 xhci_ring_trb_addr(struct xhci_ring *ring, UINT32 index);
/* The enqueue pointer with the cycle state, for contexts and Set TR Dequeue. */
UINT64 xhci_ring_dequeue_ptr(struct xhci_ring *ring);
/* Bytes the TRBs of the current TD moved up to the event's TRB. */
UINTN xhci_ring_td_bytes(struct xhci_ring *ring);

/* Events (xhci_event.c). */
EFI_STATUS xhci_events_init(struct xhci_hc *hc);
/* Handles every event waiting, at TPL_NOTIFY. */
void xhci_events_poll(struct xhci_hc *hc);

/* Commands (xhci_cmd.c); each waits for its completion. */
EFI_STATUS xhci_cmd(struct xhci_hc *hc, UINT64 param, UINT32 control, UINT8 *slot);
EFI_STATUS xhci_cmd_enable_slot(struct xhci_hc *hc, UINT8 *slot);
EFI_STATUS xhci_cmd_disable_slot(struct xhci_hc *hc, UINT8 slot);
EFI_STATUS xhci_cmd_ctx(struct xhci_hc *hc, UINT32 type, struct xhci_dev *dev, UINT32 flags);
EFI_STATUS xhci_cmd_ep(struct xhci_hc *hc, UINT32 type, struct xhci_dev *dev, UINT8 dci);
EFI_STATUS xhci_cmd_set_dequeue(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci);

/* The controller (xhci_hc.c). */
EFI_STATUS xhci_hc_init(struct xhci_hc *hc);
void xhci_hc_halt(struct xhci_hc *hc);
void xhci_hc_fini(struct xhci_hc *hc);

/* Devices (xhci_dev.c). */
UINT32 *xhci_in_ctx(struct xhci_hc *hc, struct xhci_dev *dev, UINT32 index);
UINT32 *xhci_out_ctx(struct xhci_hc *hc, struct xhci_dev *dev, UINT32 index);
EFI_STATUS xhci_dev_create(struct xhci_hc *hc, UINT8 port, UINT8 speed);
void xhci_dev_destroy(struct xhci_hc *hc, struct xhci_dev *dev);
EFI_STATUS xhci_dev_set_address(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 address);
EFI_STATUS xhci_dev_set_ep0_packet(struct xhci_hc *hc, struct xhci_dev *dev, UINTN max_packet);
/* The ring of an endpoint, configured on first use (type XHCI_EP_*). */
EFI_STATUS xhci_dev_endpoint(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 endpoint, UINT32 type,
			     UINTN max_packet, UINTN interval_ms, UINT8 *dci);
/* Drops every endpoint but the default one (the device was given a configuration). */
EFI_STATUS xhci_dev_deconfigure(struct xhci_hc *hc, struct xhci_dev *dev);
/* A slot for the device on the hub port the bus driver last reset, reached at address 0
 * (xhci_hub.c); speed is EFI_USB_SPEED_*, tt the bus driver's Translator. */
struct xhci_dev *xhci_dev_behind_hub(struct xhci_hc *hc, UINT8 speed,
				     const EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt);
/* Notes the hub class requests the xHC must know of: a hub port reset (the next device at
 * address 0 is there), a hub descriptor (the slot is a hub of so many ports). */
void xhci_hub_request_done(struct xhci_hc *hc, struct xhci_dev *dev,
			   const EFI_USB_DEVICE_REQUEST *req, const void *data, UINTN length);
/* Creates a slot for a device (root port or behind a hub, as tmpl says), at address 0. */
EFI_STATUS xhci_dev_create_at(struct xhci_hc *hc, const struct xhci_dev *tmpl);
/* The device the bus driver's address names, or NULL. */
struct xhci_dev *xhci_dev_at(struct xhci_hc *hc, UINT8 address);
/* An endpoint with an ended TD made usable again (halted: reset; busy: stopped). */
void xhci_ep_recover(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci);

/* Transfers (xhci_xfer.c). */
EFI_STATUS xhci_control(struct xhci_hc *hc, struct xhci_dev *dev, const EFI_USB_DEVICE_REQUEST *req,
			EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length, UINTN timeout_ms,
			UINT32 *result);
EFI_STATUS xhci_normal(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, bool in, void *data,
		       UINTN *length, UINTN timeout_ms, UINT32 *result);
/* Queues a TD of Normal TRBs for bytes at dev_addr on ring (not waited for). */
void xhci_queue_normal(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 dci, UINT64 dev_addr,
		       UINTN bytes);
UINT32 xhci_result(UINT32 cc);

/* Ports (xhci_port.c). */
EFI_STATUS xhci_port_status(struct xhci_hc *hc, UINT8 port, EFI_USB_PORT_STATUS *status);
EFI_STATUS xhci_port_set(struct xhci_hc *hc, UINT8 port, EFI_USB_PORT_FEATURE feature);
EFI_STATUS xhci_port_clear(struct xhci_hc *hc, UINT8 port, EFI_USB_PORT_FEATURE feature);

/* Asynchronous interrupt transfers (xhci_async.c). */
EFI_STATUS xhci_async_add(struct xhci_hc *hc, struct xhci_dev *dev, UINT8 address, UINT8 endpoint,
			  UINTN max_packet, UINTN interval_ms, UINTN length,
			  EFI_ASYNC_USB_TRANSFER_CALLBACK callback, void *context);
EFI_STATUS xhci_async_remove(struct xhci_hc *hc, UINT8 address, UINT8 endpoint);
void xhci_async_remove_dev(struct xhci_hc *hc, struct xhci_dev *dev);
EFI_STATUS xhci_async_init(struct xhci_hc *hc);
void xhci_async_fini(struct xhci_hc *hc);

/* EFI_USB2_HC_PROTOCOL (xhci_usb2hc.c). */
extern const EFI_USB2_HC_PROTOCOL xhci_usb2_template;

#endif
