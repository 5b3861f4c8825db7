/* The virtio entropy device (virtio 1.x, 5.4) as a hardware source of Ember's RNG
 * (include/ember/drivers/rng.h): binds to PciIo handles of 0x1AF4:0x1005 (transitional) and
 * 0x1AF4:0x1044 (modern); each read hands the device a page to fill through its one queue
 * and polls for the answer. The device is reset at ExitBootServices. */
#include "virtio_pci.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/lib/list.h>
#include <ember/core/log.h>
#include <ember/drivers/rng.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define VIRTIO_ID_ENTROPY 4
#define VIRTIO_PCI_LEGACY_ENTROPY 0x1005
#define REQUEST_QUEUE 0
#define QUEUE_SIZE 8
#define PAGE 4096
#define POLL_US 10
#define TIMEOUT_US 1000000ULL
#define WANTED_ATTRIBUTES                                                                          \
	(EFI_PCI_IO_ATTRIBUTE_IO | EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)

struct virtio_rng {
	struct list link; /* in instances */
	EFI_HANDLE controller;
	EFI_PCI_IO_PROTOCOL *pci_io;
	UINT64 saved_attributes;
	struct virtio_pci vp;
	struct virtio_queue queue;
	UINT8 *page; /* what the device fills */
	UINT64 page_addr;
	void *page_mapping;
	bool broken;
	EFI_EVENT exit_event;
	struct rng_source source;
};

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;
static struct list instances = LIST_INIT(instances);

static bool is_virtio_rng(EFI_PCI_IO_PROTOCOL *pci_io)
{
	UINT16 ids[2] = {0, 0};

	pci_io->Pci.Read(pci_io, EfiPciIoWidthUint16, 0, 2, ids);
	return ids[0] == VIRTIO_PCI_VENDOR &&
	       (ids[1] == VIRTIO_PCI_LEGACY_ENTROPY ||
		ids[1] == VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_ENTROPY) &&
	       virtio_pci_device_type(pci_io) == VIRTIO_ID_ENTROPY;
}

/* One request: up to a page of entropy; the number of bytes the device wrote. */
static EFI_STATUS request(struct virtio_rng *r, UINT32 *got)
{
	struct virtq_buf buf = {r->page_addr, PAGE, true};
	UINT16 head, used_head;

	if (r->broken || EFI_ERROR(virtq_add(&r->queue.vq, &buf, 1, &head)))
		return EFI_DEVICE_ERROR;
	r->vp.dev.ops->notify(&r->vp.dev, REQUEST_QUEUE);
	for (UINT64 waited = 0; waited < TIMEOUT_US; waited += POLL_US) {
		EFI_STATUS status = virtq_get_used(&r->queue.vq, &used_head, got);
		if (status == EFI_SUCCESS && used_head == head)
			return *got ? EFI_SUCCESS : EFI_DEVICE_ERROR;
		if (status != EFI_NOT_READY)
			break;
		core_stall_us(POLL_US);
	}
	log_error("virtio-rng: no answer; resetting the device\n");
	virtio_reset(&r->vp.dev);
	r->broken = true;
	return EFI_DEVICE_ERROR;
}

