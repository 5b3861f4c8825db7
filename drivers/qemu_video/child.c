/* The child handle that carries the GOP: the controller's device path followed by
 * AcpiAdr(display output), the form OVMF and consoles look for. */
#define LOG_PREFIX "qemu-video: "
#include "qemu_video.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>

/* ACPI _DOD display ID (ACPI 6.5, table B.2): bit 31 says the ID follows ACPI's scheme,
 * bit 16 that firmware can detect the display, bits 11:8 = 1 a VGA/CRT output. */
#define QV_ACPI_ADR 0x80010100

EFI_STATUS qv_child_create(struct qemu_video *qv, EFI_HANDLE driver)
{
	ACPI_ADR_DEVICE_PATH adr = {{ACPI_DEVICE_PATH, ACPI_ADR_DP, {sizeof(adr), 0}}, QV_ACPI_ADR};
	EFI_DEVICE_PATH_PROTOCOL *parent;
	void *pci_io;
	EFI_STATUS status;

	status = protocol_get(qv->pci.controller, &efi_device_path_protocol_guid, (void **)&parent);
	if (EFI_ERROR(status)) {
		log_debug("the controller has no device path: %r\n", status);
		return status;
	}
	qv->child_path = dp_append_node(parent, &adr.Header);
	if (!qv->child_path) {
		log_debug("no memory for the child's device path\n");
		return EFI_OUT_OF_RESOURCES;
	}
	qv->child = NULL;
	status = gop_front_install(&qv->front, &qv->child, qv->child_path);
	if (EFI_ERROR(status)) {
		log_debug("installing the GOP: %r\n", status);
		goto err_free;
	}
	status = protocol_open(qv->pci.controller, &efi_pci_io_protocol_guid, &pci_io, driver,
			       qv->child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("opening PciIo for the child: %r\n", status);
		goto err_uninstall;
	}
	return EFI_SUCCESS;

err_uninstall:
	gop_front_uninstall(&qv->front, qv->child_path);
err_free:
	qv->child = NULL;
	pool_free(qv->child_path);
	qv->child_path = NULL;
	return status;
}

EFI_STATUS qv_child_destroy(struct qemu_video *qv, EFI_HANDLE driver)
{
	void *pci_io;
	EFI_STATUS status;

	protocol_close(qv->pci.controller, &efi_pci_io_protocol_guid, driver, qv->child);
	status = gop_front_uninstall(&qv->front, qv->child_path);
	if (EFI_ERROR(status)) {
		/* Someone still holds the GOP: the child stays as it was. */
		protocol_open(qv->pci.controller, &efi_pci_io_protocol_guid, &pci_io, driver,
			      qv->child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	qv->child = NULL;
	pool_free(qv->child_path);
	qv->child_path = NULL;
	return EFI_SUCCESS;
}
