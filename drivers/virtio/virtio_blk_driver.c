/* The virtio-blk driver (UEFI driver model): binds to PciIo handles of virtio block devices
 * (0x1AF4:0x1001 transitional, 0x1AF4:0x1042 modern) and installs BlockIo and BlockIo2 on the
 * PCI handle itself, as the device has a single medium. The device is reset when the driver
 * stops and at ExitBootServices, so that it never writes into the OS's memory. */
#include "virtio_blk.h"
#include "virtio_pci.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/lib/list.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>

#define VIRTIO_BLK_PCI_SIGNATURE SIGNATURE_32('v', 'b', 'l', 'k')
#define WANTED_ATTRIBUTES                                                                          \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER | \
	 EFI_PCI_IO_ATTRIBUTE_DUAL_ADDRESS_CYCLE)

struct virtio_blk_pci {
	UINT32 signature;
	struct list link; /* in instances */
	EFI_HANDLE controller;
	struct virtio_pci vp;
	struct virtio_blk blk;
	EFI_PCI_IO_PROTOCOL *pci_io;
	UINT64 saved_attributes; /* restored on Stop */
	EFI_EVENT exit_event;
};

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
/* The devices this driver manages, to find one from its controller handle. */
static struct list instances = LIST_INIT(instances);

static bool is_virtio_blk(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT16 ids[2] = {0, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint16, 0, 2, ids);
	if (ids[0] != VIRTIO_PCI_VENDOR)
		return false;
	if (ids[1] != VIRTIO_PCI_LEGACY_BLK && ids[1] != VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_BLOCK)
		return false;
	return virtio_pci_device_type(pci_io) == VIRTIO_ID_BLOCK;
}

static EFI_STATUS EFIAPI vblk_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return driver_can_open(this->DriverBindingHandle, controller, &pci_io_guid, is_virtio_blk);
}

/* ExitBootServices: a reset device stops all DMA at once. No memory is touched or freed
 * here, as the memory map belongs to the OS now. */
static void EFIAPI vblk_exit_boot_services(EFI_EVENT event, void *context)
{
	struct virtio_blk_pci *p = context;

	p->vp.dev.ops->set_status(&p->vp.dev, 0);
}

static EFI_STATUS enable_device(struct virtio_blk_pci *p)
{
	EFI_PCI_IO_PROTOCOL *pci_io = p->pci_io;
	UINT64 supported = 0;
	EFI_STATUS status;

	status = pci_io->Attributes(pci_io, EfiPciIoAttributeOperationGet, 0, &p->saved_attributes);
	if (EFI_ERROR(status))
		return status;
	status = pci_io->Attributes(pci_io, EfiPciIoAttributeOperationSupported, 0, &supported);
	if (EFI_ERROR(status))
		return status;
	return pci_io->Attributes(pci_io, EfiPciIoAttributeOperationEnable,
				  supported & WANTED_ATTRIBUTES, NULL);
}

static void restore_device(struct virtio_blk_pci *p)
{
	p->pci_io->Attributes(p->pci_io, EfiPciIoAttributeOperationSet, p->saved_attributes, NULL);
}

/* Device set-up after PciIo is open: transport, virtio-blk, protocols, exit event. */
static EFI_STATUS start_device(struct virtio_blk_pci *p, EFI_HANDLE controller)
{
	EFI_STATUS status = enable_device(p);

	if (EFI_ERROR(status))
		return status;
	status = virtio_pci_init(&p->vp, p->pci_io);
	if (!EFI_ERROR(status))
		status = virtio_blk_start(&p->blk, &p->vp.dev);
	if (EFI_ERROR(status))
		goto err_restore;
	status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, vblk_exit_boot_services,
			      p, NULL, &p->exit_event);
	if (EFI_ERROR(status))
		goto err_stop;
	status = blkdev_install(&p->blk.blk, &controller, NULL);
	if (EFI_ERROR(status))
		goto err_event;
	return EFI_SUCCESS;

err_event:
	event_close(p->exit_event);
err_stop:
	virtio_blk_stop(&p->blk);
err_restore:
	restore_device(p);
	return status;
}

static EFI_STATUS EFIAPI vblk_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct virtio_blk_pci *p = pool_alloc(sizeof(*p));
	EFI_STATUS status;

	if (!p)
		return EFI_OUT_OF_RESOURCES;
	status = protocol_open(controller, &pci_io_guid, (void **)&p->pci_io,
			       this->DriverBindingHandle, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		goto err_free;
	status = start_device(p, controller);
	if (EFI_ERROR(status))
		goto err_close;
	p->signature = VIRTIO_BLK_PCI_SIGNATURE;
	p->controller = controller;
	list_add_tail(&p->link, &instances);
	return EFI_SUCCESS;

err_close:
	log_warn("virtio-blk: cannot start the device: %r\n", status);
	protocol_close(controller, &pci_io_guid, this->DriverBindingHandle, controller);
err_free:
	pool_free(p);
	return status;
}

static struct virtio_blk_pci *instance_on(EFI_HANDLE controller)
{
	struct virtio_blk_pci *p;

	list_for_each_entry (p, &instances, link)
		if (p->controller == controller)
			return p;
	return NULL;
}

static EFI_STATUS EFIAPI vblk_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct virtio_blk_pci *p = instance_on(controller);
	EFI_STATUS status;

	if (!p)
		return EFI_UNSUPPORTED;
	status = blkdev_uninstall(&p->blk.blk, NULL);
	if (EFI_ERROR(status))
		return status;
	event_close(p->exit_event);
	virtio_blk_stop(&p->blk);
	restore_device(p);
	protocol_close(controller, &pci_io_guid, this->DriverBindingHandle, controller);
	list_del(&p->link);
	p->signature = 0;
	p->blk.blk.signature = 0;
	pool_free(p);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI vblk_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct virtio_blk_pci *p = instance_on(controller);

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
