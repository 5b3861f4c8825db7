/* The virtio-scsi driver (UEFI driver model): binds to PciIo handles of virtio SCSI host
 * adapters (0x1AF4:0x1004 transitional, 0x1AF4:0x1048 modern) and installs
 * EFI_EXT_SCSI_PASS_THRU_PROTOCOL on the PCI handle; the SCSI bus driver finds the devices
 * behind it. The device is reset when the driver stops and at ExitBootServices. */
#define LOG_PREFIX "virtio-scsi: "
#include "virtio_scsi.h"
#include "virtio_function.h"
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
	struct virtio_function fn;
	struct virtio_scsi scsi;
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

/* virtio-scsi on its ready transport, and ExtScsiPassThru on the PCI handle. */
static EFI_STATUS vscsi_device_start(struct virtio_function *f, EFI_HANDLE controller)
{
	struct virtio_scsi_pci *p = container_of(f, struct virtio_scsi_pci, fn);
	EFI_STATUS status = virtio_scsi_start(&p->scsi, &f->vp.dev);

	if (EFI_ERROR(status)) {
		log_debug("device set-up: %r\n", status);
		return status;
	}
	status = protocol_install(&controller, &efi_ext_scsi_pass_thru_protocol_guid,
				  &p->scsi.pt.protocol);
	if (EFI_ERROR(status)) {
		log_debug("installing ExtScsiPassThru: %r\n", status);
		virtio_scsi_stop(&p->scsi);
	}
	return status;
}

static EFI_STATUS vscsi_device_stop(struct virtio_function *f, EFI_HANDLE controller)
{
	struct virtio_scsi_pci *p = container_of(f, struct virtio_scsi_pci, fn);
	EFI_STATUS status = protocol_uninstall(controller, &efi_ext_scsi_pass_thru_protocol_guid,
					       &p->scsi.pt.protocol);

	if (EFI_ERROR(status))
		return status;
	virtio_scsi_stop(&p->scsi);
	p->scsi.pt.signature = 0;
	return EFI_SUCCESS;
}

static const struct virtio_function_ops vscsi_ops = {
    .size = sizeof(struct virtio_scsi_pci),
    .attributes = WANTED_ATTRIBUTES,
    .start = vscsi_device_start,
    .stop = vscsi_device_stop,
};

static EFI_STATUS EFIAPI vscsi_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				     EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return virtio_function_start(&vscsi_ops, this->DriverBindingHandle, controller);
}

static EFI_STATUS EFIAPI vscsi_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    UINTN child_count, EFI_HANDLE *children)
{
	return virtio_function_stop(&vscsi_ops, this->DriverBindingHandle, controller);
}

static struct virtio_scsi_pci *vscsi_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct virtio_function *f = virtio_function_find(binding->DriverBindingHandle, controller);

	return f ? container_of(f, struct virtio_scsi_pci, fn) : NULL;
}

static EFI_DRIVER_BINDING_PROTOCOL vscsi_binding;

static EFI_STATUS EFIAPI vscsi_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					       EFI_HANDLE controller, EFI_HANDLE child,
					       CHAR8 *language, CHAR16 **name)
{
	struct virtio_scsi_pci *p = vscsi_on(&vscsi_binding, controller);

	if (!p || child)
		return EFI_UNSUPPORTED;
	*name = p->fn.vp.dev.legacy ? (CHAR16 *)u"Virtio SCSI Host Adapter (legacy)"
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
