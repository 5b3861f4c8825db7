/* The virtio-blk driver (UEFI driver model): binds to PciIo handles of virtio block devices
 * (0x1AF4:0x1001 transitional, 0x1AF4:0x1042 modern) and installs BlockIo and BlockIo2 on the
 * PCI handle itself, as the device has a single medium. The device is reset when the driver
 * stops and at ExitBootServices, so that it never writes into the OS's memory. */
#define LOG_PREFIX "virtio-blk: "
#include "virtio_blk.h"
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

struct virtio_blk_pci {
	struct virtio_function fn;
	struct virtio_blk blk;
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

/* virtio-blk on its ready transport, and BlockIo on the PCI handle. */
static EFI_STATUS vblk_device_start(struct virtio_function *f, EFI_HANDLE controller)
{
	struct virtio_blk_pci *p = container_of(f, struct virtio_blk_pci, fn);
	EFI_STATUS status = virtio_blk_start(&p->blk, &f->vp.dev);

	if (EFI_ERROR(status)) {
		log_debug("device set-up: %r\n", status);
		return status;
	}
	status = blkdev_install(&p->blk.blk, &controller, NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing BlockIo: %r\n", status);
		virtio_blk_stop(&p->blk);
	}
	return status;
}

static EFI_STATUS vblk_device_stop(struct virtio_function *f, EFI_HANDLE controller)
{
	struct virtio_blk_pci *p = container_of(f, struct virtio_blk_pci, fn);
	EFI_STATUS status = blkdev_uninstall(&p->blk.blk, NULL);

	if (EFI_ERROR(status))
		return status;
	virtio_blk_stop(&p->blk);
	p->blk.blk.signature = 0;
	return EFI_SUCCESS;
}

static const struct virtio_function_ops vblk_ops = {
    .size = sizeof(struct virtio_blk_pci),
    .attributes = WANTED_ATTRIBUTES,
    .start = vblk_device_start,
    .stop = vblk_device_stop,
};

static EFI_STATUS EFIAPI vblk_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return virtio_function_start(&vblk_ops, this->DriverBindingHandle, controller);
}

static EFI_STATUS EFIAPI vblk_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	return virtio_function_stop(&vblk_ops, this->DriverBindingHandle, controller);
}

static struct virtio_blk_pci *vblk_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct virtio_function *f = virtio_function_find(binding->DriverBindingHandle, controller);

	return f ? container_of(f, struct virtio_blk_pci, fn) : NULL;
}

static EFI_DRIVER_BINDING_PROTOCOL vblk_binding;

static EFI_STATUS EFIAPI vblk_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct virtio_blk_pci *p = vblk_on(&vblk_binding, controller);

	if (!p || child)
		return EFI_UNSUPPORTED;
	*name = p->fn.vp.dev.legacy ? (CHAR16 *)u"Virtio Block Device (legacy)"
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
