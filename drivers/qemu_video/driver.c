/* The QEMU video driver's binding (UEFI 2.10, 11.1): Supported accepts QEMU's standard VGA,
 * bochs-display, qxl-vga and virtio-vga, Start programs mode 0 and publishes the GOP on a child
 * handle, Stop takes it down again. */
#define LOG_PREFIX "qemu-video: "
#include "qemu_video.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/lib/util.h>
#include <ember/lib/guids.h>

/* A remaining path may only name the display output: an AcpiAdr node, or End. */
static bool remaining_is_output(const EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return !remaining || dp_is_end(remaining) ||
	       (remaining->Type == ACPI_DEVICE_PATH && remaining->SubType == ACPI_ADR_DP &&
		dp_node_length(remaining) >= sizeof(ACPI_ADR_DEVICE_PATH));
}

static bool is_display(void *pci_io)
{
	return qv_hw_identify(pci_io) != NULL;
}

static EFI_STATUS EFIAPI qv_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (!remaining_is_output(remaining))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller, &efi_pci_io_protocol_guid,
			       is_display);
}

/* Everything Start does between opening the PCI function and creating the child: I/O
 * decoding for a VGA (memory decoding is on already), the device's interface, its modes,
 * mode 0. */
static EFI_STATUS qv_bring_up(struct qemu_video *qv)
{
	EFI_STATUS status;

	qv->model = qv_hw_identify(qv->pci.pci_io);
	if (!qv->model) {
		log_debug("not a QEMU display\n");
		return EFI_UNSUPPORTED;
	}
	if (qv->model->vga) {
		status = pci_driver_enable(&qv->pci, 0, EFI_PCI_IO_ATTRIBUTE_IO);
		if (EFI_ERROR(status))
			return status;
	}
	status = qv_hw_probe(qv);
	if (EFI_ERROR(status))
		return status;
	if (!qv_modes_build(qv)) {
		log_debug("no mode fits in %llu KiB of VRAM\n",
			  (unsigned long long)(qv->vram_size >> 10));
		return EFI_UNSUPPORTED;
	}
	qv_gop_init(qv);
	return gop_front_set_boot_mode(&qv->front, 0);
}

static EFI_STATUS EFIAPI qv_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	struct qemu_video *qv = pool_alloc(sizeof(*qv));
	EFI_STATUS status;

	if (!qv)
		return EFI_OUT_OF_RESOURCES;
	status = pci_driver_start(&qv->pci, driver, controller, EFI_PCI_IO_ATTRIBUTE_MEMORY, 0);
	if (EFI_ERROR(status))
		goto err_free;
	status = qv_bring_up(qv);
	if (EFI_ERROR(status))
		goto err_pci;
	/* An End node asks for the controller alone, without its output (11.1, Start). */
	if (!remaining || !dp_is_end(remaining)) {
		status = qv_child_create(qv, driver);
		if (EFI_ERROR(status))
			goto err_pci;
	}
	return EFI_SUCCESS;

err_pci:
	pci_driver_stop(&qv->pci);
err_free:
	qv->front.signature = 0;
	pool_free(qv);
	return status;
}

static struct qemu_video *qv_on(EFI_DRIVER_BINDING_PROTOCOL *binding, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(binding->DriverBindingHandle, controller);

	return pci ? container_of(pci, struct qemu_video, pci) : NULL;
}

static EFI_STATUS EFIAPI qv_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				 UINTN child_count, EFI_HANDLE *children)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	struct qemu_video *qv = qv_on(this, controller);
	EFI_STATUS status;

	if (!qv)
		return EFI_DEVICE_ERROR;
	if (child_count) {
		for (UINTN i = 0; i < child_count; i++)
			if (!children || children[i] != qv->child)
				return EFI_DEVICE_ERROR;
		return qv_child_destroy(qv, driver);
	}
	if (qv->child) {
		status = qv_child_destroy(qv, driver);
		if (EFI_ERROR(status))
			return status;
	}
	pci_driver_stop(&qv->pci);
	qv->front.signature = 0;
	pool_free(qv);
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL qv_binding;

static EFI_STATUS EFIAPI qv_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					    EFI_HANDLE controller, EFI_HANDLE child,
					    CHAR8 *language, CHAR16 **name)
{
	struct qemu_video *qv = qv_on(&qv_binding, controller);

	if (!qv || (child && child != qv->child))
		return EFI_UNSUPPORTED;
	*name = (CHAR16 *)qv->model->name;
	return EFI_SUCCESS;
}

static EFI_DRIVER_BINDING_PROTOCOL qv_binding = {
    .Supported = qv_supported,
    .Start = qv_start,
    .Stop = qv_stop,
    .Version = 0x10,
};

static const struct ember_driver qv_driver = {
    .name = u"QEMU Video Driver",
    .binding = &qv_binding,
    .controller_name = qv_controller_name,
};
EMBER_DRIVER(INIT_CONSOLE, qv_driver);
