/* The shared Start and Stop of virtio PCI drivers (virtio_function.h). */
#define LOG_PREFIX "virtio: "
#include "virtio_function.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

/* Transport, exit event and the driver's set-up, once the PCI function is open. */
static EFI_STATUS start_device(const struct virtio_function_ops *ops, struct virtio_function *f,
			       EFI_HANDLE controller)
{
	EFI_STATUS status = virtio_pci_init(&f->vp, f->pci.pci_io);

	if (EFI_ERROR(status)) {
		log_debug("no virtio interface: %r\n", status);
		return status;
	}
	status = virtio_reset_at_exit(&f->vp.dev, &f->exit_event);
	if (EFI_ERROR(status)) {
		log_debug("exit event: %r\n", status);
		return status;
	}
	status = ops->start(f, controller);
	if (EFI_ERROR(status))
		event_close(f->exit_event);
	return status;
}

EFI_STATUS virtio_function_start(const struct virtio_function_ops *ops, EFI_HANDLE driver,
				 EFI_HANDLE controller)
{
	struct virtio_function *f = pool_alloc(ops->size);
	EFI_STATUS status;

	if (!f)
		return EFI_OUT_OF_RESOURCES;
	mem_set(f, 0, ops->size);
	status = pci_driver_start(&f->pci, driver, controller, 0, ops->attributes);
	if (EFI_ERROR(status))
		goto err_free;
	status = start_device(ops, f, controller);
	if (EFI_ERROR(status))
		goto err_pci;
	return EFI_SUCCESS;

err_pci:
	log_warn("cannot start the device: %r\n", status);
	pci_driver_stop(&f->pci);
err_free:
	pool_free(f);
	return status;
}

struct virtio_function *virtio_function_find(EFI_HANDLE driver, EFI_HANDLE controller)
{
	struct pci_driver_dev *pci = pci_driver_find(driver, controller);

	return pci ? container_of(pci, struct virtio_function, pci) : NULL;
}

EFI_STATUS virtio_function_stop(const struct virtio_function_ops *ops, EFI_HANDLE driver,
				EFI_HANDLE controller)
{
	struct virtio_function *f = virtio_function_find(driver, controller);
	EFI_STATUS status;

	if (!f)
		return EFI_UNSUPPORTED;
	status = ops->stop(f, controller);
	if (EFI_ERROR(status))
		return status;
	event_close(f->exit_event);
	pci_driver_stop(&f->pci);
	pool_free(f);
	return EFI_SUCCESS;
}
