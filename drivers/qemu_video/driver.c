/* The QEMU video driver's binding (UEFI 2.10, 11.1): Supported accepts QEMU's standard VGA
 * and bochs-display, Start programs mode 0 and publishes the GOP on a child handle, Stop
 * takes it down again. */
#include "qemu_video.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>

static const EFI_GUID pci_io_guid = EFI_PCI_IO_PROTOCOL_GUID;

/* The devices this driver has started, to find them by controller handle. */
static struct list qv_devices = LIST_INIT(qv_devices);

static struct qemu_video *qv_find(EFI_HANDLE controller)
{
	struct qemu_video *qv;

	list_for_each_entry (qv, &qv_devices, link) {
		if (qv->controller == controller)
			return qv;
	}
	return NULL;
}

/* A remaining path may only name the display output: an AcpiAdr node, or End. */
static bool remaining_is_output(const EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	return !remaining || dp_is_end(remaining) ||
	       (remaining->Type == ACPI_DEVICE_PATH && remaining->SubType == ACPI_ADR_DP &&
		dp_node_length(remaining) >= sizeof(ACPI_ADR_DEVICE_PATH));
}

static bool is_display(void *pci_io)
{
	bool vga;

	return qv_hw_identify(pci_io, &vga);
}

static EFI_STATUS EFIAPI qv_supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				      EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	if (!remaining_is_output(remaining))
		return EFI_UNSUPPORTED;
	return driver_can_open(this->DriverBindingHandle, controller, &pci_io_guid, is_display);
}

/* Turns on memory decoding (and I/O for a VGA), remembering what was on before. */
static EFI_STATUS qv_enable(struct qemu_video *qv)
{
	EFI_PCI_IO_PROTOCOL *p = qv->pci_io;
	UINT64 supported = 0, wanted = EFI_PCI_IO_ATTRIBUTE_MEMORY;
	EFI_STATUS status;

	status = p->Attributes(p, EfiPciIoAttributeOperationGet, 0, &qv->saved_attributes);
	if (EFI_ERROR(status))
		return status;
	status = p->Attributes(p, EfiPciIoAttributeOperationSupported, 0, &supported);
	if (EFI_ERROR(status))
		return status;
	if (qv->vga)
		wanted |= EFI_PCI_IO_ATTRIBUTE_IO & supported;
	return p->Attributes(p, EfiPciIoAttributeOperationEnable, wanted, NULL);
}

/* Everything Start does short of the child handle. */
static EFI_STATUS qv_bring_up(struct qemu_video *qv)
{
	EFI_STATUS status;

	if (!qv_hw_identify(qv->pci_io, &qv->vga))
		return EFI_UNSUPPORTED;
	status = qv_enable(qv);
	if (EFI_ERROR(status))
		return status;
	status = qv_hw_probe(qv);
	if (EFI_ERROR(status) || !qv_modes_build(qv)) {
		qv->pci_io->Attributes(qv->pci_io, EfiPciIoAttributeOperationSet,
				       qv->saved_attributes, NULL);
		return EFI_ERROR(status) ? status : EFI_UNSUPPORTED;
	}
	qv_gop_init(qv);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI qv_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				  EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	struct qemu_video *qv = pool_alloc(sizeof(*qv));
	EFI_STATUS status;

	if (!qv)
		return EFI_OUT_OF_RESOURCES;
	qv->signature = QV_SIGNATURE;
	qv->controller = controller;
	status = protocol_open(controller, &pci_io_guid, (void **)&qv->pci_io, driver, controller,
			       EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status))
		goto err_free;
	status = qv_bring_up(qv);
	if (EFI_ERROR(status))
		goto err_close;
	status = qv_gop_set_mode(qv, 0);
	if (EFI_ERROR(status))
		goto err_restore;
	/* An End node asks for the controller alone, without its output (11.1, Start). */
	if (!remaining || !dp_is_end(remaining)) {
		status = qv_child_create(qv, driver);
		if (EFI_ERROR(status))
			goto err_restore;
	}
	list_add_tail(&qv->link, &qv_devices);
	return EFI_SUCCESS;

err_restore:
	qv->pci_io->Attributes(qv->pci_io, EfiPciIoAttributeOperationSet, qv->saved_attributes,
			       NULL);
err_close:
	protocol_close(controller, &pci_io_guid, driver, controller);
err_free:
	qv->signature = 0;
	pool_free(qv);
	return status;
}

static EFI_STATUS EFIAPI qv_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				 UINTN child_count, EFI_HANDLE *children)
{
	EFI_HANDLE driver = this->DriverBindingHandle;
	struct qemu_video *qv = qv_find(controller);
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
	qv->pci_io->Attributes(qv->pci_io, EfiPciIoAttributeOperationSet, qv->saved_attributes,
			       NULL);
	protocol_close(controller, &pci_io_guid, driver, controller);
	list_del(&qv->link);
	qv->signature = 0;
	pool_free(qv);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI qv_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
					    EFI_HANDLE controller, EFI_HANDLE child,
					    CHAR8 *language, CHAR16 **name)
{
	struct qemu_video *qv = qv_find(controller);

	if (!qv || (child && child != qv->child))
		return EFI_UNSUPPORTED;
	*name = qv->vga ? (CHAR16 *)u"QEMU Standard VGA" : (CHAR16 *)u"QEMU Bochs Display";
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
