/* The virtio-scsi driver (UEFI driver model): binds to PciIo handles of virtio SCSI host
 * adapters (0x1AF4:0x1004 transitional, 0x1AF4:0x1048 modern) and installs
 * EFI_EXT_SCSI_PASS_THRU_PROTOCOL on the PCI handle; the SCSI bus driver finds the devices
 * behind it. The device is reset when the driver stops and at ExitBootServices. */
#define LOG_PREFIX "virtio-scsi: "
#include "virtio_scsi.h"
#include "virtio_pci.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/drivers/pci_driver.h>
#include <ember/lib/util.h>
#include <ember/lib/guids.h>

#define WANTED_ATTRIBUTES                                                                          \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER | \
	 EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE)

struct virtio_scsi_pci {
	struct pci_driver_dev pci;
	struct virtio_pci vp;
	struct virtio_scsi scsi;
	EFI_EVENT exit_event;
};

static bool is_virtio_scsi(void *interface)
{
	return virtio_pci_is(interface, VIRTIO_ID_SCSI, VIRTIO_PCI_LEGACY_SCSI);
}

static EFI_STATUS EFIAPI vscsi_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					 EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_virtio_scsi);
}

static EFI_STATUS start_device(struct virtio_scsi_pci *p, EFI_HANDLE controller)
{
	EFI_STATUS status = virtio_pci_init(&p->vp, p->pci.pci_io);

	if (EFI_ERROR(status)) {
		log_debug("no virtio interface: %r\n", status);
		return status;
	}
	status = virtio_scsi_start(&p->scsi, &p->vp.dev);
	if (EFI_ERROR(status)) {
		log_debug("device set-up: %r\n", status);
		return status;
	}
	status = virtio_reset_at_exit(&p->vp.dev, &p->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		goto err_stop;
	}
	status = protocol_install(&controller, &efi_ext_scsi_pass_thru_protocol_guid,
				  &p->scsi.pt.protocol);
	if (EFI_ERROR(status)) {
		log_debug("installing ExtScsiPassThru: %r\n", status);
		goto err_event;
	}
	return EFI_SUCCESS;

err_event:
	event_close(p->exit_event);
err_stop:
	virtio_scsi_stop(&p->scsi);
	return status;
}

static EFI_STATUS EFIAPI vscsi_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				     EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct virtio_scsi_pci *p = pool_alloc(sizeof(*p));
	EFI_STATUS status;

	if (!p)
		return EFI_OUT_OF_RESOURCES;
	status =
	    pci_driver_start(&p->pci, this->DriverBindingHandle, controller, 0, WANTED_ATTRIBUTES);
	if (EFI_ERROR(status))
		goto err_free;
	status = start_device(p, controller);
	if (EFI_ERROR(status))
		goto err_pci;
	return EFI_SUCCESS;

err_pci:
	log_warn("cannot start the device: %r\n", status);
	pci_driver_stop(&p->pci);
err_free:
	pool_free(p);
	return status;
}

static struct virtio_scsi_pci *vscsi_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct virtio_scsi_pci, pci) : NULL;
}

static EFI_STATUS EFIAPI vscsi_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    UINTN child_count, EFI_HANDLE *children)
{
	struct virtio_scsi_pci *p = vscsi_on(this, controller);
	EFI_STATUS status;

	if (!p)
		return EFI_UNSUPPORTED;
	status = protocol_uninstall(controller, &efi_ext_scsi_pass_thru_protocol_guid,
				    &p->scsi.pt.protocol);
	if (EFI_ERROR(status))
		return status;
	event_close(p->exit_event);
	virtio_scsi_stop(&p->scsi);
	pci_driver_stop(&p->pci);
	p->scsi.pt.signature = 0;
	pool_free(p);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vscsi_binding;

static EFI_STATUS EFIAPI vscsi_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					       EFI_HANDLE controller, EFI_HANDLE child,
					       CHAR8 *language, CHAR16 **name)
{
	struct virtio_scsi_pci *p = vscsi_on(&vscsi_binding, controller);

	if (!p || child)
		return EFI_UNSUPPORTED;
	*name = p->vp.dev.legacy ? (CHAR16 *)u"Virtio SCSI Host Adapter (legacy)"
				 : (CHAR16 *)u"Virtio SCSI Host Adapter";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vscsi_binding = {
    .Supported = vscsi_supported,
    .Start = vscsi_start,
    .Stop = vscsi_stop,
    .Version = 0x10,
};

static const struct ember_driver vscsi_driver = {
    .name = u"Virtio SCSI Driver",
    .binding = &vscsi_binding,
    .controller_name = vscsi_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, vscsi_driver);