static EFI_STATUS vrng_read(struct rng_source *source, UINT8 *buffer, UINTN size)
{
	struct virtio_rng *r = container_of(source, struct virtio_rng, source);

	while (size) {
		UINT32 got;
		EFI_STATUS status = request(r, &got);
		if (EFI_ERROR(status))
			return status;
		got = (UINT32)MIN((UINTN)MIN(got, (UINT32)PAGE), size);
		mem_copy(buffer, r->page, got);
		mem_set(r->page, 0, got);
		buffer += got;
		size -= got;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI vrng_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_PCI_IO_PROTOCOL *pci_io;
	EFI_STATUS status =
	    protocol_open(controller, &pci_io_guid, (void **)&pci_io, this->DriverBindingHandle,
			  controller, EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (EFI_ERROR(status))
		return status;
	status = is_virtio_rng(pci_io) ? EFI_SUCCESS : EFI_UNSUPPORTED;
	protocol_close(controller, &pci_io_guid, this->DriverBindingHandle, controller);
	return status;
}

/* ExitBootServices: a reset device stops its DMA; nothing else is touched. */
static void EFIAPI vrng_exit_boot_services(EFI_EVENT event, void *context)
{
	struct virtio_rng *r = context;

	r->vp.dev.ops->set_status(&r->vp.dev, 0);
}

static EFI_STATUS enable_device(struct virtio_rng *r)
{
	EFI_PCI_IO_PROTOCOL *pci_io = r->pci_io;
	UINT64 supported = 0;
	EFI_STATUS status =
	    pci_io->Attributes(pci_io, EfiPciIoAttributeOperationGet, 0, &r->saved_attributes);

	if (!EFI_ERROR(status))
		status =
		    pci_io->Attributes(pci_io, EfiPciIoAttributeOperationSupported, 0, &supported);
	if (!EFI_ERROR(status))
		status = pci_io->Attributes(pci_io, EfiPciIoAttributeOperationEnable,
					    supported & WANTED_ATTRIBUTES, NULL);
	return status;
}

/* Transport, negotiation (no feature bits), the queue, the page, DRIVER_OK. */
static EFI_STATUS bring_up(struct virtio_rng *r)
{
	struct virtio_dev *dev = &r->vp.dev;
	EFI_STATUS status = virtio_pci_init(&r->vp, r->pci_io);

	if (!EFI_ERROR(status))
		status = virtio_negotiate(dev, 0);
	if (EFI_ERROR(status))
		return status;
	status = virtio_queue_create(dev, REQUEST_QUEUE, QUEUE_SIZE, &r->queue);
	if (EFI_ERROR(status))
		goto err_fail;
	status = dev->ops->alloc_shared(dev, 1, (void **)&r->page, &r->page_addr, &r->page_mapping);
	if (EFI_ERROR(status))
		goto err_queue;
	mem_set(r->page, 0, PAGE);
	virtio_driver_ok(dev);
	return EFI_SUCCESS;

err_queue:
	virtio_reset(dev);
	virtio_queue_destroy(dev, &r->queue);
err_fail:
	virtio_fail(dev);
	return status;
}

static void take_down(struct virtio_rng *r)
{
	virtio_reset(&r->vp.dev);
	r->vp.dev.ops->free_shared(&r->vp.dev, 1, r->page, r->page_mapping);
	virtio_queue_destroy(&r->vp.dev, &r->queue);
}

static EFI_STATUS start_device(struct virtio_rng *r)
{
	EFI_STATUS status = enable_device(r);

	if (!EFI_ERROR(status))
		status = bring_up(r);
	if (EFI_ERROR(status))
		goto err_restore;
	status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_CALLBACK, vrng_exit_boot_services,
			      r, NULL, &r->exit_event);
	if (EFI_ERROR(status))
		goto err_down;
	r->source = (struct rng_source){"virtio-rng", true, vrng_read};
	status = rng_source_add(&r->source);
	if (EFI_ERROR(status))
		goto err_event;
	return EFI_SUCCESS;

err_event:
	event_close(r->exit_event);
err_down:
	take_down(r);
err_restore:
	r->pci_io->Attributes(r->pci_io, EfiPciIoAttributeOperationSet, r->saved_attributes, NULL);
	return status;
}

static EFI_STATUS EFIAPI vrng_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct virtio_rng *r = pool_alloc(sizeof(*r));
	EFI_STATUS status;

	if (!r)
		return EFI_OUT_OF_RESOURCES;
	status = protocol_open(controller, &pci_io_guid, (void **)&r->pci_io,
			       this->DriverBindingHandle, controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		goto err_free;
	status = start_device(r);
	if (EFI_ERROR(status))
		goto err_close;
	r->controller = controller;
	list_add_tail(&r->link, &instances);
	return EFI_SUCCESS;

err_close:
	log_warn("virtio-rng: cannot start the device: %r\n", status);
	protocol_close(controller, &pci_io_guid, this->DriverBindingHandle, controller);
err_free:
	pool_free(r);
	return status;
}

static struct virtio_rng *instance_on(EFI_HANDLE controller)
{
	struct virtio_rng *r;

	list_for_each_entry (r, &instances, link)
		if (r->controller == controller)
			return r;
	return NULL;
}

static EFI_STATUS EFIAPI vrng_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct virtio_rng *r = instance_on(controller);

	if (!r)
		return EFI_UNSUPPORTED;
	rng_source_remove(&r->source);
	event_close(r->exit_event);
	take_down(r);
	r->pci_io->Attributes(r->pci_io, EfiPciIoAttributeOperationSet, r->saved_attributes, NULL);
	protocol_close(controller, &pci_io_guid, this->DriverBindingHandle, controller);
	list_del(&r->link);
	pool_free(r);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI vrng_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	if (child || !instance_on(controller))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"Virtio Entropy Device";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vrng_binding = {
    .Supported = vrng_supported,
    .Start = vrng_start,
    .Stop = vrng_stop,
    .Version = 0x10,
};

static const struct ember_driver vrng_driver = {
    .name = u"Virtio Entropy Driver",
    .binding = &vrng_binding,
    .controller_name = vrng_controller_name,
};
EMBER_DRIVER(INIT_NORMAL, vrng_driver);
