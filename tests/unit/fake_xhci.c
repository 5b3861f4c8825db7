/* An xHCI controller in memory (see fake_xhci.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_xhci.h"
#include "usb_descs.h"
#include "../../drivers/usb/xhci/xhci_regs.h"
#include <efi/protocol/usb_io.h>

#define CAP_LENGTH 0x20
#define RT_OFFSET 0x1000
#define DB_OFFSET 0x2000
#define BAR_SIZE 0x4000
#define CTX 32 /* context size: HCCPARAMS1.CSZ is 0 */
#define KBD_PORT 1

static void *dma(struct fake_xhci *x, UINT64 addr, UINTN bytes, bool writes)
{
	return fake_pci_io_dma(x->pci, addr, bytes, writes);
}

static void post_event(struct fake_xhci *x, UINT64 param, UINT32 status, UINT32 control)
{
	struct xhci_trb *ev = dma(x, x->ev_base + 16ULL * x->ev_index, 16, true);

	if (!ev)
		return;
	ev->param = param;
	ev->status = status;
	ev->control = (control & ~TRB_CYCLE) | x->ev_cycle;
	if (++x->ev_index == x->ev_size) {
		x->ev_index = 0;
		x->ev_cycle ^= 1;
	}
}

/* The next TRB of a ring for the controller, links followed; NULL when none is ready. */
static struct xhci_trb *next_trb(struct fake_xhci *x, struct fake_xhci_ring *r, UINT64 *at)
{
	for (int links = 0; links < 2; links++) {
		struct xhci_trb *t = dma(x, r->dequeue, 16, false);

		if (!t || (t->control & TRB_CYCLE) != r->cycle)
			return NULL;
		if (TRB_TYPE_OF(t->control) != TRB_LINK) {
			*at = r->dequeue;
			return t;
		}
		if (t->control & TRB_TOGGLE)
			r->cycle ^= 1;
		r->dequeue = t->param;
	}
	fake_pci_io_error(x->pci, "xhci: a link to a link");
	return NULL;
}

static UINT32 *out_ctx(struct fake_xhci *x, UINT8 slot)
{
	UINT64 *dcbaa = dma(x, x->dcbaap, 8ULL * (FAKE_XHCI_SLOTS + 1), false);

	return dcbaa && dcbaa[slot] ? dma(x, dcbaa[slot], 32 * CTX, true) : NULL;
}

static void ring_from_ctx(struct fake_xhci_ring *r, const UINT32 *ep)
{
	r->dequeue = ((UINT64)ep[3] << 32 | ep[2]) & ~0xfULL;
	r->cycle = ep[2] & 1;
	r->running = true;
	r->halted = false;
}

/* Address Device and Configure Endpoint: the input context's slot and endpoints. */
static UINT32 take_input(struct fake_xhci *x, UINT8 slot, UINT64 input, bool bsr)
{
	UINT32 *in = dma(x, input, 33 * CTX, false), *out = out_ctx(x, slot);
	UINT32 add;

	if (!in || !out || !x->slot_on[slot])
		return 5; /* TRB error */
	add = in[1];
	if (add & 1) {
		memcpy(out, in + CTX / 4, CTX);
		out[3] = (bsr ? 1u : 2u) << 27 | (bsr ? 0 : slot);
	}
	for (UINT32 dci = 1; dci < 32; dci++) {
		if (!(add & (1u << dci)))
			continue;
		memcpy(out + dci * CTX / 4, in + (dci + 1) * CTX / 4, CTX);
		out[dci * CTX / 4] = (out[dci * CTX / 4] & ~7u) | 1; /* running */
		ring_from_ctx(&x->eps[slot][dci], in + (dci + 1) * CTX / 4);
	}
	if ((add & 1) && (in[CTX / 4 + 1] >> 16) == KBD_PORT) {
		x->kbd_slot = slot;
		x->kbd_addressed = !bsr;
	}
	return 1;
}

static UINT32 set_ep_state(struct fake_xhci *x, UINT8 slot, UINT8 dci, UINT32 state)
{
	UINT32 *out = out_ctx(x, slot);

	if (!out || !x->slot_on[slot] || dci < 1 || dci > 31)
		return 5;
	out[dci * CTX / 4] = (out[dci * CTX / 4] & ~7u) | state;
	x->eps[slot][dci].running = state == 1;
	x->eps[slot][dci].halted = state == 2;
	return 1;
}

