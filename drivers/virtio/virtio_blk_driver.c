/* The virtio-blk driver (UEFI driver model): binds to PciIo handles of virtio block devices
 * (0x1AF4:0x1001 transitional, 0x1AF4:0x1042 modern) and installs BlockIo and BlockIo2 on the
 * PCI handle itself, as the device has a single medium. The device is reset when the driver
 * stops and at ExitBootServices, so that it never writes into the OS's memory. */
#define LOG_PREFIX "virtio-blk: "
#include "virtio_blk.h"
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

struct virtio_blk_pci {
	struct pci_driver_dev pci;
	struct virtio_pci vp;
	struct virtio_blk blk;
	EFI_EVENT exit_event;
};

static bool is_virtio_blk(void *interface)
{
	return virtio_pci_is(interface, VIRTIO_ID_BLOCK, VIRTIO_PCI_LEGACY_BLK);
}

static EFI_STATUS EFIAPI vblk_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_virtio_blk);
}

/* Device set-up once the PCI function is open: transport, virtio-blk, protocols, exit
 * event. */
static EFI_STATUS start_device(struct virtio_blk_pci *p, EFI_HANDLE controller)
{
	EFI_STATUS status = virtio_pci_init(&p->vp, p->pci.pci_io);

	if (EFI_ERROR(status)) {
		log_debug("no virtio interface: %r\n", status);
		return status;
	}
	status = virtio_blk_start(&p->blk, &p->vp.dev);
	if (EFI_ERROR(status)) {
		log_debug("device set-up: %r\n", status);
		return status;
	}
	status = virtio_reset_at_exit(&p->vp.dev, &p->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		goto err_stop;
	}
	status = blkdev_install(&p->blk.blk, &controller, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing BlockIo: %r\n", status);
		goto err_event;
	}
	return EFI_SUCCESS;

err_event:
	event_close(p->exit_event);
err_stop:
	virtio_blk_stop(&p->blk);
	return status;
}

static EFI_STATUS EFIAPI vblk_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct virtio_blk_pci *p = pool_alloc(sizeof(*p));
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

static struct virtio_blk_pci *vblk_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct virtio_blk_pci, pci) : NULL;
}

static EFI_STATUS EFIAPI vblk_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct virtio_blk_pci *p = vblk_on(this, controller);
	EFI_STATUS status;

	if (!p)
		return EFI_UNSUPPORTED;
	status = blkdev_uninstall(&p->blk.blk, NULL);
	if (EFI_ERROR(status))
		return status;
	event_close(p->exit_event);
	virtio_blk_stop(&p->blk);
	pci_driver_stop(&p->pci);
	p->blk.blk.signature = 0;
	pool_free(p);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vblk_binding;

static EFI_STATUS EFIAPI vblk_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct virtio_blk_pci *p = vblk_on(&vblk_binding, controller);

	if (!p || child)
		return EFI_UNSUPPORTED;
	*name = p->vp.dev.legacy ? (CHAR16 *)u"Virtio Block Device (legacy)"
				 : (CHAR16 *)u"Virtio Block Device";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vblk_binding = {
    .Supported = vblk_supported,
    .Start = vblk_start,
    .Stop = vblk_stop,
    .Version = 0x10,
};

static const struct ember_driver vblk_driver = {
    .name = u"Virtio Block Driver",
    .binding = &vblk_binding,
    .controller_name = vblk_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, vblk_driver);
