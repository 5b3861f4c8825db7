/* The virtio entropy device (virtio 1.x, 5.4) as a hardware source of Ember's RNG
 * (include/ember/drivers/rng.h): binds to PciIo handles of 0x1AF4:0x1005 (transitional) and
 * 0x1AF4:0x1044 (modern); each read hands the device a page to fill through its one queue
 * and polls for the answer. The device is reset at ExitBootServices. */
#define LOG_PREFIX "virtio-rng: "
#include "virtio_function.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/drivers/pci_driver.h>
#include <ember/drivers/rng.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <ember/lib/guids.h>

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
	struct virtio_function fn;
	struct virtio_queue queue;
	UINT8 *page; /* what the device fills */
	UINT64 page_addr;
	void *page_mapping;
	bool broken;
	struct rng_source source;
};

static bool is_virtio_rng(void *interface)
{
	return virtio_pci_is(interface, VIRTIO_ID_ENTROPY, VIRTIO_PCI_LEGACY_ENTROPY);
}

/* One request: up to a page of entropy; the number of bytes the device wrote. */
static EFI_STATUS request(struct virtio_rng *r, UINT32 *got)
{
	struct virtq_buf buf = {r->page_addr, PAGE, true};
	UINT16 head, used_head;

	if (r->broken || EFI_ERROR(virtq_add(&r->queue.vq, &buf, 1, &head)))
		return EFI_DEVICE_ERROR;
	r->fn.vp.dev.ops->notify(&r->fn.vp.dev, REQUEST_QUEUE);
	for (UINT64 waited = 0; waited < TIMEOUT_US; waited += POLL_US) {
		EFI_STATUS status = virtq_get_used(&r->queue.vq, &used_head, got);
		if (status == EFI_SUCCESS && used_head == head)
			return *got ? EFI_SUCCESS : EFI_DEVICE_ERROR;
		if (status != EFI_NOT_READY)
			break;
		core_stall_us(POLL_US);
	}
	log_error("no answer; resetting the device\n");
	virtio_reset(&r->fn.vp.dev);
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
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_virtio_rng);
}

/* Negotiation (no feature bits), the queue, the page, DRIVER_OK. */
static EFI_STATUS bring_up(struct virtio_rng *r)
{
	struct virtio_dev *dev = &r->fn.vp.dev;
	EFI_STATUS status = virtio_negotiate(dev, 0);
	if (EFI_ERROR(status)) {
		log_debug("feature negotiation: %r\n", status);
		return status;
	}
	status = virtio_queue_create(dev, REQUEST_QUEUE, QUEUE_SIZE, &r->queue);
	if (EFI_ERROR(status)) {
		log_debug("request queue: %r\n", status);
		goto err_fail;
	}
	status = dev->ops->alloc_shared(dev, 1, (void **)&r->page, &r->page_addr, &r->page_mapping);
	if (EFI_ERROR(status)) {
		log_debug("shared page: %r\n", status);
		goto err_queue;
	}
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
	virtio_reset(&r->fn.vp.dev);
	r->fn.vp.dev.ops->free_shared(&r->fn.vp.dev, 1, r->page, r->page_mapping);
	virtio_queue_destroy(&r->fn.vp.dev, &r->queue);
}

/* The device on its ready transport, and the RNG source. */
static EFI_STATUS vrng_device_start(struct virtio_function *f, EFI_HANDLE controller)
{
	struct virtio_rng *r = container_of(f, struct virtio_rng, fn);
	EFI_STATUS status = bring_up(r);

	if (EFI_ERROR(status))
		return status;
	r->source = (struct rng_source){"virtio-rng", true, vrng_read};
	status = rng_source_add(&r->source);
	if (EFI_ERROR(status)) {
		log_debug("adding the RNG source: %r\n", status);
		take_down(r);
	}
	return status;
}

static EFI_STATUS vrng_device_stop(struct virtio_function *f, EFI_HANDLE controller)
{
	struct virtio_rng *r = container_of(f, struct virtio_rng, fn);

	rng_source_remove(&r->source);
	take_down(r);
	return EFI_SUCCESS;
}

static const struct virtio_function_ops vrng_ops = {
    .size = sizeof(struct virtio_rng),
    .attributes = WANTED_ATTRIBUTES,
    .start = vrng_device_start,
    .stop = vrng_device_stop,
};

static EFI_STATUS EFIAPI vrng_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return virtio_function_start(&vrng_ops, this->DriverBindingHandle, controller);
}

static EFI_STATUS EFIAPI vrng_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	return virtio_function_stop(&vrng_ops, this->DriverBindingHandle, controller);
}

static EFI_DRIVER_BINDING_PROTOCOL vrng_binding;

static EFI_STATUS EFIAPI vrng_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	if (child || !virtio_function_find(vrng_binding.DriverBindingHandle, controller))
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
