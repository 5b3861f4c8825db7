/* A USB host controller in memory (see fake_usb_hc.h). */
#include <stdlib.h>
#include <string.h>

#include "fake_usb_hc.h"
#include <efi/protocol/device_path.h>
#include <ember/core/core.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/guids.h>
#include <ember/lib/util.h>

#pragma pack(push, 1)
static struct {
	ACPI_HID_DEVICE_PATH root;
	PCI_DEVICE_PATH pci;
	EFI_DEVICE_PATH_PROTOCOL end;
} hc_path = {
    {{ACPI_DEVICE_PATH, ACPI_DP, {sizeof(ACPI_HID_DEVICE_PATH), 0}}, 0x0a0341d0, 0},
    {{HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(PCI_DEVICE_PATH), 0}}, 0, 1},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}},
};
#pragma pack(pop)

static struct fake_usb_hc *of(EFI_USB2_HC_PROTOCOL *this)
{
	return container_of(this, struct fake_usb_hc, hc);
}

static EFI_STATUS EFIAPI get_capability(EFI_USB2_HC_PROTOCOL *this, UINT8 *speed, UINT8 *ports,
					UINT8 *is64)
{
	*speed = EFI_USB_SPEED_HIGH;
	*ports = FAKE_USB_PORTS;
	*is64 = 1;
	return EFI_SUCCESS;
}

static void port_bits(struct fake_usb_port *p, EFI_USB_PORT_STATUS *st)
{
	st->PortStatus = USB_PORT_STAT_POWER;
	st->PortChangeStatus = p->connect_change ? USB_PORT_STAT_C_CONNECTION : 0;
	if (p->dev) {
		st->PortStatus |= USB_PORT_STAT_CONNECTION;
		st->PortStatus |= p->dev->speed == EFI_USB_SPEED_LOW ? USB_PORT_STAT_LOW_SPEED : 0;
		st->PortStatus |=
		    p->dev->speed == EFI_USB_SPEED_HIGH ? USB_PORT_STAT_HIGH_SPEED : 0;
	}
	if (p->enabled)
		st->PortStatus |= USB_PORT_STAT_ENABLE;
}

static EFI_STATUS EFIAPI port_status(EFI_USB2_HC_PROTOCOL *this, UINT8 port,
				     EFI_USB_PORT_STATUS *st)
{
	if (port >= FAKE_USB_PORTS)
		return EFI_INVALID_PARAMETER;
	port_bits(&of(this)->ports[port], st);
	return EFI_SUCCESS;
}

static void port_reset(struct fake_usb_port *p)
{
	p->enabled = p->dev != NULL;
	if (p->dev) {
		p->dev->address = 0;
		p->dev->configuration = 0;
		p->dev->callback = NULL;
	}
}

