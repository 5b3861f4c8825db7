/* The xHCI driver (UEFI driver model): binds to PciIo handles of class 0C/03/30 (qemu-xhci,
 * nec-usb-xhci, any xHC), brings the controller up and installs EFI_USB2_HC_PROTOCOL on
 * the controller's handle for the USB bus driver. The controller is halted when the driver
 * stops and at ExitBootServices. */
#define LOG_PREFIX "xhci: "
#include "xhci.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

#define PCI_CLASS_CODE 0x09
#define CLASS_SERIAL_BUS 0x0c
#define SUBCLASS_USB 0x03
#define PROG_IF_XHCI 0x30

static bool is_xhci(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT8 class[3] = {0, 0, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint8, PCI_CLASS_CODE, 3, class);
	return class[2] == CLASS_SERIAL_BUS && class[1] == SUBCLASS_USB && class[0] == PROG_IF_XHCI;
}

struct xhci_instance {
	struct pci_driver_dev pci;
	struct xhci_hc hc;
};

static struct xhci_instance *instance_on(EFI_DRIVER_BINDING_PROTOCOL *binding,
					 EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct xhci_instance, pci) : NULL;
}

static EFI_STATUS EFIAPI xhci_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_xhci);
}

static void EFIAPI xhci_exit_boot_services(EFI_EVENT event, void *context)
{
	xhci_hc_halt(context);
}

static void destroy_devices(struct xhci_hc *hc)
{
	for (UINT32 slot = 1; slot <= XHCI_MAX_SLOTS; slot++)
		if (hc->slots[slot])
			xhci_dev_destroy(hc, hc->slots[slot]);
}

static EFI_STATUS start_hc(struct xhci_hc *hc, EFI_HANDLE controller)
{
	EFI_HANDLE handle = controller;
	EFI_STATUS status = xhci_hc_init(hc);

	if (EFI_ERROR(status))
		return status;
	status = xhci_async_init(hc);
	if (EFI_ERROR(status)) {
		log_debug("no timer: %r\n", status);
		return status;
	}
	status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, xhci_exit_boot_services,
			      hc, NULL, &hc->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		return status;
	}
	hc->usb2 = xhci_usb2_template;
	hc->signature = XHCI_SIGNATURE;
	status = protocol_install(&handle, &efi_usb2_hc_protocol_guid, &hc->usb2);
	if (EFI_ERROR(status))
		log_debug("cannot install USB2_HC: %r\n", status);
	return status;
}

static void stop_hc(struct xhci_hc *hc)
{
	hc->signature = 0;
	if (hc->exit_event)
		event_close(hc->exit_event);
	xhci_async_fini(hc);
	destroy_devices(hc);
	xhci_hc_fini(hc);
}

static EFI_STATUS EFIAPI xhci_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct xhci_instance *inst = pool_alloc(sizeof(*inst));
	EFI_STATUS status;

	if (!inst)
		return EFI_OUT_OF_RESOURCES;
	status = pci_driver_start(&inst->pci, this->DriverBindingHandle, controller,
				  EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, 0);
	if (EFI_ERROR(status))
		goto err_free;
	inst->hc.pci_io = inst->pci.pci_io;
	status = start_hc(&inst->hc, controller);
	if (EFI_ERROR(status))
		goto err_hc;
	log_info("controller with %u ports ready\n", inst->hc.max_ports);
	return EFI_SUCCESS;

err_hc:
	log_warn("cannot start the controller: %r\n", status);
	stop_hc(&inst->hc);
	pci_driver_stop(&inst->pci);
err_free:
	pool_free(inst);
	return status;
}

static EFI_STATUS EFIAPI xhci_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct xhci_instance *inst = instance_on(this, controller);
	EFI_STATUS status;

	if (!inst)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall(controller, &efi_usb2_hc_protocol_guid, &inst->hc.usb2);
	if (EFI_ERROR(status))
		return status;
	stop_hc(&inst->hc);
	pci_driver_stop(&inst->pci);
	pool_free(inst);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL xhci_binding;

static EFI_STATUS EFIAPI xhci_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	if (child || !instance_on(&xhci_binding, controller))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"xHCI USB Host Controller";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL xhci_binding = {
    .Supported = xhci_supported,
    .Start = xhci_start,
    .Stop = xhci_stop,
    .Version = 0x10,
};

static const struct ember_driver xhci_driver = {
    .name = u"xHCI USB Host Controller Driver",
    .binding = &xhci_binding,
    .controller_name = xhci_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, xhci_driver);
