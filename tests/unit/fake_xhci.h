/* An xHCI controller in memory (eXtensible Host Controller Interface 1.2) for the tests of
 * Ember's xHCI driver, on a fake PCI function (fake_pci_io.h): capability, operational,
 * runtime and doorbell registers in BAR 0; the command ring (Enable/Disable Slot, Address
 * Device with and without BSR, Configure Endpoint, Evaluate Context, Reset/Stop Endpoint,
 * Set TR Dequeue Pointer), transfer rings with link TRBs, and one event ring, all reached
 * through the function's DMA mappings only, served at once when a doorbell rings (as QEMU
 * does). Root port 1 holds a high-speed boot keyboard (tests/unit/usb_descs.c) whose
 * interrupt endpoint answers with the reports the test queues. Driver mistakes (a bad
 * TRB, a context out of place, DMA outside a mapping) are counted in pci->errors. */
#ifndef EMBER_TEST_FAKE_XHCI_H
#define EMBER_TEST_FAKE_XHCI_H

#include <stdbool.h>
#include "fake_pci_io.h"

#define FAKE_XHCI_SLOTS 8
#define FAKE_XHCI_PORTS 4
#define FAKE_XHCI_SCRATCHPADS 2

struct fake_xhci_ring {
	UINT64 dequeue;
	UINT32 cycle;
	bool running; /* a doorbell restarts a stopped endpoint, not a halted one */
	bool halted;
};

struct fake_xhci {
	struct fake_pci_io *pci;
	UINT32 usbcmd, usbsts, config;
	UINT64 crcr, dcbaap, erstba, erdp;
	UINT32 portsc[FAKE_XHCI_PORTS];
	struct fake_xhci_ring cmd;
	UINT64 ev_base;
	UINT32 ev_size, ev_index, ev_cycle;
	bool slot_on[FAKE_XHCI_SLOTS + 1];
	struct fake_xhci_ring eps[FAKE_XHCI_SLOTS + 1][32];
	/* The keyboard on port 1. */
	bool kbd_addressed;
	UINT8 kbd_slot, kbd_configuration;
	UINT8 report[8];
	bool report_ready;
	UINTN commands, transfers, class_requests;
};

/* Installs the controller with its keyboard; NULL on failure. */
struct fake_xhci *fake_xhci_create(void);
/* Removes it (drivers disconnected first) and frees it. */
void fake_xhci_destroy(struct fake_xhci *x);
/* Queues a keyboard report: delivered to the interrupt TD waiting, or the next one. */
void fake_xhci_report(struct fake_xhci *x, const UINT8 report[8]);

#endif
