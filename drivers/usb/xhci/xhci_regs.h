/* xHCI registers, TRBs and contexts (eXtensible Host Controller Interface 1.2, chapters 5
 * and 6): the numbers the driver needs, nothing more. */
#ifndef EMBER_XHCI_REGS_H
#define EMBER_XHCI_REGS_H

#include <efi/types.h>

/* Capability registers (5.3). */
#define XHCI_CAPLENGTH 0x00
#define XHCI_HCSPARAMS1 0x04
#define XHCI_HCSPARAMS2 0x08
#define XHCI_HCCPARAMS1 0x10
#define XHCI_DBOFF 0x14
#define XHCI_RTSOFF 0x18

#define XHCI_HCS1_MAX_SLOTS(v) ((v)&0xff)
#define XHCI_HCS1_MAX_PORTS(v) ((v) >> 24)
#define XHCI_HCS2_SPB(v) ((((v) >> 21) & 0x1f) << 5 | ((v) >> 27))
#define XHCI_HCC1_AC64 (1u << 0)
#define XHCI_HCC1_CSZ (1u << 2)
#define XHCI_HCC1_PPC (1u << 3)

/* Operational registers (5.4), from CAPLENGTH. */
#define XHCI_USBCMD 0x00
#define XHCI_USBSTS 0x04
#define XHCI_PAGESIZE 0x08
#define XHCI_CRCR 0x18
#define XHCI_DCBAAP 0x30
#define XHCI_CONFIG 0x38
#define XHCI_PORTSC(n) (0x400 + 0x10 * ((n)-1)) /* n from 1 */

#define XHCI_CMD_RUN (1u << 0)
#define XHCI_CMD_HCRST (1u << 1)
#define XHCI_STS_HCH (1u << 0)
#define XHCI_STS_CNR (1u << 11)
#define XHCI_CRCR_RCS 1u

#define XHCI_PORTSC_CCS (1u << 0)
#define XHCI_PORTSC_PED (1u << 1)
#define XHCI_PORTSC_OCA (1u << 3)
#define XHCI_PORTSC_PR (1u << 4)
#define XHCI_PORTSC_PP (1u << 9)
#define XHCI_PORTSC_SPEED(v) (((v) >> 10) & 0xf)
#define XHCI_PORTSC_CSC (1u << 17)
#define XHCI_PORTSC_PEC (1u << 18)
#define XHCI_PORTSC_WRC (1u << 19)
#define XHCI_PORTSC_OCC (1u << 20)
#define XHCI_PORTSC_PRC (1u << 21)
#define XHCI_PORTSC_PLC (1u << 22)
#define XHCI_PORTSC_CEC (1u << 23)
/* The write-1-to-clear change bits, and PED (writing 1 disables the port). */
#define XHCI_PORTSC_CHANGES (0x7fu << 17)
#define XHCI_PORTSC_KEEP_OFF (XHCI_PORTSC_CHANGES | XHCI_PORTSC_PED | XHCI_PORTSC_PR)

/* Port speeds (PORTSC and slot contexts, 7.2.2.1.1 default IDs). */
#define XHCI_SPEED_FULL 1
#define XHCI_SPEED_LOW 2
#define XHCI_SPEED_HIGH 3
#define XHCI_SPEED_SUPER 4

/* Runtime registers (5.5): interrupter 0. */
#define XHCI_IMAN 0x20
#define XHCI_ERSTSZ 0x28
#define XHCI_ERSTBA 0x30
#define XHCI_ERDP 0x38
#define XHCI_ERDP_EHB (1u << 3)

/* TRBs (6.4). */
struct xhci_trb {
	UINT64 param;
	UINT32 status;
	UINT32 control;
};
_Static_assert(sizeof(struct xhci_trb) == 16, "TRB layout");

#define TRB_CYCLE (1u << 0)
#define TRB_TOGGLE (1u << 1) /* Link TRB: toggle cycle */
#define TRB_ENT (1u << 1)
#define TRB_ISP (1u << 2)
#define TRB_CHAIN (1u << 4)
#define TRB_IOC (1u << 5)
#define TRB_IDT (1u << 6)
#define TRB_BSR (1u << 9) /* Address Device: block SET_ADDRESS */
#define TRB_DC (1u << 9)  /* Configure Endpoint: deconfigure */
#define TRB_DIR_IN (1u << 16)
#define TRB_TYPE(t) ((UINT32)(t) << 10)
#define TRB_TYPE_OF(c) (((c) >> 10) & 0x3f)
#define TRB_SLOT(s) ((UINT32)(s) << 24)
#define TRB_SLOT_OF(c) ((c) >> 24)
#define TRB_EP(e) ((UINT32)(e) << 16)
#define TRB_EP_OF(c) (((c) >> 16) & 0x1f)
#define TRB_CC_OF(s) ((s) >> 24)
#define TRB_LEN_OF(s) ((s)&0xffffff)
#define TRB_TRT_IN (3u << 16) /* Setup: IN data stage */
#define TRB_TRT_OUT (2u << 16)

enum {
	TRB_NORMAL = 1,
	TRB_SETUP = 2,
	TRB_DATA = 3,
	TRB_STATUS = 4,
	TRB_LINK = 6,
	TRB_ENABLE_SLOT = 9,
	TRB_DISABLE_SLOT = 10,
	TRB_ADDRESS_DEVICE = 11,
	TRB_CONFIGURE_EP = 12,
	TRB_EVALUATE_CONTEXT = 13,
	TRB_RESET_EP = 14,
	TRB_STOP_EP = 15,
	TRB_SET_TR_DEQUEUE = 16,
	TRB_EV_TRANSFER = 32,
	TRB_EV_COMMAND = 33,
	TRB_EV_PORT = 34,
};

/* Completion codes (6.4.5). */
enum {
	XHCI_CC_SUCCESS = 1,
	XHCI_CC_DATA_BUFFER = 2,
	XHCI_CC_BABBLE = 3,
	XHCI_CC_TRANSACTION = 4,
	XHCI_CC_STALL = 6,
	XHCI_CC_SHORT_PACKET = 13,
	XHCI_CC_TIMEOUT = 256, /* Ember's own: no event came */
};

/* Endpoint context types (6.2.3). */
#define XHCI_EP_BULK_OUT 2
#define XHCI_EP_INTR_OUT 3
#define XHCI_EP_CONTROL 4
#define XHCI_EP_BULK_IN 6
#define XHCI_EP_INTR_IN 7

#endif
