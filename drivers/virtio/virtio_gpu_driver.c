/* The virtio GPU driver's binding (UEFI 2.10, 11.1) for virtio-gpu-pci (1af4:1050, class
 * 0x0380). virtio-vga (the same IDs with class 0x0300) is left to the QEMU video driver,
 * which drives its VGA-compatible interface: that one has a linear framebuffer (BAR0), so
 * programs that draw straight into GOP's framebuffer (Linux's efifb) work, as on OVMF.
 * Start brings the device up, reads the display information, sets mode 0 and publishes the
 * GOP on a child handle, Pci(...)/AcpiAdr(display output); the device is reset at
 * ExitBootServices and at Stop. */
#define LOG_PREFIX "virtio-gpu: "
#include "virtio_gpu.h"
#include <efi/pci.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

#define QUEUE_SIZE 8
#define WANTED_ATTRIBUTES (EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER)
/* ACPI _DOD display ID of a VGA/CRT output the firmware can detect (ACPI 6.5, table B.2). */
#define VGPU_ACPI_ADR 0x80010100

static bool is_virtio_gpu(void *interface)
{
	EFI_PCI_IO_PROTOCOL *pci_io = interface;
	UINT32 id = 0, class_rev = 0;

	if (EFI_ERROR(
		pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, PCI_VENDOR_ID_OFFSET, 1, &id)) ||
	    EFI_ERROR(pci_io->Pci.Read(pci_io, EfiPciIoWidthUint32, PCI_REVISION_ID_OFFSET, 1,
				       &class_rev)))
		return false;
	return id == ((VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_GPU) << 16 | VIRTIO_PCI_VENDOR) &&
	       class_rev >> 16 != (PCI_CLASS_DISPLAY << 8 | PCI_CLASS_DISPLAY_VGA) &&
	       virtio_pci_device_type(pci_io) == VIRTIO_ID_GPU;
}

static EFI_STATUS EFIAPI vgpu_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (remaining && !dp_is_end(remaining) &&
	    (remaining->Type != ACPI_DEVICE_PATH || remaining->SubType != ACPI_ADR_DP))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_virtio_gpu);
}

/* The display information gives the modes; without it the driver offers the usual ones. */
static void read_modes(struct virtio_gpu *g)
{
	struct virtio_gpu_resp_display_info *info = (void *)(g->page + VGPU_RESPONSE_AT);
	struct virtio_gpu_ctrl_hdr *hdr = (void *)g->page;
	EFI_STATUS status;

	mem_set(hdr, 0, sizeof(*hdr));
	hdr->type = VIRTIO_GPU_CMD_GET_DISPLAY_INFO;
	status = vgpu_command(g, sizeof(*hdr), VIRTIO_GPU_RESP_OK_DISPLAY_INFO, sizeof(*info));
	if (EFI_ERROR(status))
		log_debug("display info: %r\n", status);
	g->mode_count = vgpu_modes_build(EFI_ERROR(status) ? NULL : info, sizeof(*info), g->modes,
					 VGPU_MAX_MODES);
}

/* Transport, negotiation (no features: 2D needs none), the control queue, the request
 * page, DRIVER_OK. */
static EFI_STATUS bring_up(struct virtio_gpu *g)
{
	struct virtio_dev *dev = &g->vp.dev;
	EFI_STATUS status = virtio_pci_init(&g->vp, g->pci.pci_io);

	if (EFI_ERROR(status)) {
		log_debug("no virtio interface: %r\n", status);
		return status;
	}
	status = virtio_negotiate(dev, 0);
	if (EFI_ERROR(status)) {
		log_debug("feature negotiation: %r\n", status);
		return status;
	}
	status = virtio_queue_create(dev, VIRTIO_GPU_CONTROL_QUEUE, QUEUE_SIZE, &g->control);
	if (EFI_ERROR(status)) {
		log_debug("control queue: %r\n", status);
		goto err_fail;
	}
	status = dev->ops->alloc_shared(dev, 1, (void **)&g->page, &g->page_addr, &g->page_mapping);
	if (EFI_ERROR(status)) {
		log_debug("request page: %r\n", status);
		goto err_queue;
	}
	virtio_driver_ok(dev);
	return EFI_SUCCESS;

err_queue:
	virtio_reset(dev);
	virtio_queue_destroy(dev, &g->control);
err_fail:
	virtio_fail(dev);
	return status;
}

/* Gives the scanout's resource back, then resets the device and frees its memory. */
static void take_down(struct virtio_gpu *g)
{
	if (g->shown.resource_id)
		vgpu_set_scanout(g, 0, 0, 0);
	vgpu_picture_release(g, &g->shown);
	virtio_reset(&g->vp.dev);
	g->vp.dev.ops->free_shared(&g->vp.dev, 1, g->page, g->page_mapping);
	virtio_queue_destroy(&g->vp.dev, &g->control);
}

/* The ConsoleResolution setting's mode, else the first mode the device takes, becomes
 * current. */
static EFI_STATUS first_mode(struct virtio_gpu *g)
{
	EFI_STATUS status = EFI_UNSUPPORTED;

	vgpu_gop_init(g);
	if (g->mode_count && !EFI_ERROR(gop_front_set_boot_mode(&g->front, 0)))
		status = EFI_SUCCESS;
	for (UINT32 n = 1; n < g->mode_count && EFI_ERROR(status) && !g->broken; n++)
		status = gop_front_set_mode(&g->front, n);
	if (!EFI_ERROR(status))
		log_info("%ux%u, %u modes\n", g->front.info.HorizontalResolution,
			 g->front.info.VerticalResolution, g->mode_count);
	return status;
}

