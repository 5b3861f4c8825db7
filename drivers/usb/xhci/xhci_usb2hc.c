/* EFI_USB2_HC_PROTOCOL over the xHC (UEFI 2.10, 17.1): each function checks its arguments
 * as the specification lists them, then hands the work to the controller. The bus
 * driver's SET_ADDRESS and SET_CONFIGURATION are the xHC's business too: the first becomes
 * an Address Device command, the second drops the endpoints of the old configuration. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <efi/protocol/usb_io.h>

#define TYPE_STANDARD_DEVICE_OUT 0x00

static struct xhci_hc *hc_of(EFI_USB2_HC_PROTOCOL *this)
{
	struct xhci_hc *hc = this ? container_of(this, struct xhci_hc, usb2) : NULL;

	return hc && hc->signature == XHCI_SIGNATURE ? hc : NULL;
}

static bool speed_valid(UINT8 speed)
{
	return speed <= EFI_USB_SPEED_SUPER;
}

static bool control_packet_valid(UINT8 speed, UINTN mps)
{
	switch (speed) {
	case EFI_USB_SPEED_LOW:
		return mps == 8;
	case EFI_USB_SPEED_FULL:
		return mps == 8 || mps == 16 || mps == 32 || mps == 64;
	case EFI_USB_SPEED_HIGH:
		return mps == 64;
	default:
		return mps == 512;
	}
}

static EFI_STATUS EFIAPI get_capability(EFI_USB2_HC_PROTOCOL *this, UINT8 *max_speed, UINT8 *ports,
					UINT8 *is_64bit)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc || !max_speed || !ports || !is_64bit)
		return EFI_INVALID_PARAMETER;
	*max_speed = EFI_USB_SPEED_SUPER;
	*ports = hc->max_ports;
	*is_64bit = hc->hcc1 & XHCI_HCC1_AC64 ? 1 : 0;
	return EFI_SUCCESS;
}

/* A reset would take every device's slot away under the bus driver: the controller is
 * only checked to be running. */
static EFI_STATUS EFIAPI reset(EFI_USB2_HC_PROTOCOL *this, UINT16 attributes)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc)
		return EFI_INVALID_PARAMETER;
	switch (attributes) {
	case EFI_USB_HC_RESET_GLOBAL:
	case EFI_USB_HC_RESET_HOST_CONTROLLER:
		return hc->running ? EFI_SUCCESS : EFI_DEVICE_ERROR;
	case EFI_USB_HC_RESET_GLOBAL_WITH_DEBUG:
	case EFI_USB_HC_RESET_HOST_WITH_DEBUG:
		return EFI_UNSUPPORTED;
	default:
		return EFI_INVALID_PARAMETER;
	}
}