static UINT32 command(struct fake_xhci *x, const struct xhci_trb *t, UINT8 *slot_out)
{
	UINT8 slot = TRB_SLOT_OF(t->control), dci = TRB_EP_OF(t->control);

	x->commands++;
	switch (TRB_TYPE_OF(t->control)) {
	case TRB_ENABLE_SLOT:
		for (UINT8 s = 1; s <= FAKE_XHCI_SLOTS; s++)
			if (!x->slot_on[s]) {
				x->slot_on[s] = true;
				memset(x->eps[s], 0, sizeof(x->eps[s]));
				*slot_out = s;
				return 1;
			}
		return 9; /* no slots */
	case TRB_DISABLE_SLOT:
		if (slot > FAKE_XHCI_SLOTS || !x->slot_on[slot])
			return 11; /* slot not enabled */
		x->slot_on[slot] = false;
		if (slot == x->kbd_slot)
			x->kbd_slot = 0;
		return 1;
	case TRB_ADDRESS_DEVICE:
	case TRB_CONFIGURE_EP:
		if (slot > FAKE_XHCI_SLOTS)
			return 5;
		if (TRB_TYPE_OF(t->control) == TRB_CONFIGURE_EP && (t->control & TRB_DC))
			return 1;
		return take_input(x, slot, t->param, t->control & TRB_BSR);
	case TRB_EVALUATE_CONTEXT:
		return slot <= FAKE_XHCI_SLOTS && x->slot_on[slot] ? 1 : 11;
	case TRB_RESET_EP:
	case TRB_STOP_EP:
		return slot <= FAKE_XHCI_SLOTS ? set_ep_state(x, slot, dci, 3) : 5;
	case TRB_SET_TR_DEQUEUE:
		if (slot > FAKE_XHCI_SLOTS || dci < 1 || dci > 31)
			return 5;
		x->eps[slot][dci].dequeue = t->param & ~0xfULL;
		x->eps[slot][dci].cycle = t->param & 1;
		return 1;
	default:
		fake_pci_io_error(x->pci, "xhci: command type %u", TRB_TYPE_OF(t->control));
		return 5;
	}
}

static void run_commands(struct fake_xhci *x)
{
	struct xhci_trb *t;
	UINT64 at;

	while ((t = next_trb(x, &x->cmd, &at))) {
		UINT8 slot = 0;
		UINT32 cc = command(x, t, &slot);

		x->cmd.dequeue += 16;
		post_event(x, at, cc << 24, TRB_TYPE(TRB_EV_COMMAND) | TRB_SLOT(slot));
	}
}

/* The keyboard's answer to a control request: bytes into buf (up to len). */
static UINTN answer(struct fake_xhci *x, const EFI_USB_DEVICE_REQUEST *req, UINT8 *buf, UINTN len,
		    UINT32 *cc)
{
	const UINT8 *desc = NULL;
	UINTN n = 0;

	*cc = 1;
	if ((req->RequestType & 0x60) == USB_REQ_TYPE_CLASS) {
		x->class_requests++;
		return 0;
	}
	if (req->Request == USB_REQ_SET_CONFIG) {
		x->kbd_configuration = (UINT8)req->Value;
		return 0;
	}
	if (req->Request == USB_REQ_SET_ADDRESS)
		fake_pci_io_error(x->pci, "xhci: SET_ADDRESS sent as a transfer");
	if (req->Request == USB_REQ_GET_DESCRIPTOR && (req->Value >> 8) == USB_DESC_TYPE_DEVICE)
		desc = usb_test_kbd_device, n = sizeof(usb_test_kbd_device);
	if (req->Request == USB_REQ_GET_DESCRIPTOR && (req->Value >> 8) == USB_DESC_TYPE_CONFIG)
		desc = usb_test_kbd_config, n = sizeof(usb_test_kbd_config);
	if (!desc) {
		*cc = 6; /* stall */
		return 0;
	}
	n = n < len ? n : len;
	if (buf)
		memcpy(buf, desc, n);
	return n;
}