static EFI_STATUS EFIAPI set_feature(EFI_USB2_HC_PROTOCOL *this, UINT8 port,
				     EFI_USB_PORT_FEATURE feature)
{
	struct fake_usb_hc *f = of(this);
	struct fake_usb_port *p = &f->ports[port];

	if (port >= FAKE_USB_PORTS)
		return EFI_INVALID_PARAMETER;
	if (feature == EfiUsbPortReset) {
		f->resets++;
		port_reset(p);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI clear_feature(EFI_USB2_HC_PROTOCOL *this, UINT8 port,
				       EFI_USB_PORT_FEATURE feature)
{
	if (port >= FAKE_USB_PORTS)
		return EFI_INVALID_PARAMETER;
	if (feature == EfiUsbPortConnectChange)
		of(this)->ports[port].connect_change = false;
	return EFI_SUCCESS;
}

static EFI_STATUS give(const UINT8 *desc, UINTN desc_len, void *data, UINTN *length)
{
	if (!desc)
		return EFI_DEVICE_ERROR; /* a stall */
	*length = *length < desc_len ? *length : desc_len;
	memcpy(data, desc, *length);
	return EFI_SUCCESS;
}

/* The device at address among ports and behind the configured hubs there. */
static void find_in(struct fake_usb_hc *f, struct fake_usb_port *ports, UINT8 address,
		    struct fake_usb_device **found)
{
	for (UINTN i = 0; i < FAKE_USB_PORTS; i++) {
		struct fake_usb_port *p = &ports[i];

		if (!p->dev || !p->enabled)
			continue;
		if (p->dev->address == address) {
			if (*found)
				f->errors++; /* two devices answer */
			*found = p->dev;
		}
		if (p->dev->hub_desc && p->dev->configuration)
			find_in(f, p->dev->hub, address, found);
	}
}

static struct fake_usb_device *device_at(struct fake_usb_hc *f, UINT8 address)
{
	struct fake_usb_device *found = NULL;

	find_in(f, f->ports, address, &found);
	return found;
}

/* A hub's class requests (USB 2.0, 11.24.2). */
static EFI_STATUS hub_request(struct fake_usb_device *hub, EFI_USB_DEVICE_REQUEST *req, void *data,
			      UINTN *length)
{
	UINT8 port = (UINT8)(req->Index - 1);
	struct fake_usb_port *p = port < FAKE_USB_PORTS ? &hub->hub[port] : NULL;
	EFI_USB_PORT_STATUS st;

	if (req->RequestType == 0xa0 && req->Request == USB_REQ_GET_DESCRIPTOR)
		return give(hub->hub_desc, hub->hub_desc_len, data, length);
	if (!p)
		return EFI_DEVICE_ERROR;
	if (req->RequestType == 0xa3 && req->Request == USB_REQ_GET_STATUS) {
		port_bits(p, &st);
		if (!p->powered)
			st.PortStatus = 0;
		return give((const UINT8 *)&st, sizeof(st), data, length);
	}
	if (req->RequestType == 0x23 && req->Request == USB_REQ_SET_FEATURE) {
		if (req->Value == EfiUsbPortPower)
			p->powered = true;
		if (req->Value == EfiUsbPortReset && p->powered)
			port_reset(p);
		return EFI_SUCCESS;
	}
	if (req->RequestType == 0x23 && req->Request == USB_REQ_CLEAR_FEATURE) {
		if (req->Value == EfiUsbPortConnectChange)
			p->connect_change = false;
		return EFI_SUCCESS;
	}
	return EFI_DEVICE_ERROR;
}

static EFI_STATUS get_descriptor(struct fake_usb_device *dev, EFI_USB_DEVICE_REQUEST *req,
				 void *data, UINTN *length)
{
	UINT8 type = req->Value >> 8, index = req->Value & 0xff;

	if (type == USB_DESC_TYPE_DEVICE)
		return give(dev->device_desc, 18, data, length);
	if (type == USB_DESC_TYPE_CONFIG)
		return give(dev->config, dev->config_len, data, length);
	if (type == USB_DESC_TYPE_STRING && index < 4 && dev->strings[index])
		return give(dev->strings[index], dev->strings[index][0], data, length);
	return EFI_DEVICE_ERROR;
}

static EFI_STATUS standard(struct fake_usb_hc *f, struct fake_usb_device *dev,
			   EFI_USB_DEVICE_REQUEST *req, void *data, UINTN *length)
{
	switch (req->Request) {
	case USB_REQ_GET_DESCRIPTOR:
		return get_descriptor(dev, req, data, length);
	case USB_REQ_SET_ADDRESS:
		if (dev->address)
			f->errors++;
		dev->address = (UINT8)req->Value;
		return EFI_SUCCESS;
	case USB_REQ_SET_CONFIG:
		dev->configuration = (UINT8)req->Value;
		return EFI_SUCCESS;
	default:
		return EFI_DEVICE_ERROR;
	}
}

static EFI_STATUS EFIAPI control(EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 speed, UINTN mps,
				 EFI_USB_DEVICE_REQUEST *req, EFI_USB_DATA_DIRECTION dir,
				 void *data, UINTN *length, UINTN timeout,
				 EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt, UINT32 *result)
{
	struct fake_usb_hc *f = of(this);
	struct fake_usb_device *dev = device_at(f, address);
	EFI_STATUS status;

	*result = EFI_USB_ERR_TIMEOUT;
	if (!dev) {
		f->errors++;
		return EFI_TIMEOUT;
	}
	dev->last_tt = *tt;
	if ((req->RequestType & 0x60) == USB_REQ_TYPE_CLASS && dev->hub_desc) {
		status = hub_request(dev, req, data, length);
		*result = EFI_ERROR(status) ? EFI_USB_ERR_STALL : EFI_USB_NOERROR;
		return status;
	}
	if (dev->request &&
	    ((req->RequestType & 0x60) == USB_REQ_TYPE_CLASS ||
	     (req->RequestType == USB_TARGET_ENDPOINT && req->Request == USB_REQ_CLEAR_FEATURE)))
		return dev->request(dev, req, dir, data, length, result);
	if ((req->RequestType & 0x60) == USB_REQ_TYPE_CLASS) {
		dev->class_requests++;
		dev->last_class = *req;
		if (dir == EfiUsbDataOut && length)
			memcpy(dev->last_class_data, data, *length < 8 ? *length : 8);
		*result = EFI_USB_NOERROR;
		return EFI_SUCCESS;
	}
	status = standard(f, dev, req, data, length);
	*result = EFI_ERROR(status) ? EFI_USB_ERR_STALL : EFI_USB_NOERROR;
	return status;
}

static EFI_STATUS EFIAPI async_interrupt(EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 endpoint,
					 UINT8 speed, UINTN mps, BOOLEAN is_new, UINT8 *toggle,
					 UINTN interval, UINTN length,
					 EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt,
					 EFI_ASYNC_USB_TRANSFER_CALLBACK callback, void *context)
{
	struct fake_usb_device *dev = device_at(of(this), address);

	if (!dev)
		return EFI_DEVICE_ERROR;
	dev->callback = is_new ? callback : NULL;
	dev->context = context;
	dev->endpoint = endpoint;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI bulk(EFI_USB2_HC_PROTOCOL *this, UINT8 address, UINT8 endpoint,
			      UINT8 speed, UINTN mps, UINT8 buffers,
			      void *data[EFI_USB_MAX_BULK_BUFFER_NUM], UINTN *length, UINT8 *toggle,
			      UINTN timeout, EFI_USB2_HC_TRANSACTION_TRANSLATOR *tt, UINT32 *result)
{
	struct fake_usb_hc *f = of(this);
	struct fake_usb_device *dev = device_at(f, address);

	*result = EFI_USB_ERR_TIMEOUT;
	if (!dev) {
		f->errors++;
		return EFI_TIMEOUT;
	}
	if (!dev->bulk) {
		*length = 0;
		*result = EFI_USB_ERR_STALL;
		return EFI_DEVICE_ERROR;
	}
	return dev->bulk(dev, endpoint, data[0], length, result);
}

bool fake_usb_hc_report(struct fake_usb_device *dev, const void *data, UINTN len)
{
	void *copy;

	if (!dev->callback)
		return false;
	copy = malloc(len);
	memcpy(copy, data, len);
	dev->callback(copy, len, dev->context, EFI_USB_NOERROR);
	free(copy);
	return true;
}

struct fake_usb_hc *fake_usb_hc_create(void)
{
	struct fake_usb_hc *f = calloc(1, sizeof(*f));

	f->hc.GetCapability = get_capability;
	f->hc.GetRootHubPortStatus = port_status;
	f->hc.SetRootHubPortFeature = set_feature;
	f->hc.ClearRootHubPortFeature = clear_feature;
	f->hc.ControlTransfer = control;
	f->hc.AsyncInterruptTransfer = async_interrupt;
	f->hc.BulkTransfer = bulk;
	f->hc.MajorRevision = 2;
	if (EFI_ERROR(protocol_install_multiple(&f->handle, &efi_device_path_protocol_guid,
						&hc_path, &efi_usb2_hc_protocol_guid, &f->hc,
						NULL))) {
		free(f);
		return NULL;
	}
	return f;
}

void fake_usb_hc_destroy(struct fake_usb_hc *f)
{
	driver_disconnect(f->handle, NULL, NULL);
	protocol_uninstall_multiple(f->handle, &efi_device_path_protocol_guid, &hc_path,
				    &efi_usb2_hc_protocol_guid, &f->hc, NULL);
	free(f);
}

void fake_usb_hc_plug(struct fake_usb_hc *f, UINT8 port, struct fake_usb_device *dev)
{
	f->ports[port].dev = dev;
	f->ports[port].enabled = false;
	f->ports[port].connect_change = true;
}

void fake_usb_hub_plug(struct fake_usb_device *hub, UINT8 port, struct fake_usb_device *dev)
{
	hub->hub[port].dev = dev;
	hub->hub[port].enabled = false;
	hub->hub[port].connect_change = true;
}