static EFI_STATUS EFIAPI get_state(EFI_USB2_HC_PROTOCOL *this, EFI_USB_HC_STATE *state)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc || !state)
		return EFI_INVALID_PARAMETER;
	*state = hc->running ? EfiUsbHcStateOperational : EfiUsbHcStateHalt;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI set_state(EFI_USB2_HC_PROTOCOL *this, EFI_USB_HC_STATE state)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc || state >= EfiUsbHcStateMaximum)
		return EFI_INVALID_PARAMETER;
	if (state == EfiUsbHcStateSuspend)
		return EFI_UNSUPPORTED;
	if (state == EfiUsbHcStateHalt) {
		xhci_hc_halt(hc);
		return EFI_SUCCESS;
	}
	if (!hc->running) {
		xhci_op_write(hc, XHCI_USBCMD, XHCI_CMD_RUN);
		if (EFI_ERROR(xhci_op_wait(hc, XHCI_USBSTS, XHCI_STS_HCH, 0, 100)))
			return EFI_DEVICE_ERROR;
		hc->running = true;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS control_checks(UINT8 speed, UINTN mps, EFI_USB_DEVICE_REQUEST *request,
				 EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length,
				 UINT32 *result)
{
	if (!request || !result || !speed_valid(speed) || !control_packet_valid(speed, mps))
		return EFI_INVALID_PARAMETER;
	if (dir > EfiUsbNoData)
		return EFI_INVALID_PARAMETER;
	if (dir == EfiUsbNoData ? (data || (length && *length)) : (!data || !length))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* SET_ADDRESS and SET_CONFIGURATION, which the xHC must see. */
static EFI_STATUS control_intercept(struct xhci_hc *hc, struct xhci_dev *dev,
				    EFI_USB_DEVICE_REQUEST *request, UINT32 *result, bool *done)
{
	EFI_STATUS status;

	*done = false;
	if (request->RequestType != TYPE_STANDARD_DEVICE_OUT)
		return EFI_SUCCESS;
	if (request->Request == USB_REQ_SET_ADDRESS) {
		*done = true;
		status = xhci_dev_set_address(hc, dev, (UINT8)request->Value);
		*result = EFI_ERROR(status) ? EFI_USB_ERR_SYSTEM : EFI_USB_NOERROR;
		return EFI_ERROR(status) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
	}
	if (request->Request == USB_REQ_SET_CONFIG)
		return xhci_dev_deconfigure(hc, dev);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI control_transfer(EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 speed,
					  UINTN mps, EFI_USB_DEVICE_REQUEST *request,
					  EFI_USB_DATA_DIRECTION dir, void *data, UINTN *length,
					  UINTN timeout, EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt,
					  UINT32 *result)
{
	struct xhci_hc *hc = hc_of(this);
	struct xhci_dev *dev;
	EFI_STATUS status;
	bool done;

	if (!hc)
		return EFI_INVALID_PARAMETER;
	status = control_checks(speed, mps, request, dir, data, length, result);
	if (EFI_ERROR(status))
		return status;
	*result = EFI_USB_ERR_SYSTEM;
	dev = xhci_dev_at(hc, address);
	if (!dev && !address)
		dev = xhci_dev_behind_hub(hc, speed, tt);
	if (!dev)
		return EFI_DEVICE_ERROR;
	status = control_intercept(hc, dev, request, result, &done);
	if (done || EFI_ERROR(status))
		return status;
	status = xhci_dev_set_ep0_packet(hc, dev, mps);
	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	status = xhci_control(hc, dev, request, dir, data, length, timeout, result);
	if (!EFI_ERROR(status))
		xhci_hub_request_done(hc, dev, request, data, length ? *length : 0);
	return status;
}

static EFI_STATUS EFIAPI bulk_transfer(EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 endpoint,
				       UINT8 speed, UINTN mps, UINT8 buffers,
				       void *data[EFI_USB_MAX_BULK_BUFFER_NUM], UINTN *length,
				       UINT8 *toggle, UINTN timeout,
				       EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt, UINT32 *result)
{
	struct xhci_hc *hc = hc_of(this);
	struct xhci_dev *dev;
	EFI_STATUS status;
	bool in = endpoint & USB_ENDPOINT_DIR_IN;
	UINT8 dci;

	if (!hc || !data || !data[0] || !length || !*length || !toggle || *toggle > 1 || !result ||
	    !buffers || buffers > EFI_USB_MAX_BULK_BUFFER_NUM)
		return EFI_INVALID_PARAMETER;
	if (speed == EFI_USB_SPEED_LOW || !speed_valid(speed) || !mps ||
	    mps > (speed == EFI_USB_SPEED_SUPER	 ? 1024u
		   : speed == EFI_USB_SPEED_HIGH ? 512u
						 : 64u))
		return EFI_INVALID_PARAMETER;
	*result = EFI_USB_ERR_SYSTEM;
	dev = xhci_dev_at(hc, address);
	if (!dev || !address)
		return EFI_DEVICE_ERROR;
	status = xhci_dev_endpoint(hc, dev, endpoint, in ? XHCI_EP_BULK_IN : XHCI_EP_BULK_OUT, mps,
				   0, &dci);
	if (EFI_ERROR(status))
		return EFI_DEVICE_ERROR;
	return xhci_normal(hc, dev, dci, in, data[0], length, timeout, result);
}

static bool interrupt_packet_valid(UINT8 speed, UINTN mps)
{
	UINTN max = speed == EFI_USB_SPEED_LOW ? 8 : speed == EFI_USB_SPEED_FULL ? 64 : 3072;

	return speed_valid(speed) && mps && mps <= max;
}

static EFI_STATUS EFIAPI async_interrupt_transfer(
    EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 endpoint, UINT8 speed, UINTN mps,
    BOOLEAN is_new, UINT8 *toggle, UINTN interval, UINTN length,
    EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt, EFI_ASYNC_USB_TRANSFER_CALLBACK callback, void *context)
{
	struct xhci_hc *hc = hc_of(this);
	struct xhci_dev *dev;

	if (!hc || !(endpoint & USB_ENDPOINT_DIR_IN))
		return EFI_INVALID_PARAMETER;
	if (!is_new)
		return xhci_async_remove(hc, address, endpoint);
	if (!length || !toggle || *toggle > 1 || interval < 1 || interval > 255 || !callback ||
	    !interrupt_packet_valid(speed, mps))
		return EFI_INVALID_PARAMETER;
	dev = xhci_dev_at(hc, address);
	if (!dev || !address)
		return EFI_DEVICE_ERROR;
	return xhci_async_add(hc, dev, address, endpoint, mps, interval, length, callback, context);
}

static EFI_STATUS EFIAPI sync_interrupt_transfer(EFI_USB2_HC_PROTOCOL *this, UINT8 address,
						 UINT8 endpoint, UINT8 speed, UINTN mps, void *data,
						 UINTN *length, UINT8 *toggle, UINTN timeout,
						 EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt,
						 UINT32 *result)
{
	struct xhci_hc *hc = hc_of(this);
	struct xhci_dev *dev;
	UINT8 dci;

	if (!hc || !(endpoint & USB_ENDPOINT_DIR_IN) || !data || !length || !*length || !toggle ||
	    *toggle > 1 || !result || !interrupt_packet_valid(speed, mps))
		return EFI_INVALID_PARAMETER;
	*result = EFI_USB_ERR_SYSTEM;
	dev = xhci_dev_at(hc, address);
	if (!dev || !address)
		return EFI_DEVICE_ERROR;
	if (EFI_ERROR(xhci_dev_endpoint(hc, dev, endpoint, XHCI_EP_INTR_IN, mps, 8, &dci)))
		return EFI_DEVICE_ERROR;
	return xhci_normal(hc, dev, dci, true, data, length, timeout, result);
}

static EFI_STATUS EFIAPI isochronous_transfer(EFI_USB2_HC_PROTOCOL *this, UINT8 address,
					      UINT8 endpoint, UINT8 speed, UINTN mps, UINT8 buffers,
					      void *data[EFI_USB_MAX_ISO_BUFFER_NUM], UINTN length,
					      EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt,
					      UINT32 *result)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI async_isochronous_transfer(
    EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 endpoint, UINT8 speed, UINTN mps,
    UINT8 buffers, void *data[EFI_USB_MAX_ISO_BUFFER_NUM], UINTN length,
    EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt, EFI_ASYNC_USB_TRANSFER_CALLBACK callback, void *context)
{
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI get_port_status(EFI_USB2_HC_PROTOCOL *this, UINT8 port,
					 EFI_USB_PORT_STATUS *status)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc || !status || port >= hc->max_ports)
		return EFI_INVALID_PARAMETER;
	return xhci_port_status(hc, port, status);
}

static EFI_STATUS EFIAPI set_port_feature(EFI_USB2_HC_PROTOCOL *this, UINT8 port,
					  EFI_USB_PORT_FEATURE feature)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc || port >= hc->max_ports)
		return EFI_INVALID_PARAMETER;
	return xhci_port_set(hc, port, feature);
}

static EFI_STATUS EFIAPI clear_port_feature(EFI_USB2_HC_PROTOCOL *this, UINT8 port,
					    EFI_USB_PORT_FEATURE feature)
{
	struct xhci_hc *hc = hc_of(this);

	if (!hc || port >= hc->max_ports)
		return EFI_INVALID_PARAMETER;
	return xhci_port_clear(hc, port, feature);
}

const EFI_USB2_HC_PROTOCOL xhci_usb2_template = {
    .GetCapability = get_capability,
    .Reset = reset,
    .GetState = get_state,
    .SetState = set_state,
    .ControlTransfer = control_transfer,
    .BulkTransfer = bulk_transfer,
    .AsyncInterruptTransfer = async_interrupt_transfer,
    .SyncInterruptTransfer = sync_interrupt_transfer,
    .IsochronousTransfer = isochronous_transfer,
    .AsyncIsochronousTransfer = async_isochronous_transfer,
    .GetRootHubPortStatus = get_port_status,
    .SetRootHubPortFeature = set_port_feature,
    .ClearRootHubPortFeature = clear_port_feature,
    .MajorRevision = 3,
    .MinorRevision = 0,
};