/* A control TD: Setup, an optional Data stage, Status. */
static void control_td(struct fake_xhci *x, UINT8 slot, struct fake_xhci_ring *r)
{
	struct xhci_trb *t, *data = NULL;
	EFI_USB_DEVICE_REQUEST req;
	UINT64 at, data_at = 0;
	UINT32 cc;
	UINTN got;

	while ((t = next_trb(x, r, &at))) {
		r->dequeue += 16;
		if (TRB_TYPE_OF(t->control) == TRB_SETUP) {
			memcpy(&req, &t->param, 8);
			data = NULL;
		} else if (TRB_TYPE_OF(t->control) == TRB_DATA) {
			data = t, data_at = at;
		} else if (TRB_TYPE_OF(t->control) == TRB_STATUS) {
			UINTN len = data ? data->status & 0x1ffff : 0;
			UINT8 *buf =
			    data ? dma(x, data->param, len, data->control & TRB_DIR_IN) : NULL;

			x->transfers++;
			got = answer(x, &req, buf, len, &cc);
			if (data && cc == 1 && got < len && (data->control & TRB_ISP))
				post_event(x, data_at, 13u << 24 | (UINT32)(len - got),
					   TRB_TYPE(TRB_EV_TRANSFER) | TRB_SLOT(slot) | TRB_EP(1));
			post_event(x, at, cc << 24,
				   TRB_TYPE(TRB_EV_TRANSFER) | TRB_SLOT(slot) | TRB_EP(1));
			if (cc != 1) {
				set_ep_state(x, slot, 1, 2); /* halted until Reset Endpoint */
				return;
			}
		}
	}
}

/* The keyboard's interrupt endpoint: a Normal TRB waits until a report is queued. */
static void interrupt_td(struct fake_xhci *x, UINT8 slot, UINT8 dci, struct fake_xhci_ring *r)
{
	struct xhci_trb *t;
	UINT64 at;

	while (x->report_ready && (t = next_trb(x, r, &at))) {
		UINTN len = t->status & 0x1ffff;
		UINT8 *buf = dma(x, t->param, len, true);

		if (!buf || TRB_TYPE_OF(t->control) != TRB_NORMAL)
			return;
		memcpy(buf, x->report, len < 8 ? len : 8);
		x->report_ready = false;
		r->dequeue += 16;
		post_event(x, at, 1u << 24 | (UINT32)(len > 8 ? len - 8 : 0),
			   TRB_TYPE(TRB_EV_TRANSFER) | TRB_SLOT(slot) | TRB_EP(dci));
	}
}

static void doorbell(struct fake_xhci *x, UINT32 slot, UINT32 target)
{
	if (!(x->usbcmd & XHCI_CMD_RUN))
		fake_pci_io_error(x->pci, "xhci: a doorbell while halted");
	if (slot == 0) {
		run_commands(x);
	} else if (slot <= FAKE_XHCI_SLOTS && target >= 1 && target < 32 &&
		   x->eps[slot][target].dequeue && !x->eps[slot][target].halted) {
		x->eps[slot][target].running = true;
		if (target == 1)
			control_td(x, (UINT8)slot, &x->eps[slot][1]);
		else if (slot == x->kbd_slot)
			interrupt_td(x, (UINT8)slot, (UINT8)target, &x->eps[slot][target]);
	}
}

void fake_xhci_report(struct fake_xhci *x, const UINT8 report[8])
{
	memcpy(x->report, report, 8);
	x->report_ready = true;
	if (x->kbd_slot && x->eps[x->kbd_slot][3].running)
		interrupt_td(x, x->kbd_slot, 3, &x->eps[x->kbd_slot][3]);
}

static void reset(struct fake_xhci *x)
{
	x->usbcmd = 0;
	x->usbsts = XHCI_STS_HCH;
	memset(x->slot_on, 0, sizeof(x->slot_on));
	memset(x->eps, 0, sizeof(x->eps));
	x->kbd_slot = 0;
	for (UINT32 i = 0; i < FAKE_XHCI_PORTS; i++)
		x->portsc[i] = XHCI_PORTSC_PP;
	x->portsc[KBD_PORT - 1] |= XHCI_PORTSC_CCS | XHCI_PORTSC_CSC;
}

static UINT64 cap_read(UINT64 offset)
{
	switch (offset) {
	case XHCI_CAPLENGTH:
		return CAP_LENGTH | 0x0100u << 16;
	case XHCI_HCSPARAMS1:
		return FAKE_XHCI_SLOTS | 1u << 8 | (UINT32)FAKE_XHCI_PORTS << 24;
	case XHCI_HCSPARAMS2:
		return (UINT32)FAKE_XHCI_SCRATCHPADS << 27;
	case XHCI_DBOFF:
		return DB_OFFSET;
	case XHCI_RTSOFF:
		return RT_OFFSET;
	default:
		return 0;
	}
}

