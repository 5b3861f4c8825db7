/* The root hub's ports (xHCI 1.2, 4.19 and 5.4.8 PORTSC) as USB2_HC's root hub port status
 * and features (UEFI 2.10, 17.1). A port reset that leaves a device enabled gives it a
 * device slot, which address 0 reaches until the bus driver's SET_ADDRESS. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>

#define PORT_RESET_MS 500

static UINT32 portsc(struct xhci_hc *hc, UINT8 port)
{
	return xhci_op_read(hc, XHCI_PORTSC(port));
}

/* Writes PORTSC keeping its state: no change bit cleared, the port not disabled. */
static void portsc_set(struct xhci_hc *hc, UINT8 port, UINT32 clear, UINT32 set)
{
	UINT32 sc = portsc(hc, port) & ~XHCI_PORTSC_KEEP_OFF & ~clear;

	xhci_op_write(hc, XHCI_PORTSC(port), sc | set);
}

static void forget_device(struct xhci_hc *hc, UINT8 port)
{
	UINT8 slot = hc->port_slot[port];

	if (slot && hc->slots[slot])
		xhci_dev_destroy(hc, hc->slots[slot]);
	hc->port_slot[port] = 0;
}

static UINT16 speed_bits(UINT32 sc)
{
	switch (XHCI_PORTSC_SPEED(sc)) {
	case XHCI_SPEED_LOW:
		return USB_PORT_STAT_LOW_SPEED;
	case XHCI_SPEED_HIGH:
		return USB_PORT_STAT_HIGH_SPEED;
	case XHCI_SPEED_SUPER:
		return USB_PORT_STAT_SUPER_SPEED;
	default:
		return 0;
	}
}

EFI_STATUS xhci_port_status(struct xhci_hc *hc, UINT8 port, EFI_USB_PORT_STATUS *status)
{
	UINT32 sc = portsc(hc, port + 1);
	UINT16 st = 0, ch = 0;

	st |= sc & XHCI_PORTSC_CCS ? USB_PORT_STAT_CONNECTION : 0;
	st |= sc & XHCI_PORTSC_PED ? USB_PORT_STAT_ENABLE : 0;
	st |= sc & XHCI_PORTSC_OCA ? USB_PORT_STAT_OVERCURRENT : 0;
	st |= sc & XHCI_PORTSC_PR ? USB_PORT_STAT_RESET : 0;
	st |= sc & XHCI_PORTSC_PP ? USB_PORT_STAT_POWER : 0;
	if (sc & XHCI_PORTSC_CCS)
		st |= speed_bits(sc);
	ch |= sc & XHCI_PORTSC_CSC ? USB_PORT_STAT_C_CONNECTION : 0;
	ch |= sc & XHCI_PORTSC_PEC ? USB_PORT_STAT_C_ENABLE : 0;
	ch |= sc & XHCI_PORTSC_OCC ? USB_PORT_STAT_C_OVERCURRENT : 0;
	ch |= sc & (XHCI_PORTSC_PRC | XHCI_PORTSC_WRC) ? USB_PORT_STAT_C_RESET : 0;
	status->PortStatus = st;
	status->PortChangeStatus = ch;
	/* The device went away: its slot goes too. */
	if (!(sc & XHCI_PORTSC_CCS) && hc->port_slot[port + 1])
		forget_device(hc, port + 1);
	return EFI_SUCCESS;
}

static EFI_STATUS port_reset(struct xhci_hc *hc, UINT8 port)
{
	UINT64 deadline = core_time_ns() + PORT_RESET_MS * 1000000ULL;
	UINT32 sc;

	forget_device(hc, port);
	portsc_set(hc, port, 0, XHCI_PORTSC_PR);
	while (!((sc = portsc(hc, port)) & XHCI_PORTSC_PRC) || (sc & XHCI_PORTSC_PR)) {
		if (core_time_ns() > deadline) {
			log_debug("port %u: reset does not end\n", port);
			return EFI_TIMEOUT;
		}
		core_stall_us(100);
	}
	if (!(sc & XHCI_PORTSC_CCS) || !(sc & XHCI_PORTSC_PED))
		return EFI_SUCCESS; /* nothing there: no slot */
	return xhci_dev_create(hc, port, (UINT8)XHCI_PORTSC_SPEED(sc));
}

EFI_STATUS xhci_port_set(struct xhci_hc *hc, UINT8 port, EFI_USB_PORT_FEATURE feature)
{
	switch (feature) {
	case EfiUsbPortReset:
		return port_reset(hc, port + 1);
	case EfiUsbPortPower:
		portsc_set(hc, port + 1, 0, XHCI_PORTSC_PP);
		return EFI_SUCCESS;
	case EfiUsbPortEnable: /* xHCI ports are enabled by a reset */
	case EfiUsbPortSuspend:
	case EfiUsbPortOwner:
		return EFI_SUCCESS;
	default:
		return EFI_INVALID_PARAMETER;
	}
}

EFI_STATUS xhci_port_clear(struct xhci_hc *hc, UINT8 port, EFI_USB_PORT_FEATURE feature)
{
	static const struct {
		EFI_USB_PORT_FEATURE feature;
		UINT32 bits;
	} w1c[] = {
	    {EfiUsbPortEnable, XHCI_PORTSC_PED},
	    {EfiUsbPortConnectChange, XHCI_PORTSC_CSC},
	    {EfiUsbPortEnableChange, XHCI_PORTSC_PEC},
	    {EfiUsbPortSuspendChange, XHCI_PORTSC_PLC},
	    {EfiUsbPortOverCurrentChange, XHCI_PORTSC_OCC},
	    {EfiUsbPortResetChange, XHCI_PORTSC_PRC | XHCI_PORTSC_WRC},
	};

	for (UINTN i = 0; i < ARRAY_SIZE(w1c); i++) {
		if (w1c[i].feature == feature) {
			portsc_set(hc, port + 1, 0, w1c[i].bits);
			return EFI_SUCCESS;
		}
	}
	switch (feature) {
	case EfiUsbPortPower:
		portsc_set(hc, port + 1, XHCI_PORTSC_PP, 0);
		return EFI_SUCCESS;
	case EfiUsbPortSuspend:
	case EfiUsbPortOwner:
		return EFI_SUCCESS;
	default:
		return EFI_INVALID_PARAMETER;
	}
}