static EFI_STATUS start_device(struct virtio_gpu *g)
{
	EFI_STATUS status = bring_up(g);

	if (EFI_ERROR(status))
		return status;
	read_modes(g);
	status = first_mode(g);
	if (EFI_ERROR(status)) {
		log_debug("no mode could be set: %r\n", status);
		goto err_down;
	}
	status = virtio_reset_at_exit(&g->vp.dev, &g->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		goto err_down;
	}
	return EFI_SUCCESS;

err_down:
	take_down(g);
	return status;
}

static EFI_STATUS child_create(struct virtio_gpu *g, EFI_HANDLE driver)
{
	ACPI_ADR_DEVICE_PATH adr = {{ACPI_DEVICE_PATH, ACPI_ADR_DP, {sizeof(adr), 0}},
				    VGPU_ACPI_ADR};
	EFI_DEVICE_PATH_PROTOCOL *parent;
	void *pci_io;
	EFI_STATUS status;

	status = protocol_get(g->pci.controller, &efi_device_path_protocol_guid, (void **)&parent);
	if (EFI_ERROR(status)) {
		log_debug("the controller has no device path: %r\n", status);
		return status;
	}
	g->child_path = dp_append_node(parent, &adr.Header);
	if (!g->child_path)
		return EFI_OUT_OF_RESOURCES;
	status = gop_front_install(&g->front, &g->child, g->child_path);
	if (EFI_ERROR(status)) {
		log_debug("installing the GOP: %r\n", status);
		goto err_free;
	}
	status = protocol_open(g->pci.controller, &efi_pci_io_protocol_guid, &pci_io, driver,
			       g->child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("opening PciIo for the child: %r\n", status);
		gop_front_uninstall(&g->front, g->child_path);
		goto err_free;
	}
	return EFI_SUCCESS;

err_free:
	g->child = NULL;
	pool_free(g->child_path);
	return status;
}

static EFI_STATUS EFIAPI vgpu_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	struct virtio_gpu *g = pool_alloc(sizeof(*g));
	EFI_STATUS status;

	if (!g)
		return EFI_OUT_OF_RESOURCES;
	mem_set(g, 0, sizeof(*g));
	status =
	    pci_driver_start(&g->pci, this->DriverBindingHandle, controller, 0, WANTED_ATTRIBUTES);
	if (EFI_ERROR(status))
		goto err_free;
	status = start_device(g);
	if (EFI_ERROR(status))
		goto err_pci;
	status = child_create(g, this->DriverBindingHandle);
	if (EFI_ERROR(status))
		goto err_device;
	return EFI_SUCCESS;

err_device:
	event_close(g->exit_event);
	take_down(g);
err_pci:
	log_warn("cannot start the device: %r\n", status);
	pci_driver_stop(&g->pci);
err_free:
	g->front.signature = 0;
	pool_free(g);
	return status;
}

static struct virtio_gpu *vgpu_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct virtio_gpu, pci) : NULL;
}

/* Removes the child; while someone holds its GOP, it stays. */
static EFI_STATUS child_destroy(struct virtio_gpu *g, EFI_HANDLE driver)
{
	void *pci_io;
	EFI_STATUS status;

	protocol_close(g->pci.controller, &efi_pci_io_protocol_guid, driver, g->child);
	status = gop_front_uninstall(&g->front, g->child_path);
	if (EFI_ERROR(status)) {
		protocol_open(g->pci.controller, &efi_pci_io_protocol_guid, &pci_io, driver,
			      g->child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	g->child = NULL;
	pool_free(g->child_path);
	g->child_path = NULL;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI vgpu_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				   UINTN child_count, EFI_HANDLE *children)
{
	struct virtio_gpu *g = vgpu_on(this, controller);
	EFI_STATUS status;

	if (!g)
		return EFI_DEVICE_ERROR;
	if (child_count) {
		for (UINTN i = 0; i < child_count; i++)
			if (!children || children[i] != g->child)
				return EFI_DEVICE_ERROR;
		return child_destroy(g, this->DriverBindingHandle);
	}
	if (g->child) {
		status = child_destroy(g, this->DriverBindingHandle);
		if (EFI_ERROR(status))
			return status;
	}
	event_close(g->exit_event);
	take_down(g);
	pci_driver_stop(&g->pci);
	g->front.signature = 0;
	pool_free(g);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vgpu_binding;

static EFI_STATUS EFIAPI vgpu_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					      EFI_HANDLE controller, EFI_HANDLE child,
					      CHAR8 *language, CHAR16 **name)
{
	struct virtio_gpu *g = vgpu_on(&vgpu_binding, controller);

	if (!g || (child && child != g->child))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)u"Virtio GPU";
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL vgpu_binding = {
    .Supported = vgpu_supported,
    .Start = vgpu_start,
    .Stop = vgpu_stop,
    .Version = 0x10,
};

static const struct ember_driver vgpu_driver = {
    .name = u"Virtio GPU Driver",
    .binding = &vgpu_binding,
    .controller_name = vgpu_controller_name,
};
EMBER_DRIVER(INIT_CONSOLE, vgpu_driver);