static UINT64 bar_read(void *device, UINT64 offset, UINT32 width)
{
	struct fake_xhci *x = device;

	if (offset < CAP_LENGTH)
		return cap_read(offset);
	offset -= CAP_LENGTH;
	if (offset == XHCI_USBCMD)
		return x->usbcmd;
	if (offset == XHCI_USBSTS)
		return x->usbsts;
	if (offset == XHCI_PAGESIZE)
		return 1;
	if (offset >= 0x400 && offset < 0x400 + 0x10 * FAKE_XHCI_PORTS && !(offset & 0xf))
		return x->portsc[(offset - 0x400) / 0x10];
	return 0;
}

static void port_write(struct fake_xhci *x, UINT32 i, UINT32 value)
{
	UINT32 *sc = &x->portsc[i];

	*sc &= ~(value & XHCI_PORTSC_CHANGES);
	if (value & XHCI_PORTSC_PED)
		*sc &= ~XHCI_PORTSC_PED;
	if ((value & XHCI_PORTSC_PR) && (*sc & XHCI_PORTSC_CCS))
		*sc |= XHCI_PORTSC_PED | XHCI_PORTSC_PRC | (UINT32)XHCI_SPEED_HIGH << 10;
}

static void set64(UINT64 *reg, UINT64 offset, UINT64 value)
{
	if (offset & 4)
		*reg = (*reg & 0xffffffffULL) | value << 32;
	else
		*reg = (*reg & ~0xffffffffULL) | (UINT32)value;
}

static void runtime_write(struct fake_xhci *x, UINT64 offset, UINT64 value)
{
	if (offset == XHCI_ERSTBA || offset == XHCI_ERSTBA + 4) {
		UINT64 *erst;

		set64(&x->erstba, offset - XHCI_ERSTBA, value);
		erst = offset & 4 ? dma(x, x->erstba, 16, false) : NULL;
		if (erst) {
			x->ev_base = erst[0];
			x->ev_size = (UINT32)erst[1];
			x->ev_index = 0;
			x->ev_cycle = 1;
		}
	} else if (offset == XHCI_ERDP || offset == XHCI_ERDP + 4) {
		set64(&x->erdp, offset - XHCI_ERDP, value);
	}
}

static void op_write(struct fake_xhci *x, UINT64 offset, UINT64 value)
{
	if (offset == XHCI_USBCMD) {
		if (value & XHCI_CMD_HCRST)
			reset(x);
		else
			x->usbcmd = (UINT32)value;
		x->usbsts = x->usbcmd & XHCI_CMD_RUN ? 0 : XHCI_STS_HCH;
	} else if (offset == XHCI_CRCR || offset == XHCI_CRCR + 4) {
		set64(&x->crcr, offset - XHCI_CRCR, value);
		x->cmd.dequeue = x->crcr & ~0x3fULL;
		x->cmd.cycle = x->crcr & 1;
	} else if (offset == XHCI_DCBAAP || offset == XHCI_DCBAAP + 4) {
		set64(&x->dcbaap, offset - XHCI_DCBAAP, value);
	} else if (offset == XHCI_CONFIG) {
		x->config = (UINT32)value;
	} else if (offset >= 0x400 && offset < 0x400 + 0x10 * FAKE_XHCI_PORTS && !(offset & 0xf)) {
		port_write(x, (UINT32)(offset - 0x400) / 0x10, (UINT32)value);
	}
}

static void bar_write(void *device, UINT64 offset, UINT32 width, UINT64 value)
{
	struct fake_xhci *x = device;

	if (offset >= DB_OFFSET)
		doorbell(x, (UINT32)(offset - DB_OFFSET) / 4, (UINT32)value & 0xff);
	else if (offset >= RT_OFFSET)
		runtime_write(x, offset - RT_OFFSET, value);
	else if (offset >= CAP_LENGTH)
		op_write(x, offset - CAP_LENGTH, value);
}

struct fake_xhci *fake_xhci_create(void)
{
	const struct fake_pci_io_config config = {
	    .vendor = 0x1b36,
	    .device = 0x000d,
	    .class_code = 0x0c0330,
	    .dev = 5,
	    .supports = EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER,
	    .config_read_only = true,
	};
	struct fake_xhci *x = calloc(1, sizeof(*x));

	x->pci = fake_pci_io_create(&config);
	if (!x->pci) {
		free(x);
		return NULL;
	}
	reset(x);
	fake_pci_io_set_bar(x->pci, 0,
			    &(struct fake_pci_bar){BAR_SIZE, false, bar_read, bar_write, x});
	return x;
}

void fake_xhci_destroy(struct fake_xhci *x)
{
	fake_pci_io_destroy(x->pci);
	free(x);
}
